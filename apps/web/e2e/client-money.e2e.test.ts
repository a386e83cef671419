import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  fillDay,
  openTab,
  screenshot,
  screenshotWithoutToasts,
  switchLanguage,
  toast,
  useBrowser,
} from './browser';
import { clientSectionTest } from './steps';

const browser = useBrowser();

describe('a client: contracts, billing, payments and on-demand support', () => {
  clientSectionTest(
    browser,
    'works through the four sections in English and shows them in Finnish',
    { shot: 'client-money', tab: 'Billing management', timeout: 240_000 },
    walk,
  );
});

/** The toast of a save, then `figure` shows `text`; the picture `shot` once the toasts are gone. */
async function shown(page: Page, message: string, figure: Locator, text: string, shot: string) {
  await toast(page, message);
  await expect.poll(() => figure.innerText()).toContain(text);
  await screenshotWithoutToasts(page, shot);
}

/** Fills the open modal's fields (by id) and saves it. */
async function addInModal(page: Page, fields: Record<string, string>) {
  for (const [id, value] of Object.entries(fields)) await page.locator(`#${id}`).fill(value);
  await page.locator('.ant-modal-footer .ant-btn-primary').click();
}

/** A section where a row is added in a dialog: what is filled, the toast, the figure it changes. */
interface Added {
  tab: string;
  testId: string;
  add: string;
  /** Fields the dialog refuses first, with the message and the picture. */
  refused?: { fields: Record<string, string>; message: string; shot: string };
  fields: Record<string, string>;
  saved: string;
  figure: string;
  text: string;
  shot: string;
}

const ADDED: Added[] = [
  {
    // Client payments: 0 is refused on the field with the spec's message, then a payment is added.
    tab: 'Client payments',
    testId: 'client-payments',
    add: 'payment-add',
    refused: {
      fields: { amount: '0' },
      message: 'Payment amount must be greater than 0',
      shot: 'client-payment-error-en',
    },
    fields: { amount: '1250,50', description: 'Invoice 11/2026' },
    saved: 'Payment added successfully',
    figure: 'payments-total',
    text: '1,250.50',
    shot: 'client-payments-en',
  },
  {
    // On-demand support: hours today, the month's total and cost at the plan's support fee.
    tab: 'On-demand support',
    testId: 'client-support',
    add: 'support-add',
    fields: { hours: '1,5', description: 'Phone support' },
    saved: 'On-demand support added successfully',
    figure: 'support-month',
    text: '1.5 h',
    shot: 'client-support-en',
  },
];

/** The walk through the four sections, in English and then in Finnish. */
async function walk(page: Page) {
  // Billing management (open first): put the client on a plan; its fees show read-only.
  await page.getByTestId('client-billing').waitFor();
  await page.getByTestId('billing-plan-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Kulu Pro 36 kk' }).click();
  await page.getByTestId('billing-save').click();
  await shown(
    page,
    'Billing plan saved successfully',
    page.getByTestId('billing-fees'),
    'Kulu Pro 36 kk',
    'client-billing-en',
  );

  // Contracts: a draft with the live cost preview, activated, then terminated.
  const year = new Date().getUTCFullYear() + 5;
  await openTab(page, 'Contracts');
  await page.getByTestId('contracts-table').waitFor();
  await page.getByTestId('contract-add').click();
  await page.locator('#term').fill('12 months');
  await fillDay(page.locator('#startDate'), `01/01/${year}`);
  await fillDay(page.locator('#endDate'), `31/12/${year}`);
  await page.locator('#numberOfPlans').fill('10');
  await expect.poll(() => page.getByTestId('contract-preview').innerText()).toMatch(/Monthly cost\s*€/);
  await screenshot(page, 'client-contract-form-en');
  await page.getByTestId('contract-save-draft').click();
  await toast(page, 'Contract saved as a draft');
  const draftRow = page
    .getByTestId('contracts-table')
    .locator('tr.ant-table-row')
    .filter({ hasText: 'Draft' });
  await draftRow.waitFor();
  // A draft never started: it can be activated, not terminated.
  await draftRow.getByRole('button', { name: 'Activate' }).waitFor();
  expect(await draftRow.getByRole('button', { name: 'Terminate' }).count()).toBe(0);
  await draftRow.getByRole('button', { name: 'Activate' }).click();
  // The row button's own "Activate" tooltip can lie over the confirmation's button: move away first.
  await page.mouse.move(0, 0);
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Activate' }).click();
  await toast(page, 'Contract updated successfully');
  const rows = page.getByTestId('contracts-table').locator('tr.ant-table-row');
  const last = rows.filter({ hasText: `${year}` }).first();
  await last.getByRole('button', { name: 'Terminate' }).click();
  await page.locator('#contract-terminate-confirm').waitFor();
  await screenshot(page, 'client-contract-terminate-en');
  // Enter in the date field submits the termination (as the Terminate button does).
  await fillDay(page.locator('#terminationDate'), `30/06/${year}`);
  await shown(page, 'Contract terminated successfully', last, 'Terminated', 'client-contracts-en');

  for (const section of ADDED) {
    await openTab(page, section.tab);
    await page.getByTestId(section.testId).waitFor();
    await page.getByTestId(section.add).click();
    if (section.refused) {
      await addInModal(page, section.refused.fields);
      await page.getByText(section.refused.message).waitFor();
      await screenshot(page, section.refused.shot);
    }
    await addInModal(page, section.fields);
    await shown(page, section.saved, page.getByTestId(section.figure), section.text, section.shot);
  }

  // The same sections in Finnish.
  await switchLanguage(page, 'fi');
  await openTab(page, 'Sopimukset');
  await page.getByTestId('contracts-table').waitFor();
  await expect.poll(() => page.getByTestId('contracts-table').innerText()).toContain('Irtisanottu');
  await screenshot(page, 'client-contracts-fi');
  await page.getByTestId('contract-add').click();
  await page.getByTestId('contract-form').waitFor();
  await screenshot(page, 'client-contract-form-fi');
  await page.locator('.ant-modal-footer').getByRole('button', { name: 'Peruuta' }).click();
  await openTab(page, 'Laskutuksen hallinta');
  await page.getByTestId('billing-fees').waitFor();
  await screenshot(page, 'client-billing-fi');
  for (const [tab, figure, text, shot] of [
    ['Asiakkaan maksut', 'payments-total', /1\s250,50/, 'client-payments-fi'],
    ['Tukitunnit', 'support-month', /1,5 h/, 'client-support-fi'],
  ] as const) {
    await openTab(page, tab);
    await expect.poll(() => page.getByTestId(figure).innerText()).toMatch(text);
    await screenshot(page, shot);
  }
  await switchLanguage(page, 'en');
}
