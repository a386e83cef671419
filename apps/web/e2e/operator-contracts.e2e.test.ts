import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  USERS,
  fillDay,
  toast,
  toastsGone,
  goto,
  login,
  onPage,
  openClient,
  screenshot,
  switchLanguage,
  useBrowser,
} from './browser';

const browser = useBrowser();

/** A date picker's input by its test id. */
const dayInput = (page: Page, testId: string) =>
  page.locator(`input[data-testid=${testId}], [data-testid=${testId}] input`).first();

const year = new Date().getUTCFullYear() + 5;

describe('operator contract details', () => {
  it('the provider edits a contract and its documents; the company sees them on My Profile', async () => {
    await onPage(browser(), 'operator-contracts', provider);
    await onPage(browser(), 'operator-contracts-profile', companyProfile);
  }, 240_000);
});

async function provider(page: Page) {
  await openClient(page, 'Pohjola Rakennus Oy');
  await page.getByRole('tab', { name: 'Operator contract details', exact: true }).click();
  await page.getByTestId('operator-contracts-list').waitFor();

  // The first operator's details: a reminder outside start..end is refused on the field.
  const form = page.locator('[data-testid^=operator-contract-form-]').first();
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/operator-contracts/')) puts.push(r.postData() ?? '');
  });
  await form.getByTestId('oc-sales-contact').fill('Petri Salo');
  await fillDay(dayInput(page, 'oc-start'), `01/01/${year}`);
  await fillDay(dayInput(page, 'oc-end'), `31/12/${year + 2}`);
  await fillDay(dayInput(page, 'oc-reminder'), `01/10/${year + 2}`);
  await form.getByTestId('oc-save').click();
  await toast(page, 'Operator contract details saved successfully');
  await toastsGone(page);
  // One save, on the button, with every field (Enter in a date picker does not submit the form).
  expect(puts.map((b) => JSON.parse(b) as Record<string, unknown>)).toEqual([
    expect.objectContaining({
      salesContactName: 'Petri Salo',
      contractStartDate: `${year}-01-01`,
      contractEndDate: `${year + 2}-12-31`,
      contractEndReminder: `${year + 2}-10-01`,
    }),
  ]);

  // Documents: upload a CSV (the name proposed from the file), refuse the same name again.
  const docs = page.locator('[data-testid^=operator-documents-]').first();
  await docs.getByTestId('document-upload').click();
  const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('document-upload-form') });
  await modal.locator('input[type=file]').setInputFiles({
    name: 'Hinnasto 2031.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('operaattori;hinta\nDNA;12,50\n'),
  });
  await expect.poll(() => modal.getByTestId('document-name').inputValue()).toBe('Hinnasto 2031');
  await modal.getByRole('button', { name: 'Upload', exact: true }).click();
  await toast(page, 'Document uploaded successfully');
  await docs.getByRole('cell', { name: 'Hinnasto 2031', exact: true }).waitFor();
  await toastsGone(page);

  await docs.getByTestId('document-upload').click();
  await modal.locator('input[type=file]').setInputFiles({
    name: 'hinnasto.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('a;b\n'),
  });
  await modal.getByTestId('document-name').fill('hinnasto 2031');
  await modal.getByRole('button', { name: 'Upload', exact: true }).click();
  await modal.getByText('Document with same name already uploaded').waitFor();
  await screenshot(page, 'operator-contracts-duplicate-en');
  await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
  await modal.waitFor({ state: 'hidden' });

  // Download: the browser saves it under its name.
  const row = docs.locator('tr').filter({ hasText: 'Hinnasto 2031' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.locator('[data-testid^=document-download-]').click(),
  ]);
  expect(download.suggestedFilename()).toBe('Hinnasto 2031.csv');
  await screenshot(page, 'operator-contracts-en');

  // In Finnish.
  await switchLanguage(page, 'fi');
  await page.getByRole('tab', { name: 'Operaattorisopimukset', exact: true }).waitFor();
  await docs.getByRole('columnheader', { name: 'Asiakirjan nimi' }).waitFor();
  await screenshot(page, 'operator-contracts-fi');

  // Delete after the confirmation.
  await row.locator('[data-testid^=document-delete-]').click();
  await page.getByText('Poistetaanko asiakirja ”Hinnasto 2031”?', { exact: false }).waitFor();
  await page.getByTestId('document-delete-confirm').click();
  await toast(page, 'Asiakirja poistettu');
  await row.waitFor({ state: 'detached' });
  await switchLanguage(page, 'en');
}

async function companyProfile(page: Page) {
  await login(page, USERS.companyAdmin);
  await goto(page, '/profile');
  await page.getByRole('tab', { name: /operator contract/i }).click();
  await page.getByTestId('operator-contracts-list').waitFor();
  await expect
    .poll(() =>
      page
        .locator('[data-testid^=operator-contract-form-]')
        .first()
        .getByTestId('oc-sales-contact')
        .inputValue(),
    )
    .toBe('Petri Salo');
  await expect
    .poll(() =>
      page.locator('input[data-testid=oc-reminder], [data-testid=oc-reminder] input').first().inputValue(),
    )
    // Shown as the app writes a day (2 Dec 2026), typed in as 01/10/….
    .toBe(`1 Oct ${year + 2}`);
  await page.locator('[data-testid^=operator-documents-]').first().getByText('No documents yet').waitFor();
  await screenshot(page, 'operator-contracts-profile-en');
  await switchLanguage(page, 'fi');
  await page
    .locator('[data-testid^=operator-documents-]')
    .first()
    .getByText('Ei vielä asiakirjoja')
    .waitFor();
  await screenshot(page, 'operator-contracts-profile-fi');
  await switchLanguage(page, 'en');
}
