import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { generateFinvoice, generatePeppol } from '@kulu/invoices/generator';
import type { ParsedInvoice } from '@kulu/invoices';
import { users } from '../../db/schema/index.js';
import { BUYER, DEMO } from '../../test/helpers.js';
import { useInvoiceTestApp } from '../../test/fixtures.js';
import { settled, uploadFiles } from '../../test/uploads.js';
import { importFootprint } from './invoices.service.js';

/**
 * Finvoice e-invoices through the same upload as PDFs (issue 24): judged by content, read in the
 * parse child, imported in one transaction, refused with a reason of their own and nothing written.
 */
const app = useInvoiceTestApp(600_000);

const text = (xml: Uint8Array) => Buffer.from(xml).toString('utf8');
const bytes = (s: string) => Buffer.from(s, 'utf8');

/** Uploads files in one request (sent again while the demo import of the client still parses). */
async function uploadAll(files: Array<{ name: string; data: Uint8Array }>, token = app.tok.companyAdmin) {
  const until = Date.now() + 400_000;
  for (;;) {
    const res = await uploadFiles(app.t, token, files);
    if (res.statusCode === 200) {
      const results = res.json().results as Array<{ status: string; invoiceId?: number; code?: string }>;
      expect(
        results.every((r) => r.status === 'accepted'),
        res.body,
      ).toBe(true);
      return Promise.all(results.map((r) => settled(app.t, token, r.invoiceId!, 400_000)));
    }
    if (res.json().code !== 'previousParseRunning' || Date.now() > until) throw new Error(res.body);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const money = (n: number) => n.toFixed(2);

function expectImported(
  invoice: Record<string, unknown>,
  expected: ParsedInvoice,
  format: 'finvoice' | 'peppol' = 'finvoice',
) {
  expect(invoice).toMatchObject({
    uploadState: 'uploaded',
    format,
    invoiceNumber: expected.invoiceNumber,
    invoiceDate: expected.invoiceDate,
    buyerBusinessId: expected.businessId,
    totalExclVat: money(expected.totalExclVat),
    vatAmount: money(expected.vatAmount),
    totalInclVat: money(expected.totalInclVat),
    subscriptionCount: expected.subscriptions.length,
    errorCode: null,
  });
}

/** The invoice's subscriptions as the API lists them: each number with its cost, as on the invoice. */
async function expectSubscriptions(invoiceId: unknown, expected: ParsedInvoice) {
  const subs = await app.t.inject({
    method: 'GET',
    url: `/api/invoices/${String(invoiceId)}/subscriptions?pageSize=50`,
    token: app.tok.companyAdmin,
  });
  expect(subs.statusCode, subs.body).toBe(200);
  const totals = (subs.json().items as Array<{ phoneNumber: string; total: string }>)
    .map((s) => [s.phoneNumber, s.total])
    .sort();
  expect(totals).toEqual(expected.subscriptions.map((s) => [s.phoneNumber, money(s.total)]).sort());
}

describe('Finvoice e-invoices uploaded like PDFs', () => {
  it('imports an e-invoice and a credit note (ISO-8859-15 behind the transport frame), tagged as e-invoices', async () => {
    const invoice = generateFinvoice({
      operator: 'elisa',
      subscriptions: 4,
      seed: 24_001,
      invoiceDate: '2025-03-05',
      buyer: BUYER.pohjola,
    });
    const credit = generateFinvoice({
      operator: 'telia',
      subscriptions: 2,
      seed: 24_002,
      invoiceDate: '2025-03-12',
      buyer: BUYER.pohjola,
      version: '2.01',
      envelope: true,
      charset: 'ISO-8859-15',
      creditNote: true,
    });
    expect(text(credit.xml)).toMatch(/<SOAP-ENV:Envelope[\s\S]*<\?xml[^>]*ISO-8859-15/i);
    expect(credit.expected.totalExclVat).toBeLessThan(0);
    const [a, b] = await uploadAll([
      { name: 'elisa-maaliskuu.xml', data: invoice.xml },
      // The name says nothing: the content decides.
      { name: 'hyvitys.pdf', data: credit.xml },
    ]);
    expectImported(a, invoice.expected);
    expectImported(b, credit.expected);

    await expectSubscriptions(a.id, invoice.expected);

    // The original file comes back as the XML it was.
    const file = await app.t.inject({
      method: 'GET',
      url: `/api/invoices/${a.id}/file`,
      token: app.tok.companyAdmin,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/xml');
    expect(file.rawPayload.equals(Buffer.from(invoice.xml))).toBe(true);
  }, 600_000);

  it('refuses hostile and wrong e-invoices, each with its own reason, and imports nothing of them', async () => {
    const { db } = app.t.deps.database;
    const base = generateFinvoice({
      operator: 'elisa',
      subscriptions: 2,
      seed: 24_010,
      invoiceDate: '2025-04-05',
      buyer: BUYER.pohjola,
    });
    const xml = text(base.xml);
    const body = xml.slice(xml.indexOf('<Finvoice'));
    const laughs = Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join(
      '',
    );
    const cases: Array<{ name: string; data: Uint8Array; code: string }> = [
      {
        name: 'xxe.xml',
        data: bytes(
          `<?xml version="1.0"?><!DOCTYPE Finvoice [<!ENTITY x SYSTEM "file:///etc/passwd">]>${body.replace('<InvoiceNumber>', '<InvoiceNumber>&x;')}`,
        ),
        code: 'invoiceXmlDoctype',
      },
      {
        name: 'laughs.xml',
        data: bytes(
          `<?xml version="1.0"?><!DOCTYPE Finvoice [<!ENTITY l0 "ha">${laughs}]><Finvoice>&l10;</Finvoice>`,
        ),
        code: 'invoiceXmlDoctype',
      },
      {
        name: 'truncated.xml',
        data: base.xml.subarray(0, Math.floor(base.xml.length / 2)),
        code: 'invoiceXmlNotWellFormed',
      },
      {
        // UBL is read by the Peppol reader (issue 38), which refuses a UBL document that is no invoice
        name: 'ubl.xml',
        data: bytes(
          '<?xml version="1.0"?><Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>',
        ),
        code: 'invoiceNotPeppol',
      },
      { name: 'teapps.xml', data: bytes('<?xml version="1.0"?><TEAPPSXML/>'), code: 'invoiceNotFinvoice' },
      {
        name: 'seller.xml',
        data: bytes(xml.replaceAll('0116510-6', '1234567-1')),
        code: 'invoiceUnknownSeller',
      },
      // A file whose rows do not add up to its total is read, its difference shown (issue 38):
      // reconciliation.test.ts.
      {
        name: 'vaasa.xml',
        data: generateFinvoice({
          operator: 'elisa',
          subscriptions: 2,
          seed: 24_011,
          buyer: { name: 'Vaasan Sähkö Oy', businessId: '2347036-3' },
        }).xml,
        code: 'invoiceOtherBuyer',
      },
      {
        name: 'no-buyer.xml',
        data: generateFinvoice({
          operator: 'elisa',
          subscriptions: 2,
          seed: 24_012,
          buyer: { name: BUYER.pohjola.name, businessId: null },
        }).xml,
        code: 'invoiceNoBuyer',
      },
      {
        // Pohjola has contracts with Elisa and Telia only.
        name: 'dna.xml',
        data: generateFinvoice({ operator: 'dna', subscriptions: 2, seed: 24_013, buyer: BUYER.pohjola }).xml,
        code: 'invoiceOperatorNoContract',
      },
    ];
    for (const c of cases) expect(Buffer.from(c.data).equals(Buffer.from(base.xml)), c.name).toBe(false);
    const before = await importFootprint(db);
    const done = await uploadAll(cases.map(({ name, data }) => ({ name, data })));
    // The server answered others meanwhile, and each file failed with its own reason.
    expect((await app.t.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(done.map((d) => [d.fileName, d.uploadState, d.errorCode])).toEqual(
      cases.map((c) => [c.name, 'failed', c.code]),
    );
    expect(await importFootprint(db)).toEqual(before);
    const xxe = done[0];
    expect(JSON.stringify(xxe)).not.toMatch(/root:/);

    // In the user's language.
    await db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
    try {
      const fi = await app.t.inject({
        method: 'GET',
        url: `/api/invoices/${done[3].id}`,
        token: await app.t.login(DEMO.companyAdmin),
      });
      expect(fi.json().errorMessage).toMatch(/^XML-tiedosto ei ole Peppol BIS Billing 3\.0 -lasku/);
    } finally {
      await db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.companyAdmin));
    }
  }, 600_000);

  it('refuses a 19 MB row label, a charset that disagrees with the bytes and two invoices in one file, each with its reason and nothing written', async () => {
    const { db } = app.t.deps.database;
    const make = (seed: number, options: Partial<Parameters<typeof generateFinvoice>[0]> = {}) =>
      generateFinvoice({
        operator: 'elisa',
        subscriptions: 2,
        seed,
        invoiceDate: '2025-05-05',
        buyer: BUYER.pohjola,
        ...options,
      }).xml;
    const huge = text(make(37_001)).replace(
      /<ArticleName>[^<]*<\/ArticleName>/,
      `<ArticleName>${'Liittymä '.repeat(2_000_000)}</ArticleName>`,
    );
    const lie = text(make(37_002)).replace('encoding="UTF-8"', 'encoding="ISO-8859-15"');
    const twice = Buffer.concat([
      Buffer.from(make(37_003, { envelope: true })),
      Buffer.from(make(37_004, { envelope: true })),
    ]);
    const before = await importFootprint(db);
    const done = await uploadAll([
      { name: 'label.xml', data: bytes(huge) },
      { name: 'charset.xml', data: bytes(lie) },
      { name: 'two.xml', data: twice },
    ]);
    expect(done.map((d) => [d.fileName, d.uploadState, d.errorCode])).toEqual([
      ['label.xml', 'failed', 'invoiceTextTooLong'],
      ['charset.xml', 'failed', 'invoiceXmlCharsetMismatch'],
      ['two.xml', 'failed', 'invoiceXmlSeveral'],
    ]);
    expect(done[0].errorDetail).toMatch(
      /^ArticleName of row \d+ is [\d,]+ characters long \(at most 1,000\)$/,
    );
    expect(done[2].errorMessage).toBe('The file holds more than one invoice; upload one invoice per file');
    expect(JSON.stringify(done).length).toBeLessThan(10_000);
    expect(await importFootprint(db)).toEqual(before);
  }, 600_000);

  it('refuses at once a file that is neither a PDF nor XML, whatever its name', async () => {
    const res = await uploadFiles(app.t, app.tok.companyAdmin, [
      { name: 'lasku.xml', data: bytes('Finvoice? no.') },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().results[0]).toMatchObject({ status: 'refused', code: 'invoiceNotPdf' });
  });
});

describe('Peppol BIS Billing 3.0 e-invoices uploaded like Finvoice (issue 38 item 8)', () => {
  it("imports an operator's Peppol invoice and credit note with the figures they state, and refuses a non-operator's for its seller", async () => {
    const invoice = generatePeppol({
      operator: 'elisa',
      subscriptions: 4,
      seed: 38_001,
      invoiceDate: '2025-06-05',
      buyer: BUYER.pohjola,
    });
    const credit = generatePeppol({
      operator: 'telia',
      subscriptions: 2,
      seed: 38_002,
      invoiceDate: '2025-06-12',
      buyer: BUYER.pohjola,
      creditNote: true,
      invoiceCharges: true,
      frame: true,
    });
    const stranger = generatePeppol({
      operator: 'elisa',
      subscriptions: 2,
      seed: 38_003,
      invoiceDate: '2025-06-14',
      buyer: BUYER.pohjola,
      seller: { name: 'Sähkö Oy', businessId: '1234567-1' },
    });
    expect(credit.expected.totalExclVat).toBeLessThan(0);
    const [a, b, c] = await uploadAll([
      { name: 'elisa-kesakuu.xml', data: invoice.xml },
      { name: 'telia-hyvitys.pdf', data: credit.xml },
      { name: 'sahko.xml', data: stranger.xml },
    ]);
    expectImported(a, invoice.expected, 'peppol');
    expectImported(b, credit.expected, 'peppol');
    expect([c.uploadState, c.errorCode]).toEqual(['failed', 'invoiceUnknownSeller']);
    expect(c.errorDetail).toMatch(/^the seller Sähkö Oy \(1234567-1\) is not an operator Kulu reads/);

    await expectSubscriptions(a.id, invoice.expected);
  }, 600_000);
});
