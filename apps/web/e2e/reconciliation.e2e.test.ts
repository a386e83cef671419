import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  USERS,
  addClient,
  apiOf,
  baseUrl,
  businessId,
  goto,
  pageTest,
  pickOption,
  screenshot,
  switchLanguage,
  tokenOf,
  useBrowser,
  type Api,
} from './browser';
import { companyUpload } from './steps';

/**
 * Issue 38: an invoice's reconciliation, visibly, in English and Finnish: a demo invoice that
 * reconciles to the cent; a generated e-invoice whose stated total differs from its rows by 5 €
 * (on its page, in the list and on the dashboard, then deleted: the demo's figures stay as other
 * tests read them); and item 7, a new company created with an operator but no contract with it,
 * whose first invoice is refused and read again once the contract is added from its row.
 */

const browser = useBrowser();

const ROOT = join(import.meta.dirname, '../../..');

/** A generated Finvoice e-invoice (the invoice CLI in its own process), edited by `edit`. */
function finvoice(args: string[], edit: (xml: string) => string = (x) => x): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'kulu-reconciliation-'));
  try {
    const out = join(dir, 'invoice.xml');
    execFileSync(
      'node',
      ['packages/invoices/bin/kulu-invoice.mjs', 'generate', '--format', 'finvoice', ...args, '--out', out],
      { cwd: ROOT, timeout: 120_000 },
    );
    return Buffer.from(edit(readFileSync(out, 'utf8')), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `<Tag …>12,34</Tag>` with `euros` added to its amount (the stated figure only; the rows stay). */
const bump = (xml: string, tag: string, euros: number) =>
  xml.replace(new RegExp(`(<${tag}[^>]*>)(-?[\\d]+,\\d{2})(<)`), (_, open: string, amount: string, close) => {
    const cents = Math.round(Number(amount.replace(',', '.')) * 100) + euros * 100;
    return `${open}${(cents / 100).toFixed(2).replace('.', ',')}${close}`;
  });

interface UploadedInvoice {
  id: number;
  invoiceNumber: string | null;
  uploadState: string;
  errorCode: string | null;
}

/**
 * Uploads `data` through the API as the user signed in on `page` (for `clientId` when given), sent
 * again while another upload of the company still parses, and waits until it is read: the invoice.
 */
async function uploadAndWait(
  page: Page,
  name: string,
  data: Buffer,
  clientId?: number,
): Promise<UploadedInvoice> {
  const token = await tokenOf(page);
  const api = await apiOf(page);
  const deadline = Date.now() + 360_000;
  let id: number | undefined;
  while (id === undefined) {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(data)], { type: 'text/xml' }), name);
    const res = await fetch(`${baseUrl()}/api/invoices${clientId ? `?clientId=${clientId}` : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as {
      code?: string;
      results?: Array<{ invoiceId?: number; code?: string }>;
    };
    id = body.results?.[0]?.invoiceId;
    if (id === undefined) {
      expect(body.results?.[0]?.code ?? body.code).toBe('previousParseRunning');
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  for (;;) {
    const invoice = await api.get<UploadedInvoice>(`/invoices/${id}`);
    if (invoice.uploadState !== 'in_progress') return invoice;
    expect(Date.now()).toBeLessThan(deadline);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const deleteInvoice = async (api: Api, id: number) =>
  expect((await api(`/invoices/${id}`, 'DELETE')).status).toBe(200);

describe('an invoice reconciled to the cent, visibly (issue 38)', () => {
  pageTest(
    browser,
    'a demo invoice shows its reconciliation and the list says it reconciles, in English and Finnish',
    companyUpload('reconciliation-demo', 180_000),
    async (page) => {
      const table = page.getByTestId('invoice-table');
      const row = table.locator('tr.ant-table-row', { has: page.getByTestId('invoice-link') }).first();
      await row.getByTestId('reconciliation-tag').getByText('Reconciled').waitFor();
      await row.getByTestId('invoice-link').click();
      const card = page.getByTestId('invoice-reconciliation');
      await card.getByText('Reconciliation', { exact: true }).waitFor();
      for (const label of [
        'Subscriptions',
        'Invoice-level lines',
        'Total excl. VAT',
        'Total incl. VAT (excl. + VAT)',
      ])
        await card.getByText(label, { exact: true }).waitFor();
      await card.getByTestId('reconciliation-tag').getByText('Reconciled').waitFor();
      // Total excl. VAT: computed from the lines = stated, no difference.
      const excl = card.locator('tr', { hasText: 'Total excl. VAT' }).first().locator('td');
      const cells = await excl.allInnerTexts();
      expect(cells[1]).toBe(cells[2]);
      expect(cells[3]).toMatch(/^€0\.00$/);
      await expect.poll(() => page.getByTestId('invoice-total-excl').innerText()).toBe(cells[2]);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'reconciliation-en');

      await switchLanguage(page, 'fi');
      await card.getByText('Täsmäytys', { exact: true }).waitFor();
      for (const label of [
        'Liittymät',
        'Laskutason rivit',
        'Veroton yhteensä',
        'Laskettu riveistä',
        'Laskulla',
      ])
        await card.getByText(label, { exact: true }).first().waitFor();
      await card.getByTestId('reconciliation-tag').getByText('Täsmää').waitFor();
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'reconciliation-fi');
      await switchLanguage(page, 'en');
    },
  );

  pageTest(
    browser,
    'an e-invoice whose stated total differs from its rows by 5 € says so on its page, in the list and on the dashboard',
    companyUpload('reconciliation-difference', 420_000),
    async (page) => {
      const api = await apiOf(page);
      const today = new Date().toISOString().slice(0, 10);
      const xml = finvoice(
        [
          ...['--operator', 'telia', '--seed', '3801', '--subscriptions', '3', '--date', today],
          ...['--buyer-name', 'Pohjola Rakennus Oy', '--business-id', '2345678-0'],
        ],
        (x) => bump(bump(x, 'InvoiceTotalVatExcludedAmount', 5), 'InvoiceTotalVatIncludedAmount', 5),
      );
      const invoice = await uploadAndWait(page, 'telia-3801-difference.xml', xml);
      expect(invoice).toMatchObject({ uploadState: 'uploaded', errorCode: null });
      try {
        await page.reload();
        const row = page
          .getByTestId('invoice-table')
          .locator('tr.ant-table-row', { hasText: invoice.invoiceNumber! });
        await row
          .getByTestId('reconciliation-tag')
          .getByText('Difference €5.00')
          .waitFor({ timeout: 30_000 });
        await row.getByTestId('invoice-link').click();
        const card = page.getByTestId('invoice-reconciliation');
        await card.getByTestId('reconciliation-tag').getByText('Difference €5.00').waitFor();
        await page
          .getByTestId('invoice-differences')
          .getByText(
            /The lines add up to €[\d,.]+, the invoice states €[\d,.]+ excl\. VAT: a difference of €5\.00/,
          )
          .waitFor();
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, 'reconciliation-difference-en');
        await switchLanguage(page, 'fi');
        await page
          .getByTestId('invoice-differences')
          .getByText(/^Rivit ovat yhteensä .* eroa 5,00\s€$/)
          .waitFor();
        await card
          .getByTestId('reconciliation-tag')
          .getByText(/Ero 5,00\s€/)
          .waitFor();
        await screenshot(page, 'reconciliation-difference-fi');
        await switchLanguage(page, 'en');

        // The dashboard's period includes it: a notice links to the invoice.
        await goto(page, '/company/dashboard/costAndUsage');
        const notice = page.getByTestId('dashboard-unreconciled');
        await notice
          .getByText('This period includes an invoice whose own figures do not add up to the cent:')
          .waitFor({
            timeout: 60_000,
          });
        await notice.getByText(`invoice ${invoice.invoiceNumber} (Telia), difference €5.00`).waitFor();
        await screenshot(page, 'reconciliation-dashboard-en');
        await notice.getByTestId('dashboard-unreconciled-link').click();
        await page.getByTestId('invoice-reconciliation').waitFor();
      } finally {
        await deleteInvoice(api, invoice.id);
      }
    },
  );

  pageTest(
    browser,
    'item 7: a new company’s first invoice, refused for no contract with its operator, is read again once the contract is added from its row',
    {
      shot: 'reconciliation-no-contract',
      as: USERS.admin,
      path: '/admin/invoice-upload',
      ready: 'upload-client',
      timeout: 420_000,
    },
    async (page) => {
      const api = await apiOf(page);
      const operators = await api.get<Array<{ id: number; name: string }>>('/masters/operators/options');
      const dna = operators.find((o) => o.name === 'DNA')!;
      const name = `Sopimukseton ${Date.now()} Oy`;
      const bid = businessId();
      // Created with an operator, as the client form allows, but no operator contract.
      const clientId = await addClient(api, {
        kind: 'company',
        companyName: name,
        email: `no-contract-${Date.now()}@sopimukseton.test`,
        adminName: 'Sanna Sopimukseton',
        businessId: bid,
        operatorId: dna.id,
        invoiceUploadMethod: 'manual',
      });
      const xml = finvoice([
        '--operator',
        'dna',
        '--seed',
        '3807',
        '--subscriptions',
        '2',
        '--buyer-name',
        name,
        '--business-id',
        bid,
      ]);
      const refused = await uploadAndWait(page, 'dna-3807.xml', xml, clientId);
      expect(refused).toMatchObject({ uploadState: 'failed', errorCode: 'invoiceOperatorNoContract' });

      // The client options are read once a minute: the page again, with the new company among them.
      await page.reload();
      await page.getByTestId('upload-client').click();
      await page.keyboard.type(name);
      await pickOption(page, name);
      const row = page.getByTestId('invoice-table').locator('tr.ant-table-row', { hasText: 'dna-3807.xml' });
      const add = row.getByTestId('invoice-add-contract');
      await add.getByText('Add a contract with DNA and read the invoice again').waitFor({ timeout: 30_000 });
      await screenshot(page, 'reconciliation-no-contract-en');
      await switchLanguage(page, 'fi');
      await add.getByText('Lisää sopimus operaattorin DNA kanssa ja lue lasku uudelleen').waitFor();
      await screenshot(page, 'reconciliation-no-contract-fi');
      await switchLanguage(page, 'en');

      await add.click();
      await page.getByTestId('invoice-add-contract-ok').click();
      await page.getByText('The invoice is read again').waitFor();
      // Read again and imported: its row now shows its number, uploaded (the table refreshes by itself).
      const deadline = Date.now() + 120_000;
      let read = await api.get<UploadedInvoice>(`/invoices/${refused.id}`);
      while (read.uploadState !== 'uploaded') {
        expect(read.uploadState).toBe('in_progress');
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 500));
        read = await api.get<UploadedInvoice>(`/invoices/${refused.id}`);
      }
      const imported = page
        .getByTestId('invoice-table')
        .locator('tr.ant-table-row', { hasText: read.invoiceNumber! });
      await imported.getByText('Uploaded', { exact: true }).waitFor({ timeout: 30_000 });
      await imported.getByTestId('reconciliation-tag').getByText('Reconciled').waitFor();
      await screenshot(page, 'reconciliation-no-contract-read-again-en');
      // The contract is the operator contracts' own, listed under the company.
      const contracts = await api.get<{ items: Array<{ operatorName: string }> }>(
        `/clients/${clientId}/operator-contracts`,
      );
      expect(contracts.items.map((c) => c.operatorName)).toEqual(['DNA']);
    },
  );
});
