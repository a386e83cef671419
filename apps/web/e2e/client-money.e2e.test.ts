import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  fillDay,
  openClient,
  openTab,
  pageTest,
  screenshot,
  switchLanguage,
  toast,
  toastsGone,
  useBrowser,
} from './browser';

const browser = useBrowser();

describe('a client: contracts, billing, payments and on-demand support', () => {
  pageTest(
    browser,
    'works through the four sections in English and shows them in Finnish',
    { shot: 'client-money', timeout: 240_000 },
    walk,
  );
});

/** The walk through the four sections, in English and then in Finnish. */
async function walk(page: Page) {
  await openClient(page, 'Pohjola Rakennus Oy');

  // Billing management: put the client on a plan; its fees show read-only.
  await openTab(page, 'Billing management');
  await page.getByTestId('client-billing').waitFor();
  await page.getByTestId('billing-plan-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Kulu Pro 36 kk' }).click();
  await page.getByTestId('billing-save').click();
  await toast(page, 'Billing plan saved successfully');
  await expect.poll(() => page.getByTestId('billing-fees').innerText()).toContain('Kulu Pro 36 kk');
  await toastsGone(page);
  await screenshot(page, 'client-billing-en');

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
  await toast(page, 'Contract terminated successfully');
  await expect.poll(() => last.innerText()).toContain('Terminated');
  await toastsGone(page);
  await screenshot(page, 'client-contracts-en');

  // Client payments: 0 is refused on the field with the spec's message, then a payment is added.
  await openTab(page, 'Client payments');
  await page.getByTestId('client-payments').waitFor();
  await page.getByTestId('payment-add').click();
  await page.locator('#amount').fill('0');
  await page.locator('.ant-modal-footer .ant-btn-primary').click();
  await page.getByText('Payment amount must be greater than 0').waitFor();
  await screenshot(page, 'client-payment-error-en');
  await page.locator('#amount').fill('1250,50');
  await page.locator('#description').fill('Invoice 11/2026');
  await page.locator('.ant-modal-footer .ant-btn-primary').click();
  await toast(page, 'Payment added successfully');
  await expect.poll(() => page.getByTestId('payments-total').innerText()).toContain('1,250.50');
  await toastsGone(page);
  await screenshot(page, 'client-payments-en');

  // On-demand support: hours today, the month's total and cost at the plan's support fee.
  await openTab(page, 'On-demand support');
  await page.getByTestId('client-support').waitFor();
  await page.getByTestId('support-add').click();
  await page.locator('#hours').fill('1,5');
  await page.locator('#description').fill('Phone support');
  await page.locator('.ant-modal-footer .ant-btn-primary').click();
  await toast(page, 'On-demand support added successfully');
  await expect.poll(() => page.getByTestId('support-month').innerText()).toContain('1.5 h');
  await toastsGone(page);
  await screenshot(page, 'client-support-en');

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
  await openTab(page, 'Asiakkaan maksut');
  await expect.poll(() => page.getByTestId('payments-total').innerText()).toMatch(/1\s250,50/);
  await screenshot(page, 'client-payments-fi');
  await openTab(page, 'Tukitunnit');
  await expect.poll(() => page.getByTestId('support-month').innerText()).toContain('1,5 h');
  await screenshot(page, 'client-support-fi');
  await switchLanguage(page, 'en');
}
