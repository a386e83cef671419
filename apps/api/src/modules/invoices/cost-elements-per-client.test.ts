// Issue 37 item 7: one upload could add thousands of tenant-chosen names to the provider's shared
// cost-element list. A name a company's own upload brings that no element has yet is now that
// company's own (never on the shared list, never shown to another company), at most
// CLIENT_COST_ELEMENTS_MAX of them; the lines of further new names go to the company's
// "Other charges" of the operator, and the activity log says why.
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceLine, ParsedInvoice } from '@kulu/invoices';
import {
  activityLog,
  clientOperators,
  costElements,
  invoiceLines,
  operators,
} from '../../db/schema/index.js';
import { BUYER, clientIdOf, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { feeLine, insertInvoice } from '../../test/import-parsed.js';
import { importParsedInvoice, OTHER_ELEMENT_NAME } from './import.service.js';

const MAX = 5;
const OPERATOR = 'Rajatesti';
const SHARED = 'Rajatesti kuukausimaksu';

let t: TestApp;
let operatorId = 0;
const client = { pohjola: 0, saimaa: 0 };
const tok = { pohjola: '', saimaa: '' };
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ CLIENT_COST_ELEMENTS_MAX: String(MAX) });
  const { db } = t.deps.database;
  client.pohjola = await clientIdOf(t, DEMO.companyAdmin);
  client.saimaa = await clientIdOf(t, DEMO.otherCompanyAdmin);
  [{ id: operatorId }] = await db.insert(operators).values({ name: OPERATOR }).returning();
  await db.insert(clientOperators).values([
    { clientId: client.pohjola, operatorId },
    { clientId: client.saimaa, operatorId },
  ]);
  // Signed in with every operator of the company (one with a single operator is limited to it).
  tok.pohjola = await t.login(DEMO.companyAdmin);
  tok.saimaa = await t.login(DEMO.otherCompanyAdmin);
  // A name on the provider's shared list.
  await db.insert(costElements).values({ name: SHARED, operatorId });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** An invoice of `who` with one subscription and a line per label, imported as the parse job does. */
async function importLabels(
  who: keyof typeof client,
  labels: string[],
  source: 'upload' | 'automation' = 'upload',
): Promise<number> {
  const i = ++n;
  const invoiceId = await insertInvoice(t, {
    clientId: client[who],
    fileName: `raja-${i}.pdf`,
    fileSha256: `cost-elements-per-client-${i}`,
    batchId: `cost-elements-per-client-${i}`,
    source,
  });
  const lines: InvoiceLine[] = labels.map((l, k) => feeLine(l, 1 + k));
  const total = lines.reduce((a, l) => a + l.amount, 0);
  const parsed: ParsedInvoice = {
    operator: OPERATOR,
    invoiceNumber: `R-${i}`,
    invoiceDate: '2025-06-15',
    dueDate: '2025-06-28',
    customerNumber: '1',
    customerName: BUYER[who].name,
    businessId: BUYER[who].businessId,
    referenceNumber: '1',
    currency: 'EUR',
    vatRate: 25.5,
    totalExclVat: total,
    vatAmount: 0,
    totalInclVat: total,
    subscriptions: [{ phoneNumber: `+3584000000${i}`, userName: 'Raja', costCenter: null, total, lines }],
    otherLines: [],
  };
  // As the parse job calls it, with CLIENT_COST_ELEMENTS_MAX.
  const max = t.deps.config.CLIENT_COST_ELEMENTS_MAX;
  const done = await importParsedInvoice(t.deps.database.db, invoiceId, parsed, new Date(), undefined, max);
  expect(done.imported).toBe(true);
  return invoiceId;
}

const elementsOf = (clientId: number | null) =>
  t.deps.database.db
    .select({ id: costElements.id, name: costElements.name })
    .from(costElements)
    .where(
      and(
        eq(costElements.operatorId, operatorId),
        clientId === null ? isNull(costElements.clientId) : eq(costElements.clientId, clientId),
      ),
    );

const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name).sort();

const linesOf = (invoiceId: number) =>
  t.deps.database.db
    .select({ label: invoiceLines.label, element: invoiceLines.costElementId })
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId));

/** The cost-element filter's choices of the dashboard (GET /api/dashboard/cost-usage/cost-elements). */
async function choices(token: string) {
  const res = await t.inject({
    method: 'GET',
    url: '/api/dashboard/cost-usage/cost-elements?from=2025-06&to=2025-06',
    token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Array<{ costElementId: number; name: string }>>().map((e) => e.name);
}

const own = (k: number) => `Oma nimi ${k}`;

describe("a company's new cost-element names (issue 37 item 7)", () => {
  it(`keeps a company upload's new names as its own, at most ${MAX}; the lines of the rest go to its "Other charges", and the activity log says why`, async () => {
    const labels = [SHARED, ...Array.from({ length: MAX + 3 }, (_, k) => own(k))];
    const invoiceId = await importLabels('pohjola', labels);

    // Nothing was added to the shared list.
    expect(names(await elementsOf(null))).toEqual([SHARED]);
    // The first MAX new names are the company's own, with its "Other charges".
    const mine = await elementsOf(client.pohjola);
    expect(names(mine)).toEqual(
      [...Array.from({ length: MAX }, (_, k) => own(k)), OTHER_ELEMENT_NAME].sort(),
    );
    const other = mine.find((e) => e.name === OTHER_ELEMENT_NAME)!;
    const [shared] = await elementsOf(null);
    // Every line keeps its own label; the names past the limit are under "Other charges".
    const lines = await linesOf(invoiceId);
    expect(lines.map((l) => l.label).sort()).toEqual([...labels].sort());
    for (const l of lines) {
      if (l.label === SHARED) expect(l.element).toBe(shared!.id);
      else if (Number(l.label.split(' ').pop()) >= MAX) expect(l.element).toBe(other.id);
      else expect(l.element).toBe(mine.find((e) => e.name === l.label)!.id);
    }
    const [logged] = await t.deps.database.db
      .select({ action: activityLog.action, after: activityLog.after, clientId: activityLog.clientId })
      .from(activityLog)
      .where(and(eq(activityLog.entity, 'invoice'), eq(activityLog.entityId, invoiceId)));
    expect(logged).toMatchObject({
      action: 'import',
      clientId: client.pohjola,
      after: {
        reason: 'costElementsLimited',
        limit: MAX,
        names: 3,
        costElement: OTHER_ELEMENT_NAME,
        firstNames: [own(MAX), own(MAX + 1), own(MAX + 2)],
      },
    });

    // The next invoice's new name has no room either; its known names keep their elements.
    const next = await importLabels('pohjola', [own(0), 'Vielä yksi uusi']);
    const nextLines = await linesOf(next);
    expect(nextLines.find((l) => l.label === 'Vielä yksi uusi')!.element).toBe(other.id);
    expect(nextLines.find((l) => l.label === own(0))!.element).toBe(mine.find((e) => e.name === own(0))!.id);
    expect(await elementsOf(client.pohjola)).toHaveLength(MAX + 1);
  });

  it("never shows a company another company's names: the same names make its own elements, and its cost-element filter offers its own and the shared ones", async () => {
    await importLabels('saimaa', [SHARED, own(0), own(1)]);
    const theirs = await elementsOf(client.saimaa);
    expect(names(theirs)).toEqual([own(0), own(1)]);
    const pohjolas = (await elementsOf(client.pohjola)).map((e) => e.id);
    for (const e of theirs) expect(pohjolas).not.toContain(e.id);

    expect((await choices(tok.saimaa)).sort()).toEqual([SHARED, own(0), own(1)].sort());
    const offered = await choices(tok.pohjola);
    expect(offered).toContain(SHARED);
    expect(offered).toContain(OTHER_ELEMENT_NAME);
    expect(offered).not.toContain('Vielä yksi uusi');

    // The masters list of a company's own names shows whose they are.
    const admin = await t.login(DEMO.admin);
    const res = await t.inject({
      method: 'GET',
      url: `/api/masters/cost-elements?operatorId=${operatorId}&clientId=${client.saimaa}`,
      token: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as Array<{
      name: string;
      clientId: number | null;
      clientName: string | null;
    }>;
    expect(items.map((e) => e.name).sort()).toEqual([own(0), own(1)]);
    expect(items.every((e) => e.clientId === client.saimaa && !!e.clientName)).toBe(true);
  });

  it("lets the provider make a company's own name shared, and refuses to make one company's an element another company's costs use", async () => {
    const admin = await t.login(DEMO.admin);
    const [theirs] = (await elementsOf(client.saimaa)).filter((e) => e.name === own(0));
    const url = `/api/masters/cost-elements/${theirs!.id}`;
    const shared = await t.inject({
      method: 'PUT',
      url,
      token: admin,
      payload: { name: own(0), operatorId },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json()).toMatchObject({ clientId: null, clientName: null });
    const taken = await t.inject({
      method: 'PUT',
      url,
      token: admin,
      payload: { name: own(0), operatorId, clientId: client.pohjola },
    });
    expect(taken.statusCode, taken.body).toBe(400);
    expect(taken.json().fields).toEqual({ clientId: 'invalid' });
    // Back as it was for the next test.
    const back = await t.inject({
      method: 'PUT',
      url,
      token: admin,
      payload: { name: own(0), operatorId, clientId: client.saimaa },
    });
    expect(back.statusCode, back.body).toBe(200);
  });

  it("keeps the names of the operators' own invoices (the portals' automation) on the shared list", async () => {
    await importLabels('saimaa', ['Automaation uusi nimi'], 'automation');
    expect(names(await elementsOf(null))).toEqual(['Automaation uusi nimi', SHARED].sort());
    expect(names(await elementsOf(client.saimaa))).toEqual([own(0), own(1)]);
  });
});
