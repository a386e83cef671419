import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  USERS,
  apiOf,
  goto,
  menuTexts,
  pageTest,
  screenshot,
  switchLanguage,
  tableLoaded,
  tokenOf,
  useBrowser,
} from './browser';

const browser = useBrowser();

const form = (page: Page) => page.getByTestId('master-form');
const field = (page: Page, key: string) => form(page).getByTestId(`field-${key}`);
const table = (page: Page) => page.getByTestId('master-table');
/** The list has loaded (no spinner over the table). */
const listReady = async (page: Page) => {
  await table(page).locator('tr.ant-table-row').first().waitFor();
  await tableLoaded(page, 'master-table');
};
const rowOf = (page: Page, text: string): Locator =>
  table(page).locator('tr.ant-table-row', { hasText: text });

/** Opens an antd Select and picks the option with this text (again if a closing dropdown ate the click). */
async function choose(page: Page, select: Locator, option: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await page
      .locator('.ant-select-dropdown:visible')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await select.click();
    const item = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
      .first();
    // The choices load with the form: under CI load they can take longer than a click's wait.
    await item.click({ timeout: 15_000 }).catch(() => undefined);
    const picked = await expect
      .poll(() => select.innerText(), { timeout: 2000 })
      .toContain(option)
      .then(() => true)
      .catch(() => false);
    if (picked) return;
    await page.keyboard.press('Escape');
  }
  throw new Error(`could not choose ${option}`);
}

async function save(page: Page) {
  await page.getByTestId('master-form-save').click();
}

async function search(page: Page, text: string) {
  await page.getByTestId('search').locator('input').fill(text);
}

/** The form is gone and the success message shows. */
async function saved(page: Page, text: string) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
  await form(page).waitFor({ state: 'detached' });
}

/**
 * Saves the form: `message` shows and the form closes; the row `name`, searched for, shows `text`.
 */
async function saveRow(page: Page, message: string, name: string, text: string) {
  await save(page);
  await saved(page, message);
  await search(page, name);
  await rowOf(page, name).getByText(text).waitFor();
}

/** Opens the add form (its title `title`). */
async function openAddForm(page: Page, title: string) {
  await page.getByTestId('add').click();
  await page.getByText(title).waitFor();
}

/** Opens the add form (its title `title`) and saves it empty: each of `required` shows. */
async function saveEmptyForm(page: Page, title: string, ...required: string[]) {
  await openAddForm(page, title);
  await save(page);
  for (const message of required) await form(page).getByText(message).waitFor();
}

/** Opens the edit form (its title `title`) of the row `name`. */
async function editRow(page: Page, name: string, title: string) {
  await rowOf(page, name).getByTestId('edit-row').click();
  await page.getByText(title).waitFor();
}

async function deleteRow(page: Page, text: string) {
  await rowOf(page, text).getByTestId('delete-row').click();
  await page.locator('.ant-popover:visible').getByTestId('confirm-delete').click();
  await page.locator('.ant-message-notice', { hasText: 'Deleted successfully' }).first().waitFor();
  await rowOf(page, text).waitFor({ state: 'detached' });
}

/**
 * A test of the provider admin on the master page `key` (its heading `heading`), on a fresh page of
 * its own: a failed attempt's open form does not stay in the retry's way.
 */
const masterTest = (
  title: string,
  shot: string,
  key: string,
  heading: string,
  walk: (page: Page) => Promise<void>,
) =>
  pageTest(browser, title, { shot, as: USERS.admin, path: `/admin/master/${key}` }, async (page) => {
    await page.getByRole('heading', { name: heading }).waitFor();
    await walk(page);
  });

describe('masters (admin)', () => {
  masterTest(
    'adds, edits and deletes a plan through the form; screenshots in English and Finnish',
    'masters-plans',
    'plan',
    'Plans',
    async (page) => {
      expect(await menuTexts(page)).toContain('Masters');
      await listReady(page);
      // Server-side paging with items per page and go-to-page.
      await page.locator('.ant-pagination-options-size-changer').waitFor();
      await page.locator('.ant-pagination-options-quick-jumper').waitFor();
      await screenshot(page, 'masters-plans-en');

      await saveEmptyForm(
        page,
        'Add plan',
        'Name is required',
        'Operator is required',
        'List price (€/month) is required',
      );
      await screenshot(page, 'masters-plan-form-en');

      const name = `E2E Yritysliittymä ${Date.now()}`;
      await field(page, 'name').fill(name);
      await choose(page, field(page, 'operatorId'), 'Elisa');
      await choose(page, field(page, 'planType'), 'Flat rate');
      await field(page, 'listPrice').fill('12.345');
      await save(page);
      await form(page).getByText('List price (€/month) is invalid!').waitFor();
      await field(page, 'listPrice').fill('24,90');
      await field(page, 'dataSpeedMbps').fill('300');
      await field(page, 'dataInEu').check();
      await saveRow(page, 'Saved successfully', name, '€24.90');

      await editRow(page, name, 'Edit plan');
      expect(await field(page, 'listPrice').inputValue()).toBe('24.90');
      await field(page, 'listPrice').fill('29.90');
      await saveRow(page, 'Updated successfully', name, '€29.90');

      await deleteRow(page, name);

      // The same list and form in Finnish.
      await search(page, '');
      await switchLanguage(page, 'fi');
      await page.getByRole('heading', { name: 'Liittymät' }).waitFor();
      await expect.poll(() => rowOf(page, 'E2E Yritysliittymä').count()).toBe(0);
      await listReady(page);
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached' });
      await expect
        .poll(() =>
          table(page)
            .locator('td', { hasText: /\d,\d\d\s€/ })
            .count(),
        )
        .toBeGreaterThan(0);
      // Clicking the row actions scrolled the wide table to its right end; start from the left.
      await table(page)
        .locator('.ant-table-content')
        .evaluate((el) => el.scrollTo({ left: 0 }));
      await screenshot(page, 'masters-plans-fi');
      await saveEmptyForm(page, 'Lisää liittymä', 'Nimi on pakollinen');
      await screenshot(page, 'masters-plan-form-fi');
      await page.locator('.ant-modal-footer button', { hasText: 'Peruuta' }).click();
      // Back to English for the other tests (the language is saved on the user).
      await switchLanguage(page, 'en');
      await page.getByRole('heading', { name: 'Plans' }).waitFor();
    },
  );

  masterTest(
    'adds, edits and deletes a cost category; the Finnish name is required',
    'masters-cost-category',
    'cost-category',
    'Cost Categories',
    async (page) => {
      await table(page).locator('tr.ant-table-row').first().waitFor();

      const name = `E2E Roaming data ${Date.now()}`;
      await openAddForm(page, 'Add cost category');
      await field(page, 'name').fill(name);
      await choose(page, field(page, 'usageType'), 'Data');
      await choose(page, field(page, 'zone'), 'EU/EEA');
      await save(page);
      await form(page).getByText('Finnish name is required').waitFor();
      await field(page, 'nameFi').fill('Tiedonsiirto EU/ETA (E2E)');
      await saveRow(page, 'Saved successfully', name, 'Tiedonsiirto EU/ETA (E2E)');

      await editRow(page, name, 'Edit cost category');
      await field(page, 'nameFi').fill('');
      await save(page);
      await form(page).getByText('Finnish name is required').waitFor();
      await field(page, 'nameFi').fill('Tiedonsiirto EU (E2E)');
      await saveRow(page, 'Updated successfully', name, 'Tiedonsiirto EU (E2E)');

      // A second row with the same name is refused with the API's message.
      await page.getByTestId('add').click();
      await field(page, 'name').fill(name);
      await field(page, 'nameFi').fill('Kaksoiskappale');
      await choose(page, field(page, 'usageType'), 'Data');
      await choose(page, field(page, 'zone'), 'EU/EEA');
      await save(page);
      await form(page).getByText('A row with the same name already exists').waitFor();
      await page.locator('.ant-modal-footer button', { hasText: 'Cancel' }).click();
      await form(page).waitFor({ state: 'detached' });

      await deleteRow(page, name);
    },
  );

  masterTest(
    'assigns a category to cost elements and approves them in bulk',
    'masters-cost-elements',
    'cost-elements',
    'Cost Elements',
    async (page) => {
      const prefix = `E2E Roaming ${Date.now()}`;
      for (const suffix of ['data EU', 'puhelut EU']) {
        await openAddForm(page, 'Add cost element');
        await field(page, 'name').fill(`${prefix} ${suffix}`);
        await choose(page, field(page, 'operatorId'), 'Elisa');
        await save(page);
        await saved(page, 'Saved successfully');
      }
      await search(page, prefix);
      await expect.poll(() => table(page).locator('tr.ant-table-row').count()).toBe(2);
      await expect
        .poll(() => table(page).getByTestId('cost-element-status').allInnerTexts())
        .toEqual(['Uncategorized', 'Uncategorized']);
      // Approving needs a category first.
      expect(await table(page).getByTestId('approve-row').first().isDisabled()).toBe(true);

      await table(page).locator('thead .ant-checkbox-input').check();
      await page.getByTestId('selection-count').getByText('2 selected').waitFor();
      await page.getByTestId('bulk-assign').click();
      const dialog = page.locator('.ant-modal:visible');
      await choose(page, dialog.getByTestId('assign-category-select'), 'Domestic data');
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await page.locator('.ant-message-notice', { hasText: 'Cost elements categorized' }).first().waitFor();
      await expect
        .poll(() => table(page).getByTestId('cost-element-status').allInnerTexts())
        .toEqual(['Categorized', 'Categorized']);

      await table(page).locator('thead .ant-checkbox-input').check();
      await page.getByTestId('bulk-approve').click();
      await page.locator('.ant-popover:visible .ant-btn-primary').click();
      await page.locator('.ant-message-notice', { hasText: 'Cost elements approved' }).first().waitFor();
      await expect
        .poll(() => table(page).getByTestId('cost-element-status').allInnerTexts())
        .toEqual(['Approved', 'Approved']);
      await screenshot(page, 'masters-cost-elements-en');

      await deleteRow(page, `${prefix} data EU`);
      await deleteRow(page, `${prefix} puhelut EU`);
    },
  );

  pageTest(
    browser,
    'opens every master page from the route table and lists its rows',
    { shot: 'masters-pages', as: USERS.admin },
    async (page) => {
      const pages = [
        'operators',
        'country',
        'currency',
        'cost-centers',
        'cost-groups',
        'cost-category',
        'cost-elements',
        'plan',
        'plan-groups',
        'base-plan-groups',
        'skipped-phone-number',
        'client-billing-plan',
        'help',
      ];
      for (const key of pages) {
        await goto(page, `/admin/master/${key}`);
        await tableLoaded(page, 'master-table');
        expect(await page.getByTestId('coming-soon').count(), key).toBe(0);
      }
      await goto(page, '/admin/master/client-billing-plan');
      await listReady(page);
      await screenshot(page, 'masters-billing-plans-en');
      // Export to Excel: the current list, fetched with the bearer token and saved as .xlsx.
      const download = page.waitForEvent('download');
      await page.getByTestId('export').click();
      expect((await download).suggestedFilename()).toMatch(/^billing-plans-\d{4}-\d{2}-\d{2}\.xlsx$/);
      await goto(page, '/admin/master/help');
      await saveEmptyForm(page, 'Upload help file', 'File is required');
      await screenshot(page, 'masters-help-form-en');
    },
  );
});

describe('masters (consultant)', () => {
  pageTest(
    browser,
    'has no Masters menu and the API answers 403',
    { shot: 'masters-consultant', as: USERS.consultant, path: '/admin/master/plan' },
    async (page) => {
      await page.getByText('Access denied').waitFor();
      expect(await menuTexts(page)).not.toContain('Masters');

      expect(await tokenOf(page)).toBeTruthy();
      const res = await (await apiOf(page))('/masters/plans');
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('forbidden');
    },
  );
});
