// Test helpers (imported by tests only) for the client wing: the demo callers signed in, the two
// demo clients, and the rows the client-section tests set up alike.
import { expect } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { activityLog, clientBillingPlans, consultantUserCompanies, users } from '../db/schema/index.js';
import { ROLE } from '@kulu/shared';
import { hashPassword } from '../lib/passwords.js';
import { useOwnApp } from './fixtures.js';
import { createTestApp, DEMO, DEMO_PASSWORD, type TestApp } from './helpers.js';

/** Tokens of the demo callers and the two demo clients (the company admin's and the other one). */
export interface ClientWing {
  admin: string;
  consultant: string;
  companyAdmin: string;
  clientUser: string;
  otherCompanyAdmin: string;
  /** The company admin's client (Pohjola). */
  clientId: number;
  /** The other company admin's client (Saimaa): "another client". */
  otherClientId: number;
}

/** The users row (id and client) of a demo login. */
export async function demoUser(t: Pick<TestApp, 'deps'>, email: string) {
  const [u] = await t.deps.database.db
    .select({ id: users.id, clientId: users.clientId })
    .from(users)
    .where(eq(users.email, email));
  return u!;
}

/**
 * Signs in the demo callers and finds the two demo clients. With `consultantKeepsOne`, the demo
 * consultant keeps only the company admin's client: the other is "another client" to them too.
 */
export async function clientWing(
  t: TestApp,
  opts: { consultantKeepsOne?: boolean } = {},
): Promise<ClientWing> {
  const [admin, consultant, companyAdmin, clientUser, otherCompanyAdmin] = await Promise.all(
    [DEMO.admin, DEMO.consultant, DEMO.companyAdmin, DEMO.clientUser, DEMO.otherCompanyAdmin].map((e) =>
      t.login(e),
    ),
  );
  const clientId = (await demoUser(t, DEMO.companyAdmin)).clientId!;
  const otherClientId = (await demoUser(t, DEMO.otherCompanyAdmin)).clientId!;
  if (opts.consultantKeepsOne) {
    const me = await demoUser(t, DEMO.consultant);
    await t.deps.database.db
      .delete(consultantUserCompanies)
      .where(
        and(eq(consultantUserCompanies.userId, me.id), eq(consultantUserCompanies.clientId, otherClientId)),
      );
  }
  return { admin, consultant, companyAdmin, clientUser, otherCompanyAdmin, clientId, otherClientId };
}

/** The client wing signed in on the file's own test app (set before the file's tests run). */
export class Wing implements ClientWing {
  t!: TestApp;
  admin!: string;
  consultant!: string;
  companyAdmin!: string;
  clientUser!: string;
  otherCompanyAdmin!: string;
  clientId!: number;
  otherClientId!: number;

  constructor(private readonly opts: { consultantKeepsOne?: boolean } = {}) {}

  async setUp(): Promise<void> {
    this.t = await createTestApp();
    Object.assign(this, await clientWing(this.t, this.opts));
  }
}

/** The client wing on the file's own test app: set up before the file's tests, closed after. */
export const useClientWing = (opts: { consultantKeepsOne?: boolean } = {}): Wing => useOwnApp(new Wing(opts));

/**
 * A provider consultant (a consultant without a client) who signs in with the demo password,
 * assigned `clientIds`: their user id.
 */
export async function addConsultant(
  t: Pick<TestApp, 'deps'>,
  user: { email: string; fullName: string; languageId?: number },
  clientIds: number[],
): Promise<number> {
  const { db } = t.deps.database;
  const [me] = await db
    .insert(users)
    .values({
      ...user,
      roleId: ROLE.consultant,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      activated: true,
    })
    .returning({ id: users.id });
  await db
    .insert(consultantUserCompanies)
    .values(clientIds.map((clientId) => ({ userId: me!.id, clientId })));
  return me!.id;
}

/** The activity log's entries of one row (its entity and id), in the order they were written. */
export function loggedFor(t: Pick<TestApp, 'deps'>, entity: string, entityId: number) {
  return t.deps.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.entity, entity), eq(activityLog.entityId, entityId)))
    .orderBy(asc(activityLog.id));
}

/** A billing plan with zero fees but those given (and 12 months): its id. */
export async function insertBillingPlan(
  t: Pick<TestApp, 'deps'>,
  values: Partial<typeof clientBillingPlans.$inferInsert> & { name: string },
): Promise<number> {
  const [plan] = await t.deps.database.db
    .insert(clientBillingPlans)
    .values({
      contractLengthMonths: 12,
      advancePaymentDiscountPercent: '0.00',
      costPerPlan: '0.00',
      setUpFee: '0.00',
      setUpFeePerCompany: '0.00',
      additionalUsersFee: '0.00',
      automatedInvoiceUploadFee: '0.00',
      onDemandSupportFee: '0.00',
      adminFee: '0.00',
      companyAdditionalUsersFee: '0.00',
      ...values,
    })
    .returning();
  return plan.id;
}

/** A plan with every fee set (24 months, 5 % off when paid in advance). */
export const FULL_PLAN = {
  contractLengthMonths: 24,
  advancePaymentDiscountPercent: '5.00',
  costPerPlan: '3.50',
  setUpFee: '100.00',
  setUpFeePerCompany: '50.00',
  additionalUsersFee: '2.00',
  automatedInvoiceUploadFee: '10.00',
  onDemandSupportFee: '90.00',
  adminFee: '25.00',
  companyAdditionalUsersFee: '4.00',
} as const;

/** One call of a route walk: its method, url and (for a write) body. */
export type RouteCall = readonly [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object];

/** Each call answers `status` to each token (a walk of the routes a caller may not reach). */
export async function expectEachStatus(
  t: Pick<TestApp, 'inject'>,
  tokens: string | string[],
  status: number,
  calls: readonly RouteCall[],
): Promise<void> {
  for (const [i, token] of ([] as string[]).concat(tokens).entries()) {
    for (const [method, url, payload] of calls) {
      const res = await t.inject({ method, url, token, payload });
      expect(res.statusCode, `${method} ${url} (token ${i + 1})`).toBe(status);
    }
  }
}

/**
 * A bad body PUT to another client's row answers the same 400 as to an unknown id: the body is
 * checked before the row is looked up, so the answer tells nothing of which ids exist.
 */
export async function expectSameBadBody(
  t: Pick<TestApp, 'inject'>,
  token: string,
  urls: { foreign: string; unknown: string },
  payload: object,
): Promise<void> {
  const foreign = await t.inject({ method: 'PUT', url: urls.foreign, token, payload });
  const unknown = await t.inject({ method: 'PUT', url: urls.unknown, token, payload });
  expect([foreign.statusCode, unknown.statusCode]).toEqual([400, 400]);
  expect(foreign.json()).toEqual(unknown.json());
}
