import { describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { generateInvoice } from '@kulu/invoices';
import { buildModel, generateInvoiceFromModel, Random } from '@kulu/invoices/generator';
import {
  activityLog,
  costElements,
  files,
  invoiceLines,
  invoices,
  monthlyFacts,
  optimizationMarks,
  optimizationRuns,
  subscriptions,
  users,
} from '../../db/schema/index.js';
import { BUYER, DEMO } from '../../test/helpers.js';
import { forPohjola } from '../../test/generated.js';
import { useInvoiceTestApp } from '../../test/fixtures.js';
import { settled, uploadFiles } from '../../test/uploads.js';
import { importFootprint } from './invoices.service.js';

const app = useInvoiceTestApp(600_000);

const uploadOne = async (pdf: Uint8Array, name: string, token = app.tok.companyAdmin!) => {
  const res = await uploadFiles(app.t, token, [{ name, data: pdf }]);
  expect(res.statusCode, res.body).toBe(200);
  return settled(app.t, token, res.json().results[0].invoiceId as number, 300_000);
};

const get = (id: number, token = app.tok.companyAdmin!, headers: Record<string, string> = {}) =>
  app.t.inject({ method: 'GET', url: `/api/invoices/${id}`, token, headers });

const remove = (id: number, token = app.tok.companyAdmin!) =>
  app.t.inject({ method: 'DELETE', url: `/api/invoices/${id}`, token });

let refusedId: number;

describe("the buyer's business id on an invoice", () => {
  it('refuses an invoice addressed to another company with its own reason and keeps whom it was addressed to', async () => {
    const { db } = app.t.deps.database;
    const before = await importFootprint(db);
    const { pdf } = await generateInvoice({
      operator: 'elisa',
      subscriptions: 3,
      seed: 8101,
      buyer: { name: 'Vaasan Sähkö Oy', businessId: '2347036-3' },
    });
    const done = await uploadOne(pdf, 'vaasa.pdf');
    expect(done).toMatchObject({
      uploadState: 'failed',
      errorCode: 'invoiceOtherBuyer',
      errorMessage: 'The invoice is addressed to another company (business id 2347036-3)',
      buyerName: 'Vaasan Sähkö Oy',
      buyerBusinessId: '2347036-3',
      lineCount: 0,
    });
    expect(await importFootprint(db)).toEqual(before);
    // In the user's language.
    await db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
    try {
      const fi = await get(done.id, await app.t.login(DEMO.companyAdmin));
      expect(fi.json().errorMessage).toBe('Lasku on osoitettu toiselle yritykselle (Y-tunnus 2347036-3)');
    } finally {
      await db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.companyAdmin));
    }
    refusedId = done.id;
  }, 400_000);

  it("refuses one addressed to another client's business id without naming that client", async () => {
    const { pdf } = await generateInvoice({
      operator: 'elisa',
      subscriptions: 2,
      seed: 8102,
      buyer: { name: 'Tuntematon Oy', businessId: BUYER.saimaa.businessId },
    });
    const done = await uploadOne(pdf, 'other-client.pdf');
    expect(done).toMatchObject({ uploadState: 'failed', errorCode: 'invoiceOtherBuyer' });
    expect(done.errorMessage).toBe(
      `The invoice is addressed to another company (business id ${BUYER.saimaa.businessId})`,
    );
    expect(JSON.stringify(done)).not.toMatch(/Saimaa/i);
    expect((await remove(done.id)).statusCode).toBe(200);
  }, 400_000);

  it('imports an invoice that carries no business id and says so on the invoice', async () => {
    const { pdf, expected } = await generateInvoice({
      operator: 'telia',
      subscriptions: 2,
      seed: 8103,
      buyer: { name: BUYER.pohjola.name, businessId: null },
    });
    const done = await uploadOne(pdf, 'no-business-id.pdf');
    expect(done).toMatchObject({
      uploadState: 'uploaded',
      invoiceNumber: expected.invoiceNumber,
      buyerName: BUYER.pohjola.name,
      buyerBusinessId: null,
    });
    const list = await app.t.inject({
      method: 'GET',
      url: '/api/invoices?pageSize=5',
      token: app.tok.companyAdmin,
    });
    expect(list.json().items.find((i: { id: number }) => i.id === done.id)).toMatchObject({
      buyerName: BUYER.pohjola.name,
      buyerBusinessId: null,
    });
    expect((await remove(done.id)).statusCode).toBe(200);
  }, 400_000);

  it("refuses a PDF without a business id that names another company, until a company admin confirms it is the company's", async () => {
    const { db } = app.t.deps.database;
    const { pdf, expected } = await generateInvoice({
      operator: 'elisa',
      subscriptions: 2,
      seed: 8105,
      buyer: { name: 'Vaasan Sähkö Oy', businessId: null },
    });
    const before = await importFootprint(db);
    const done = await uploadOne(pdf, 'no-id-other-name.pdf');
    expect(done).toMatchObject({
      uploadState: 'failed',
      errorCode: 'invoiceBuyerUnknown',
      errorMessage:
        'The invoice shows no business id and is addressed to “Vaasan Sähkö Oy”, not to this company; ' +
        'a company admin can confirm that it is this company’s invoice',
      buyerName: 'Vaasan Sähkö Oy',
      buyerBusinessId: null,
      lineCount: 0,
    });
    expect(await importFootprint(db)).toEqual(before);
    await db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
    try {
      const fi = await get(done.id, await app.t.login(DEMO.companyAdmin));
      expect(fi.json().errorMessage).toMatch(
        /^Laskussa ei ole Y-tunnusta ja se on osoitettu vastaanottajalle ”Vaasan Sähkö Oy”/,
      );
    } finally {
      await db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.companyAdmin));
    }

    const confirm = (id: number, token: string) =>
      app.t.inject({ method: 'POST', url: `/api/invoices/${id}/confirm-buyer`, token });
    // Not a user without the permission, not another company's admin (404: ids are not probed).
    expect((await confirm(done.id, app.tok.clientUser)).statusCode).toBe(403);
    expect((await confirm(done.id, app.tok.otherCompanyAdmin)).statusCode).toBe(404);
    const ok = await confirm(done.id, app.tok.companyAdmin);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      code: 'invoiceBuyerConfirmed',
      message: 'Confirmed as this company’s invoice; reading it again',
    });
    const imported = await settled(app.t, app.tok.companyAdmin, done.id, 300_000);
    expect(imported).toMatchObject({
      uploadState: 'uploaded',
      invoiceNumber: expected.invoiceNumber,
      buyerName: 'Vaasan Sähkö Oy',
      buyerBusinessId: null,
      errorCode: null,
    });
    const [row] = await db
      .select({ by: invoices.buyerConfirmedBy, at: invoices.buyerConfirmedAt })
      .from(invoices)
      .where(eq(invoices.id, done.id));
    expect(row.by).not.toBeNull();
    expect(row.at).not.toBeNull();
    const [log] = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityId, done.id), eq(activityLog.action, 'confirm_buyer')));
    expect(log).toMatchObject({ entity: 'invoice', clientId: app.pohjola });
    // Only a refusal for the buyer's name can be confirmed: not an imported invoice, not another id.
    const again = await confirm(done.id, app.tok.companyAdmin);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invoiceBuyerNotConfirmable');
    expect((await confirm(refusedId, app.tok.companyAdmin)).statusCode).toBe(409);
    expect((await remove(done.id)).statusCode).toBe(200);
  }, 600_000);

  it('imports a PDF without a business id that names the company or a sub-company, whatever the case and legal form', async () => {
    const { pdf } = await generateInvoice({
      operator: 'telia',
      subscriptions: 2,
      seed: 8106,
      buyer: { name: 'POHJOLA RAKENNUS TAMPERE', businessId: null },
    });
    const done = await uploadOne(pdf, 'sub-company-name.pdf');
    expect(done).toMatchObject({ uploadState: 'uploaded', buyerBusinessId: null });
    expect((await remove(done.id)).statusCode).toBe(200);
  }, 400_000);

  it("imports one addressed to the client's own business id and shows it", async () => {
    const { pdf } = await forPohjola({ operator: 'elisa', subscriptions: 2, seed: 8104 });
    const done = await uploadOne(pdf, 'own.pdf');
    expect(done).toMatchObject({
      uploadState: 'uploaded',
      buyerName: BUYER.pohjola.name,
      buyerBusinessId: BUYER.pohjola.businessId,
    });
    expect((await remove(done.id)).statusCode).toBe(200);
  }, 400_000);
});

describe('deleting an invoice', () => {
  it('removes its lines, facts, file, new cost elements and the subscriptions only it showed; keeps shared ones with their marks', async () => {
    const { db } = app.t.deps.database;
    // Two invoices of two months that share one subscription; the first has a label no other has.
    const first = buildModel(new Random(8201), {
      operator: 'elisa',
      subscriptions: 3,
      invoiceDate: '2031-01-05',
    });
    const second = buildModel(new Random(8202), {
      operator: 'elisa',
      subscriptions: 3,
      invoiceDate: '2031-02-05',
    });
    for (const m of [first, second]) {
      m.customerName = BUYER.pohjola.name;
      m.businessId = BUYER.pohjola.businessId;
    }
    second.subscriptions[0]!.phone = first.subscriptions[0]!.phone;
    const oneOff = first.subscriptions[1]!.lines.find((l) => l.kind === 'fee')!;
    oneOff.label = 'Poistotestin erikoispalvelu';
    const a = await generateInvoiceFromModel(first, { operator: 'elisa', seed: 1 });
    const b = await generateInvoiceFromModel(second, { operator: 'elisa', seed: 2 });
    const invA = await uploadOne(a.pdf, 'a.pdf');
    const invB = await uploadOne(b.pdf, 'b.pdf');
    expect([invA.uploadState, invB.uploadState]).toEqual(['uploaded', 'uploaded']);

    const phones = (m: typeof first) => m.subscriptions.map((s) => s.phone);
    const subsOf = async (list: string[]) =>
      db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.clientId, app.pohjola), inArray(subscriptions.phoneNumber, list)));
    const shared = (await subsOf([first.subscriptions[0]!.phone]))[0]!;
    const onlyA = (await subsOf([first.subscriptions[1]!.phone]))[0]!;
    expect(shared.firstSeenMonth).toBe('2031-01-01');
    // Marks on the shared subscription and on one only the first invoice showed.
    await db.insert(optimizationMarks).values([
      { clientId: app.pohjola, subscriptionId: shared.id, kind: 'optimized', monthlySavingCents: 500 },
      { clientId: app.pohjola, subscriptionId: onlyA.id, kind: 'unused', monthlySavingCents: 900 },
    ]);
    const [fileA] = await db
      .select({ fileId: invoices.fileId })
      .from(invoices)
      .where(eq(invoices.id, invA.id));
    const factsOf = async (id: number) =>
      (await db.select({ id: monthlyFacts.id }).from(monthlyFacts).where(eq(monthlyFacts.invoiceId, id)))
        .length;
    const linesOf = async (id: number) =>
      (await db.select({ id: invoiceLines.id }).from(invoiceLines).where(eq(invoiceLines.invoiceId, id)))
        .length;
    const [factsA, factsB, linesB] = [await factsOf(invA.id), await factsOf(invB.id), await linesOf(invB.id)];
    const deletionRuns = () =>
      db
        .select({ id: optimizationRuns.id })
        .from(optimizationRuns)
        .where(
          and(eq(optimizationRuns.clientId, app.pohjola), eq(optimizationRuns.trigger, 'invoiceDeleted')),
        );
    const special = () =>
      db.select().from(costElements).where(eq(costElements.name, 'Poistotestin erikoispalvelu'));
    expect(await special()).toHaveLength(1);

    const runsBefore = (await deletionRuns()).length;
    // The cost elements the first import made (new labels) that no other invoice's line uses.
    const [{ parsedAt }] = await db
      .select({ parsedAt: invoices.parsedAt })
      .from(invoices)
      .where(eq(invoices.id, invA.id));
    const onlyFirst = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from cost_elements e where e.created_at = ${parsedAt}
          and exists (select 1 from invoice_lines l where l.cost_element_id = e.id and l.invoice_id = ${invA.id})
          and not exists (select 1 from invoice_lines l where l.cost_element_id = e.id and l.invoice_id <> ${invA.id})`,
    );
    const newElements = Number(onlyFirst.rows[0]!.n);
    expect(newElements).toBeGreaterThanOrEqual(1);

    const res = await remove(invA.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      code: 'invoiceDeleted',
      message: 'Invoice deleted',
      removed: { lines: invA.lineCount, facts: factsA, subscriptions: 2, costElements: newElements },
    });

    expect((await get(invA.id)).statusCode).toBe(404);
    expect([await linesOf(invA.id), await factsOf(invA.id)]).toEqual([0, 0]);
    expect(await db.select().from(files).where(eq(files.id, fileA!.fileId))).toEqual([]);
    expect(await special()).toEqual([]);
    // The second invoice is untouched; the shared subscription stays (now first seen in February).
    expect([await linesOf(invB.id), await factsOf(invB.id)]).toEqual([linesB, factsB]);
    const left = await subsOf([...phones(first), ...phones(second)]);
    expect(left.map((s) => s.phoneNumber).sort()).toEqual([...phones(second)].sort());
    expect(left.find((s) => s.id === shared.id)).toMatchObject({
      firstSeenMonth: '2031-02-01',
      lastSeenMonth: '2031-02-01',
    });
    const marks = await db
      .select({ subscriptionId: optimizationMarks.subscriptionId })
      .from(optimizationMarks)
      .where(inArray(optimizationMarks.subscriptionId, [shared.id, onlyA.id]));
    expect(marks).toEqual([{ subscriptionId: shared.id }]);

    // Logged, and the client's optimization recomputed.
    const [log] = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.area, 'invoices'), eq(activityLog.entityId, invA.id)));
    expect(log).toMatchObject({ action: 'delete', entity: 'invoice', clientId: app.pohjola });
    expect(log!.before).toMatchObject({ invoiceNumber: invA.invoiceNumber, subscriptions: 2 });
    expect(await deletionRuns()).toHaveLength(runsBefore + 1);

    expect((await remove(invB.id)).statusCode).toBe(200);
  }, 400_000);

  it('deletes a failed invoice and its file', async () => {
    const { db } = app.t.deps.database;
    const [row] = await db
      .select({ fileId: invoices.fileId })
      .from(invoices)
      .where(eq(invoices.id, refusedId));
    const res = await remove(refusedId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().removed).toEqual({ lines: 0, facts: 0, subscriptions: 0, costElements: 0 });
    expect((await get(refusedId)).statusCode).toBe(404);
    expect(await db.select().from(files).where(eq(files.id, row!.fileId))).toEqual([]);
  });

  it('refuses a user without the delete permission and answers 404 for another client’s invoice', async () => {
    const { pdf } = await forPohjola({ operator: 'telia', subscriptions: 2, seed: 8105 });
    const inv = await uploadOne(pdf, 'kept.pdf');
    expect(inv.uploadState).toBe('uploaded');
    const denied = await remove(inv.id, app.tok.clientUser);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'forbidden' });
    const foreign = await remove(inv.id, app.tok.otherCompanyAdmin);
    expect(foreign.statusCode).toBe(404);
    expect((await get(inv.id)).statusCode).toBe(200);
    const missing = await remove(2147483000);
    expect(missing.statusCode).toBe(404);
    const bad = await remove(0);
    expect(bad.statusCode).toBe(400);
  }, 400_000);
});
