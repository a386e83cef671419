import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { permits } from '../plugins/access.js';
import { and, eq, inArray } from 'drizzle-orm';
import { ALL_PERMISSIONS, COMPANY_PERMISSIONS, ROLE } from '@kulu/shared';
import type * as Shared from '@kulu/shared';
import {
  clients,
  consultantUserCompanies,
  costCenters,
  invoices,
  skippedPhoneNumbers,
  subCompanies,
  subscriptions,
  userCostCenters,
  userSubCompanies,
  users,
} from '../db/schema/index.js';
import { logActivity } from '../lib/activity-log.js';
import { createTestApp, DEMO, type TestApp } from '../test/helpers.js';

/**
 * The "what if" of issue 37: a consultant whose own list holds every permission of the catalogue
 * holds them all, the provider-only ones (activity log, client contracts, provider masters, user
 * management) included, which no real consultant can (their role's set excludes those). Every other
 * user's permissions are decided as in production.
 */
vi.mock('@kulu/shared', async (importOriginal) => {
  const shared = await importOriginal<typeof Shared>();
  return {
    ...shared,
    effectivePermissions: (roleId: number, own?: readonly string[] | null) =>
      roleId === shared.ROLE.consultant && shared.ALL_PERMISSIONS.every((p) => own?.includes(p))
        ? [...shared.ALL_PERMISSIONS]
        : shared.effectivePermissions(roleId, own),
  };
});

/**
 * Issue 25, tenancy by construction: for every list, report and export route, each client identity
 * (company admins, a sub-company-limited and a cost-center-limited client user, a consultant assigned
 * one company) reads the route with its defaults and **every row it gets belongs to what it may
 * see**. The data is the demo's first start (two companies, their sub-companies, cost centers, 36
 * invoices: a copy of the demo template). What an identity may see is computed here from the tables, not through the Scope:
 * a subscription is visible when its client is the identity's (or assigned to it), and it is in the
 * identity's sub-companies and cost centers when the identity is limited to some. The markers of
 * every subscription, invoice, sub-company and cost center it may not see (phone numbers, invoice
 * numbers, names) must not appear anywhere in an answer, JSON or Excel; and each identity must meet
 * markers of its own rows in the answers, so that the walk cannot pass on empty pages.
 *
 * Issue 37 adds a "what if" identity: a consultant holding every permission of the catalogue (see the
 * mock above), assigned one company, so that the provider-only reads (the masters' client and
 * sub-company look-ups, the activity log and client contracts reports and their exports, the provider
 * users' lists and options) are walked through the Scope as well, not only guarded by permissions a
 * consultant lacks. Provider identities read every route both for their company (`?clientId=`) and
 * without naming one.
 */

let t: TestApp;

interface Identity {
  who: string;
  email: string;
  token: string;
  permissions: string[];
  /** The clients it may see, and its limits within them (null: none). */
  clientIds: number[];
  subCompanyIds: number[] | null;
  costCenterIds: number[] | null;
  provider: boolean;
}

interface SubscriptionRow {
  phoneNumber: string;
  clientId: number;
  subCompanyId: number | null;
  costCenterId: number | null;
}

const identities: Identity[] = [];
let allSubscriptions: SubscriptionRow[] = [];

async function clientOf(email: string): Promise<{ id: number; clientId: number; passwordHash: string }> {
  const [u] = await t.deps.database.db
    .select({ id: users.id, clientId: users.clientId, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email));
  return { id: u.id, clientId: u.clientId!, passwordHash: u.passwordHash! };
}

/** A client user of Anna's company holding every company permission, limited as given. */
async function addLimitedUser(
  email: string,
  limit: { subCompanyName?: string; costCenterName?: string },
): Promise<void> {
  const { db } = t.deps.database;
  const anna = await clientOf(DEMO.companyAdmin);
  const [u] = await db
    .insert(users)
    .values({
      email,
      fullName: 'Rajattu Käyttäjä',
      roleId: ROLE.clientUser,
      clientId: anna.clientId,
      activated: true,
      passwordHash: anna.passwordHash,
      permissions: [...COMPANY_PERMISSIONS],
    })
    .returning({ id: users.id });
  if (limit.subCompanyName) {
    const [s] = await db
      .select({ id: subCompanies.id })
      .from(subCompanies)
      .where(and(eq(subCompanies.clientId, anna.clientId), eq(subCompanies.name, limit.subCompanyName)));
    await db.insert(userSubCompanies).values({ userId: u.id, subCompanyId: s.id });
  }
  if (limit.costCenterName) {
    const [c] = await db
      .select({ id: costCenters.id, subCompanyId: costCenters.subCompanyId })
      .from(costCenters)
      .where(and(eq(costCenters.clientId, anna.clientId), eq(costCenters.name, limit.costCenterName)));
    if (c.subCompanyId)
      await db.insert(userSubCompanies).values({ userId: u.id, subCompanyId: c.subCompanyId });
    await db.insert(userCostCenters).values({ userId: u.id, costCenterId: c.id });
  }
}

/**
 * The "what if" consultant: one of the provider's own consultants holding every permission of the
 * catalogue, assigned only the other demo company (the limited consultant has Anna's).
 */
async function addWhatIfConsultant(email: string): Promise<void> {
  const { db } = t.deps.database;
  const anna = await clientOf(DEMO.companyAdmin);
  const other = await clientOf(DEMO.otherCompanyAdmin);
  const [u] = await db
    .insert(users)
    .values({
      email,
      fullName: 'Kaikki Oikeudet',
      roleId: ROLE.consultant,
      clientId: null,
      activated: true,
      passwordHash: anna.passwordHash,
      permissions: [...ALL_PERMISSIONS],
    })
    .returning({ id: users.id });
  await db.insert(consultantUserCompanies).values({ userId: u.id, clientId: other.clientId });
}

/**
 * Activity of both demo companies, as their changes write it (lib/activity-log.ts): each entry names
 * its company and one of its subscriptions, so that an activity log answering another company's
 * entries shows a marker (the client contracts report has the demo's contract of each).
 */
async function addActivityOfBothCompanies(): Promise<void> {
  const { db } = t.deps.database;
  for (const admin of [DEMO.companyAdmin, DEMO.otherCompanyAdmin]) {
    const { clientId } = await clientOf(admin);
    const [s] = await db
      .select({ id: subscriptions.id, phoneNumber: subscriptions.phoneNumber })
      .from(subscriptions)
      .where(eq(subscriptions.clientId, clientId))
      .limit(1);
    await logActivity(db, {
      userId: null,
      clientId,
      area: 'clientMasters',
      action: 'update',
      entity: 'subscription',
      entityId: s.id,
      before: { phoneNumber: s.phoneNumber },
      after: { phoneNumber: s.phoneNumber },
    });
  }
}

/** The provider's consultant, assigned only Anna's company (the demo assigns both). */
async function limitConsultant(): Promise<void> {
  const { db } = t.deps.database;
  const me = await clientOf(DEMO.consultant);
  const anna = await clientOf(DEMO.companyAdmin);
  await db.delete(consultantUserCompanies).where(eq(consultantUserCompanies.userId, me.id));
  await db.insert(consultantUserCompanies).values({ userId: me.id, clientId: anna.clientId });
}

async function identity(who: string, email: string): Promise<Identity> {
  const token = await t.login(email);
  const info = (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token })).json() as {
    roleID: number;
    acessPermissions: string[];
  };
  const { db } = t.deps.database;
  const [u] = await db.select().from(users).where(eq(users.email, email));
  const subs = await db.select().from(userSubCompanies).where(eq(userSubCompanies.userId, u.id));
  const ccs = await db.select().from(userCostCenters).where(eq(userCostCenters.userId, u.id));
  const provider = info.roleID === ROLE.consultant || info.roleID === ROLE.providerAdmin;
  const assigned = provider
    ? (await db.select().from(consultantUserCompanies).where(eq(consultantUserCompanies.userId, u.id))).map(
        (r) => r.clientId,
      )
    : [u.clientId!];
  return {
    who,
    email,
    token,
    permissions: info.acessPermissions,
    clientIds: assigned,
    subCompanyIds: info.roleID === ROLE.clientUser && subs.length ? subs.map((s) => s.subCompanyId) : null,
    costCenterIds: info.roleID === ROLE.clientUser && ccs.length ? ccs.map((c) => c.costCenterId) : null,
    provider,
  };
}

function sees(
  me: Identity,
  s: { clientId: number; subCompanyId: number | null; costCenterId: number | null },
) {
  if (!me.clientIds.includes(s.clientId)) return false;
  if (me.subCompanyIds && (s.subCompanyId === null || !me.subCompanyIds.includes(s.subCompanyId)))
    return false;
  if (me.costCenterIds && (s.costCenterId === null || !me.costCenterIds.includes(s.costCenterId)))
    return false;
  return true;
}

/** Texts that name rows `me` may not see: they must appear in none of its answers. */
async function hiddenMarkers(me: Identity): Promise<string[]> {
  const { db } = t.deps.database;
  const markers = allSubscriptions.filter((s) => !sees(me, s)).map((s) => s.phoneNumber);
  const visiblePhones = new Set(allSubscriptions.filter((s) => sees(me, s)).map((s) => s.phoneNumber));
  const invoiceRows = await db
    .select({
      number: invoices.invoiceNumber,
      clientId: invoices.clientId,
      subCompanyId: invoices.subCompanyId,
    })
    .from(invoices);
  for (const i of invoiceRows) {
    // An invoice of a visible client but another sub-company (a sub-company-limited user): hidden.
    const visible =
      me.clientIds.includes(i.clientId) &&
      (!me.subCompanyIds || (i.subCompanyId !== null && me.subCompanyIds.includes(i.subCompanyId)));
    if (!visible && i.number) markers.push(i.number);
  }
  const subs = await db
    .select({ id: subCompanies.id, name: subCompanies.name, clientId: subCompanies.clientId })
    .from(subCompanies);
  for (const s of subs) {
    const visible =
      me.clientIds.includes(s.clientId) && (!me.subCompanyIds || me.subCompanyIds.includes(s.id));
    if (!visible) markers.push(s.name);
  }
  const others = await db
    .select({ name: clients.companyName })
    .from(clients)
    .where(and(eq(clients.type, 'company')));
  const own = await db
    .select({ name: clients.companyName })
    .from(clients)
    .where(inArray(clients.id, me.clientIds));
  const ownNames = new Set(own.map((c) => c.name));
  markers.push(...others.map((c) => c.name).filter((n) => !ownNames.has(n)));
  return [...new Set(markers)].filter((m) => m && !visiblePhones.has(m));
}

/** Every cell of every sheet of an .xlsx as one text. */
async function xlsxText(body: Buffer): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const cells: string[] = [];
  wb.eachSheet((sheet) =>
    sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text ?? cell.value ?? '')))),
  );
  return cells.join('\n');
}

beforeAll(async () => {
  // A copy of the demo template: what a demo install's first start imports (test/template.ts).
  t = await createTestApp({}, { demo: true });
  await addLimitedUser('alayhtio.rajattu@pohjolarakennus.fi', { subCompanyName: 'Pohjola Rakennus Tampere' });
  await addLimitedUser('kustannuspaikka.rajattu@pohjolarakennus.fi', { costCenterName: 'Myynti' });
  await limitConsultant();
  await addWhatIfConsultant('kaikki.oikeudet@kulu.test');
  await addActivityOfBothCompanies();
  const { db } = t.deps.database;
  allSubscriptions = await db
    .select({
      phoneNumber: subscriptions.phoneNumber,
      clientId: subscriptions.clientId,
      subCompanyId: subscriptions.subCompanyId,
      costCenterId: subscriptions.costCenterId,
    })
    .from(subscriptions);
  for (const [who, email] of Object.entries({
    companyAdmin: DEMO.companyAdmin,
    clientUser: DEMO.clientUser,
    otherCompanyAdmin: DEMO.otherCompanyAdmin,
    otherClientUser: DEMO.otherClientUser,
    subCompanyLimited: 'alayhtio.rajattu@pohjolarakennus.fi',
    costCenterLimited: 'kustannuspaikka.rajattu@pohjolarakennus.fi',
    consultant: DEMO.consultant,
    whatIfConsultant: 'kaikki.oikeudet@kulu.test',
  })) {
    identities.push(await identity(who, email));
  }
}, 600_000);
afterAll(async () => {
  await t?.close();
});

/** GET routes without path parameters that read client data: lists, reports and their exports. */
function readRoutes() {
  return t.app.routeCatalogue.filter(
    (r) => r.method === 'GET' && !r.url.includes(':') && !r.public && r.permission !== undefined,
  );
}

describe('every row an identity reads is one it may see', () => {
  it('the walk covers the identities the issue names, with limits as set up', () => {
    const by = Object.fromEntries(identities.map((i) => [i.who, i]));
    expect(by.subCompanyLimited.subCompanyIds).toHaveLength(1);
    expect(by.costCenterLimited.costCenterIds).toHaveLength(1);
    expect(by.consultant.clientIds).toHaveLength(1);
    expect(by.whatIfConsultant.clientIds).toHaveLength(1);
    expect(by.whatIfConsultant.clientIds).not.toEqual(by.consultant.clientIds);
    expect([...by.whatIfConsultant.permissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
    for (const i of identities)
      expect(allSubscriptions.filter((s) => sees(i, s)).length, i.who).toBeGreaterThan(0);
  });

  it.each([
    'companyAdmin',
    'clientUser',
    'otherCompanyAdmin',
    'otherClientUser',
    'subCompanyLimited',
    'costCenterLimited',
    'consultant',
    'whatIfConsultant',
  ])('%s: no list, report or export answers a row outside its scope', async (who) => {
    const me = identities.find((i) => i.who === who)!;
    const hidden = await hiddenMarkers(me);
    expect(hidden.length).toBeGreaterThan(0);
    const ownPhones = allSubscriptions.filter((s) => sees(me, s)).map((s) => s.phoneNumber);
    let ownSeen = 0;
    let read = 0;
    for (const route of readRoutes()) {
      if (!permits(me.permissions, route.permission)) continue;
      // A provider user reads a client's data by naming the client (its assigned one), or reads what
      // the route answers without naming one.
      const queries =
        me.provider && route.query?.includes('clientId') ? [`?clientId=${me.clientIds[0]}`, ''] : [''];
      for (const query of queries) {
        const res = await t.inject({ method: 'GET', url: `${route.url}${query}`, token: me.token });
        expect(res.statusCode, `${who} GET ${route.url}${query}: ${res.body.slice(0, 300)}`).toBeLessThan(
          500,
        );
        if (res.statusCode !== 200) continue;
        read++;
        const type = String(res.headers['content-type'] ?? '');
        const text = type.includes('spreadsheetml') ? await xlsxText(res.rawPayload) : res.body;
        const leaked = hidden.filter((m) => text.includes(m));
        expect(leaked, `${who} GET ${route.url}${query} answers rows it may not see`).toEqual([]);
        if (ownPhones.some((p) => text.includes(p))) ownSeen++;
      }
    }
    expect(read, `${who}: routes read`).toBeGreaterThan(3);
    // Not a walk over empty pages: the identity's own subscriptions show up in several answers.
    expect(ownSeen, `${who}: answers naming its own subscriptions`).toBeGreaterThan(1);
  });
});

describe('the what-if consultant writes only within its companies', () => {
  const whatIf = () => identities.find((i) => i.who === 'whatIfConsultant')!;

  it('refuses a master row for a company it does not see (400 on the client), and writes nothing', async () => {
    const { db } = t.deps.database;
    const anna = await clientOf(DEMO.companyAdmin);
    const other = await clientOf(DEMO.otherCompanyAdmin);
    const skip = (clientId: number, phoneNumber: string) =>
      t.inject({
        method: 'POST',
        url: '/api/masters/skipped-numbers',
        token: whatIf().token,
        payload: { phoneNumber, clientId, note: 'what if' },
      });
    const before = await db.select().from(skippedPhoneNumbers);
    const refused = await skip(anna.clientId, '+358401110001');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().fields).toEqual({ clientId: 'invalid' });
    expect(await db.select().from(skippedPhoneNumbers)).toEqual(before);
    const own = await skip(other.clientId, '+358401110002');
    expect(own.statusCode, own.body).toBe(201);
  });

  it("keeps another consultant's companies it does not see when it edits them, and cannot assign them", async () => {
    const { db } = t.deps.database;
    const anna = await clientOf(DEMO.companyAdmin);
    const other = await clientOf(DEMO.otherCompanyAdmin);
    const consultant = await clientOf(DEMO.consultant);
    const url = `/api/provider-users/${consultant.id}`;
    const shown = (await t.inject({ method: 'GET', url, token: whatIf().token })).json();
    // Assigned Anna's company only: none of it shows to a consultant of the other company.
    expect(shown.companies).toEqual([]);
    const body = {
      name: shown.name,
      email: shown.email,
      contactNumber: shown.contactNumber,
      role: shown.role,
      status: shown.status,
      permissions: shown.permissions,
    };
    const assign = (companyIds: number[]) =>
      t.inject({ method: 'PUT', url, token: whatIf().token, payload: { ...body, companyIds } });
    const hidden = await assign([anna.clientId]);
    expect(hidden.statusCode, hidden.body).toBe(400);
    expect(hidden.json().fields).toEqual({ companyIds: 'invalid' });
    const saved = await assign([other.clientId]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().user.companies.map((c: { id: number }) => c.id)).toEqual([other.clientId]);
    const stored = await db
      .select({ clientId: consultantUserCompanies.clientId })
      .from(consultantUserCompanies)
      .where(eq(consultantUserCompanies.userId, consultant.id));
    expect(stored.map((r) => r.clientId).sort((a, b) => a - b)).toEqual(
      [anna.clientId, other.clientId].sort((a, b) => a - b),
    );
  });
});
