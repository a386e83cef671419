import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { MESSAGES } from '@kulu/shared';
import { USERS, pageTest, screenshot, switchLanguage, useBrowser } from './browser';
import { companyUpload } from './steps';

const FIXTURES = join(import.meta.dirname, 'fixtures');
/**
 * Generated with `npm run invoice -- generate --operator elisa --seed 901 --subscriptions 5
 * --buyer-name 'Pohjola Rakennus Oy' --business-id 2345678-0` (telia: seed 902, 4 subscriptions);
 * numbers not in the demo data.
 */
const PDFS = [
  { name: 'elisa-901.pdf', number: '771831939' },
  { name: 'telia-902.pdf', number: '498776337' },
];

const browser = useBrowser();

interface DropFile {
  name: string;
  type: string;
  base64: string;
}

/** Drops files on the upload area as a user dragging them from the desktop would. */
async function dropFiles(page: Page, files: DropFile[]) {
  const dataTransfer = await page.evaluateHandle((list: DropFile[]) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
  const target = page.getByTestId('invoice-upload-page').locator('.ant-upload-drag .ant-upload').first();
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

const pdf = (name: string): DropFile => ({
  name,
  type: 'application/pdf',
  base64: readFileSync(join(FIXTURES, name)).toString('base64'),
});

const fileRow = (page: Page, name: string): Locator =>
  page.locator(`[data-testid=upload-file][data-file="${name}"]`);

/** Why a file of these tests may be refused: not an invoice, or another upload's parse still running. */
const REFUSALS = ['Invoice must be a PDF or a Finvoice e-invoice', MESSAGES.previousParseRunning.en];

/**
 * Waits until the files sent with *Upload all* end in `state`. A file refused while an invoice of the
 * same client was being parsed ("previous parse running": another upload's) is sent again, as a user
 * would press *Upload all* again: once a file's state has moved on, or after 5 s when none has.
 */
async function sendUntil(page: Page, names: string[], state: 'uploaded' | 'failed') {
  const deadline = Date.now() + 360_000;
  const statesNow = () => Promise.all(names.map((n) => fileRow(page, n).getAttribute('data-state')));
  for (let states = await statesNow(); !states.every((s) => s === state); states = await statesNow()) {
    expect(states).not.toContain(state === 'uploaded' ? 'failed' : 'uploaded');
    expect(Date.now()).toBeLessThan(deadline);
    const retry = page.getByTestId('upload-all');
    if (states.includes('refused') && (await retry.isEnabled())) {
      for (const reason of await page.getByTestId('upload-file-reason').allInnerTexts())
        expect(REFUSALS).toContain(reason);
      await retry.click();
    }
    // The next change of a file's state (the upload's answer, the parse's end), not a fixed pause.
    await page
      .waitForFunction(
        ({ files, before }) =>
          files
            .map((f) =>
              document
                .querySelector(`[data-testid=upload-file][data-file="${f}"]`)
                ?.getAttribute('data-state'),
            )
            .join() !== before,
        { files: names, before: states.join() },
        { timeout: Math.min(5_000, Math.max(1, deadline - Date.now())) },
      )
      .catch(() => undefined);
  }
}

describe('invoice upload (company admin)', () => {
  pageTest(
    browser,
    'drops two PDFs, uploads them, watches both parse and finds them in the invoice table',
    companyUpload('invoice-upload'),
    async (page) => {
      await page.getByRole('heading', { name: 'Upload Invoice' }).waitFor();

      // A file that is not a PDF is refused before it is sent.
      await dropFiles(page, [{ name: 'notes.txt', type: 'text/plain', base64: btoa('not an invoice') }]);
      const txt = fileRow(page, 'notes.txt');
      await txt.getByText('Invoice must be a PDF or a Finvoice e-invoice').waitFor();
      expect(await txt.getAttribute('data-state')).toBe('refused');
      expect(await page.getByTestId('upload-all').isDisabled()).toBe(true);

      await dropFiles(
        page,
        PDFS.map((p) => pdf(p.name)),
      );
      for (const p of PDFS) await fileRow(page, p.name).getByText('Waiting').waitFor();

      // The demo import parses the same client's invoices in the background: an upload made
      // while one of them is in progress is refused ("previous parse running") and sent again.
      await page.getByTestId('upload-all').click();
      await sendUntil(
        page,
        PDFS.map((p) => p.name),
        'uploaded',
      );
      const summary = page.getByTestId('upload-summary');
      await summary.getByText('2 uploaded · 1 failed').waitFor();
      await summary.getByText('notes.txt: Invoice must be a PDF or a Finvoice e-invoice').waitFor();

      // The table refreshes by itself: both invoices, uploaded and parsed.
      const table = page.getByTestId('invoice-table');
      for (const p of PDFS) {
        const row = table.locator('tr.ant-table-row', { hasText: p.number });
        await row.waitFor({ timeout: 30_000 });
        await row.getByText('Uploaded').waitFor();
        await row.getByText('Completed').waitFor();
      }
      await expect
        .poll(() => table.locator('tr.ant-table-row', { hasText: PDFS[0].number }).innerText())
        .toMatch(/Elisa[\s\S]*€/);
      await screenshot(page, 'invoice-upload-en');
      await page.locator('.ant-pagination').last().scrollIntoViewIfNeeded();
      await screenshot(page, 'invoice-table-en');
      await page.evaluate(() => window.scrollTo({ top: 0 }));

      await switchLanguage(page, 'fi');
      await page.getByRole('heading', { name: 'Lataa lasku' }).waitFor();
      await fileRow(page, PDFS[0].name).getByText('Ladattu').waitFor();
      await page.getByTestId('upload-summary').getByText('2 ladattu · 1 epäonnistui').waitFor();
      await fileRow(page, 'notes.txt')
        .getByText('Laskun on oltava PDF-tiedosto tai Finvoice-verkkolasku')
        .waitFor();
      await table.getByRole('columnheader', { name: 'Käsittelyn tila' }).waitFor();
      await screenshot(page, 'invoice-upload-fi');
      await page.locator('.ant-pagination').last().scrollIntoViewIfNeeded();
      await screenshot(page, 'invoice-table-fi');

      // The help of this page: none uploaded yet.
      await page.getByTestId('help-button').click();
      await page.getByTestId('help-modal').getByText('Tälle sivulle ei ole vielä ohjetta').waitFor();
      await page.keyboard.press('Escape');
      await switchLanguage(page, 'en');
    },
  );
});

/**
 * A Finvoice e-invoice as a bank's e-invoice network delivers it (SOAP frame, ISO-8859-15): `npm run
 * invoice -- generate --format finvoice --operator telia --seed 904 --subscriptions 3 --buyer-name
 * 'Pohjola Rakennus Oy' --business-id 2345678-0 --envelope --charset ISO-8859-15`.
 */
const E_INVOICE = {
  name: 'telia-904.xml',
  number: '7508901761',
  numbers: ['+358458635450', '+358463284249', '+358509027833'],
};

describe('a Finvoice e-invoice (company admin)', () => {
  pageTest(
    browser,
    'is uploaded like a PDF, tagged as an e-invoice and shows its subscriptions, in English and Finnish',
    companyUpload('e-invoice-upload'),
    async (page) => {
      await dropFiles(page, [
        {
          name: E_INVOICE.name,
          type: 'text/xml',
          base64: readFileSync(join(FIXTURES, E_INVOICE.name)).toString('base64'),
        },
      ]);
      const file = fileRow(page, E_INVOICE.name);
      await file.getByText('Waiting').waitFor();
      await page.getByTestId('upload-all').click();
      await sendUntil(page, [E_INVOICE.name], 'uploaded');
      const row = page
        .getByTestId('invoice-table')
        .locator('tr.ant-table-row', { hasText: E_INVOICE.number });
      await row.getByTestId('e-invoice-tag').getByText('E-invoice').waitFor({ timeout: 30_000 });
      await row.getByText('Telia').waitFor();

      await row.getByTestId('invoice-link').click();
      await page
        .getByTestId('invoice-total-excl')
        .getByText(/28[.,]22/)
        .waitFor();
      await page.getByTestId('e-invoice-tag').getByText('E-invoice').waitFor();
      await page.getByTestId('invoice-download').getByText('Download e-invoice (XML)').waitFor();
      const links = page.getByTestId('subscription-link');
      await expect.poll(() => links.count()).toBe(E_INVOICE.numbers.length);
      const shown = (await links.allInnerTexts()).map((n) => n.replace(/\s/g, ''));
      for (const n of E_INVOICE.numbers) {
        expect(shown.some((s) => n.endsWith(s.replace(/^0/, '')))).toBe(true);
      }
      await screenshot(page, 'e-invoice-detail-en');

      await switchLanguage(page, 'fi');
      await page.getByTestId('e-invoice-tag').getByText('Verkkolasku').waitFor();
      await page.getByTestId('invoice-download').getByText('Lataa verkkolasku (XML)').waitFor();
      await screenshot(page, 'e-invoice-detail-fi');
      await switchLanguage(page, 'en');
    },
  );
});

/** Elisa, seed 903, 3 subscriptions, addressed to Vaasan Sähkö Oy (2347036-3): not Pohjola's. */
const OTHER_BUYER = 'vaasa-903.pdf';

describe('an invoice addressed to another company (company admin)', () => {
  pageTest(
    browser,
    'is refused with its reason, shows whom it was addressed to and is deleted after a confirmation',
    companyUpload('invoice-other-buyer'),
    async (page) => {
      await dropFiles(page, [pdf(OTHER_BUYER)]);
      const file = fileRow(page, OTHER_BUYER);
      await file.getByText('Waiting').waitFor();
      await page.getByTestId('upload-all').click();
      await sendUntil(page, [OTHER_BUYER], 'failed');
      const reason = 'The invoice is addressed to another company (business id 2347036-3)';
      const table = page.getByTestId('invoice-table');
      const row = table.locator('tr.ant-table-row', { hasText: OTHER_BUYER });
      await row.getByText(reason).waitFor({ timeout: 30_000 });
      await row.getByTestId('invoice-buyer').getByText('Vaasan Sähkö Oy').waitFor();
      await row.getByTestId('buyer-business-id').getByText('Business id 2347036-3').waitFor();

      // Cancelling the confirmation keeps it.
      await row.getByTestId('invoice-delete').click();
      const confirm = page.locator('.ant-popconfirm:visible');
      await confirm.getByText('Delete this invoice?').waitFor();
      await screenshot(page, 'invoice-delete-confirm-en');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect(await row.count()).toBe(1);

      await switchLanguage(page, 'fi');
      await row.getByText('Lasku on osoitettu toiselle yritykselle (Y-tunnus 2347036-3)').waitFor();
      await row.getByTestId('invoice-delete').click();
      await page.locator('.ant-popconfirm:visible').getByText('Poistetaanko tämä lasku?').waitFor();
      await screenshot(page, 'invoice-delete-confirm-fi');
      const deleted = page.waitForResponse(
        (r) => r.url().includes('/api/invoices/') && r.request().method() === 'DELETE',
      );
      await page.getByTestId('invoice-delete-confirm').click();
      expect((await deleted).status()).toBe(200);
      await page.getByText('Lasku poistettu').waitFor();
      await row.waitFor({ state: 'detached' });
      await switchLanguage(page, 'en');
    },
  );
});

/**
 * `npm run invoice -- generate --operator elisa --seed 905 --subscriptions 3 --buyer-name
 * 'Vaasan Sähkö Oy' --business-id none`: no business id, another company's name (issue 37, item 11).
 */
const NO_ID_OTHER_NAME = 'vaasa-no-id-905.pdf';

describe('an invoice without a business id naming another company (company admin)', () => {
  pageTest(
    browser,
    'is refused with the name it shows, and imported once the admin confirms it is the company’s, in English at 1400 px and Finnish at 390 px',
    companyUpload('invoice-confirm-buyer'),
    async (page) => {
      await dropFiles(page, [pdf(NO_ID_OTHER_NAME)]);
      await fileRow(page, NO_ID_OTHER_NAME).getByText('Waiting').waitFor();
      await page.getByTestId('upload-all').click();
      await sendUntil(page, [NO_ID_OTHER_NAME], 'failed');
      const row = page
        .getByTestId('invoice-table')
        .locator('tr.ant-table-row', { hasText: NO_ID_OTHER_NAME });
      await row
        .getByText(
          /^The invoice shows no business id and is addressed to “Vaasan Sähkö Oy”, not to this company/,
        )
        .waitFor({ timeout: 30_000 });
      // Once imported, the row shows the invoice's number instead of the file's name: follow its key.
      const key = await row.getAttribute('data-row-key');
      expect(key).toMatch(/^\d+$/);
      const same = page.getByTestId('invoice-table').locator(`tr[data-row-key="${key}"]`);

      // Cancelling the confirmation changes nothing.
      await row.getByTestId('invoice-confirm-buyer').click();
      const confirm = page.locator('.ant-popconfirm:visible');
      await confirm.getByText('Confirm this is your company’s invoice?').waitFor();
      await screenshot(page, 'invoice-confirm-buyer-en-1400');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await row.getByTestId('invoice-confirm-buyer').waitFor();

      await switchLanguage(page, 'fi');
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        await row
          .getByText(/^Laskussa ei ole Y-tunnusta ja se on osoitettu vastaanottajalle ”Vaasan Sähkö Oy”/)
          .waitFor();
        await row.getByTestId('invoice-confirm-buyer').click();
        await page
          .locator('.ant-popconfirm:visible')
          .getByText('Vahvistetaanko lasku yrityksenne laskuksi?')
          .waitFor();
        await screenshot(page, 'invoice-confirm-buyer-fi-390');
        const confirmed = page.waitForResponse((r) => r.url().includes('/confirm-buyer'));
        await page.getByTestId('invoice-confirm-buyer-ok').click();
        expect((await confirmed).status()).toBe(200);
        await page.getByText('Vahvistettu tämän yrityksen laskuksi; lasku luetaan uudelleen').waitFor();
        await same.getByTestId('upload-state').getByText('Ladattu').waitFor({ timeout: 120_000 });
        expect(await same.getByTestId('invoice-confirm-buyer').count()).toBe(0);
        await screenshot(page, 'invoice-confirm-buyer-imported-fi-390');
        // The demo copy as it was: the confirmed invoice goes again.
        await same.getByTestId('invoice-delete').click();
        const deleted = page.waitForResponse(
          (r) => r.url().includes('/api/invoices/') && r.request().method() === 'DELETE',
        );
        await page.getByTestId('invoice-delete-confirm').click();
        expect((await deleted).status()).toBe(200);
        await same.waitFor({ state: 'detached' });
      } finally {
        await page.setViewportSize({ width: 1400, height: 900 });
        await switchLanguage(page, 'en');
      }
    },
  );
});

/**
 * The README's "Generate an invoice and upload it" (issue 37, item 16): its command, as written in
 * the README, writes an invoice the demo company admin uploads here and the app imports.
 */
async function readmeInvoice(dir: string): Promise<DropFile> {
  const root = join(import.meta.dirname, '../../..');
  const section = readFileSync(join(root, 'README.md'), 'utf8').split(
    '### Generate an invoice and upload it',
  )[1];
  const command = section?.split('\n').find((l) => l.startsWith('npm run invoice -- generate'));
  expect(command, "the README's generate command").toBeTruthy();
  const out = join(dir, 'pohjola-elisa.pdf');
  execFileSync('bash', ['-c', command!.replace(/--out \S+/, `--out '${out}'`)], {
    cwd: root,
    timeout: 120_000,
  });
  return { name: 'pohjola-elisa.pdf', type: 'application/pdf', base64: readFileSync(out).toString('base64') };
}

describe("the README's example invoice (company admin)", () => {
  pageTest(
    browser,
    'is imported for the demo company: uploaded in English at 1400 px, read in Finnish at 390 px, then deleted',
    companyUpload('invoice-readme-example'),
    async (page) => {
      const dir = mkdtempSync(join(tmpdir(), 'kulu-readme-'));
      try {
        const file = await readmeInvoice(dir);
        await dropFiles(page, [file]);
        await fileRow(page, file.name).getByText('Waiting').waitFor();
        await page.getByTestId('upload-all').click();
        await sendUntil(page, [file.name], 'uploaded');
        const answer = await page.evaluate(async () => {
          const res = await fetch('/api/invoices?pageSize=50', {
            headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
          });
          return (await res.json()) as { items: { id: number; fileName: string; invoiceNumber: string }[] };
        });
        const mine = answer.items.find((i) => i.fileName === file.name);
        expect(mine?.invoiceNumber).toBeTruthy();
        const row = page.getByTestId('invoice-table').locator(`tr[data-row-key="${mine!.id}"]`);
        await row.getByText('Uploaded').waitFor({ timeout: 60_000 });
        await row.getByText('Pohjola Rakennus Oy').first().waitFor();
        await screenshot(page, 'invoice-readme-example-en-1400');

        await switchLanguage(page, 'fi');
        await page.setViewportSize({ width: 390, height: 844 });
        try {
          await row.getByTestId('upload-state').getByText('Ladattu').waitFor();
          await screenshot(page, 'invoice-readme-example-fi-390');
          // The demo copy as it was.
          await row.getByTestId('invoice-delete').click();
          const deleted = page.waitForResponse(
            (r) => r.url().includes('/api/invoices/') && r.request().method() === 'DELETE',
          );
          await page.getByTestId('invoice-delete-confirm').click();
          expect((await deleted).status()).toBe(200);
          await row.waitFor({ state: 'detached' });
        } finally {
          await page.setViewportSize({ width: 1400, height: 900 });
          await switchLanguage(page, 'en');
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('invoice upload (consultant)', () => {
  pageTest(
    browser,
    'lets a consultant pick the client company and then its sub-company',
    {
      shot: 'invoice-upload-consultant',
      as: USERS.consultant,
      path: '/admin/invoice-upload',
      ready: 'invoice-upload-page',
    },
    async (page) => {
      expect(await page.getByTestId('upload-all').isDisabled()).toBe(true);
      await page.getByTestId('upload-client').click();
      await page.locator('.ant-select-item-option', { hasText: 'Saimaan Logistiikka Oy' }).click();
      // The client list closes before the sub-company list opens.
      await page
        .locator('.ant-select-item-option', { hasText: 'Pohjola Rakennus Oy' })
        .waitFor({ state: 'hidden' });
      await page.getByTestId('upload-sub-company').click();
      // Only the chosen client's sub-companies are offered (the list settles after its animation).
      const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
      await expect
        .poll(async () => (await options.allTextContents()).sort(), { timeout: 10_000 })
        .toEqual(['Saimaan Kuljetus Oy', 'Saimaan Logistiikka Lappeenranta']);
    },
  );
});
