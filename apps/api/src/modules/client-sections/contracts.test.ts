import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { addDays, contractCosts, helsinkiDay, message, ROLE } from '@kulu/shared';
import { clientContracts, clients, consultantCompanies, users } from '../../db/schema/index.js';
import {
  clientWing,
  expectEachStatus,
  FULL_PLAN,
  insertBillingPlan,
  loggedFor,
} from '../../test/client-wing.js';
import { addActiveContract, createTestApp, DEMO, DEMO_PASSWORD, type TestApp } from '../../test/helpers.js';
import { hashPassword } from '../../lib/passwords.js';

let t: TestApp;
let admin: string, companyAdmin: string, clientUser: string, otherCompanyAdmin: string;
let clientId: number, otherClientId: number;
let planId: number;
const year = new Date().getUTCFullYear();
const today = helsinkiDay(new Date());

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, companyAdmin, clientUser, otherCompanyAdmin, clientId, otherClientId } = await clientWing(t));
  planId = await insertBillingPlan(t, { name: 'Contract test plan', ...FULL_PLAN });
});
afterAll(async () => {
  await t?.close();
});

const base = (id = clientId) => `/api/clients/${id}/contracts`;
const add = (payload: object) => t.inject({ method: 'POST', url: base(), token: admin, payload });
/** Terminates contract `id` of client `client` on `terminationDate`, as the provider. */
const terminate = (id: number, terminationDate: string, client = clientId) =>
  t.inject({
    method: 'POST',
    url: `${base(client)}/${id}/terminate`,
    token: admin,
    payload: { terminationDate },
  });
const draft = (startDate: string, endDate: string, extra: Record<string, unknown> = {}) => ({
  term: '24',
  startDate,
  endDate,
  billingPlanId: planId,
  billingCycle: 'monthly',
  numberOfPlans: 10,
  units: 1,
  status: 'draft',
  ...extra,
});

describe('contract costs', () => {
  const fees = { costPerPlan: '3.50', adminFee: '25.00', advancePaymentDiscountPercent: '5.00' };
  it('is units × (plans × cost per plan + admin fee) a month and 12 months a year', () => {
    expect(contractCosts({ units: 1, numberOfPlans: 10, billingCycle: 'monthly' }, fees)).toEqual({
      costPerUnit: '3.50',
      monthlyCost: '60.00',
      yearlyCost: '720.00',
    });
  });
  it('takes the advance-payment discount off a yearly cycle, to the cent', () => {
    expect(contractCosts({ units: 1, numberOfPlans: 7, billingCycle: 'yearly' }, fees)).toEqual({
      costPerUnit: '3.50',
      monthlyCost: '49.50',
      yearlyCost: '564.30',
    });
    expect(
      contractCosts(
        { units: 1, numberOfPlans: 3, billingCycle: 'yearly' },
        { costPerPlan: '0.33', adminFee: '0.00', advancePaymentDiscountPercent: '12.50' },
      ).yearlyCost,
    ).toBe('10.40'); // 0.99 × 12 = 11.88, less 12.5 % = 10.395 → 10.40
  });
  it('charges nothing for 0 units', () => {
    const c = contractCosts({ units: 0, numberOfPlans: 10, billingCycle: 'yearly' }, fees);
    expect([c.monthlyCost, c.yearlyCost]).toEqual(['0.00', '0.00']);
  });
});

describe('contract management', () => {
  it("lists the client's contracts for the provider", async () => {
    const res = await t.inject({ method: 'GET', url: base(), token: admin });
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items.length).toBeGreaterThanOrEqual(1);
    expect(items[0]).toMatchObject({ clientId, status: 'active' });
  });

  it('prices the demo contract from its demo billing plan (160 plans × 1.90 + 29.00 a month)', async () => {
    const items = (await t.inject({ method: 'GET', url: base(), token: admin })).json().items;
    const demo = items.find((c: { status: string }) => c.status === 'active');
    expect(demo).toMatchObject({
      numberOfPlans: 160,
      units: 1,
      monthlyCost: '333.00',
      yearlyCost: '3996.00',
    });
    expect(demo.billingPlanId).not.toBeNull();
  });

  it('saves a draft with the computed costs and the draft message', async () => {
    const res = await add(draft(`${year + 3}-01-01`, `${year + 4}-12-31`));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'contractDrafted',
      message: message('contractDrafted', 'en'),
      contract: {
        status: 'draft',
        billingPlanName: 'Contract test plan',
        costPerUnit: '3.50',
        monthlyCost: '60.00',
        yearlyCost: '720.00',
      },
    });
  });

  it('refuses a contract starting before the previous one ends, with the message', async () => {
    const res = await add(draft(`${year}-06-01`, `${year + 3}-12-31`, { status: 'active' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'contractStartBeforePrevious',
      message: message('contractStartBeforePrevious', 'en'),
    });
  });

  it('refuses units other than 0 or 1, an end before the start and unknown values', async () => {
    for (const [payload, field] of [
      [draft(`${year + 5}-01-01`, `${year + 5}-12-31`, { units: 2 }), 'units'],
      [draft(`${year + 5}-01-01`, `${year + 4}-12-31`), 'endDate'],
      [draft(`${year + 5}-02-30`, `${year + 5}-12-31`), 'startDate'],
      [draft(`${year + 5}-01-01`, `${year + 5}-12-31`, { billingCycle: 'weekly' }), 'billingCycle'],
      [draft(`${year + 5}-01-01`, `${year + 5}-12-31`, { numberOfPlans: -1 }), 'numberOfPlans'],
    ] as const) {
      const res = await add(payload);
      expect(res.statusCode, field).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), field).toContain(field);
    }
    const unknownPlan = await add(draft(`${year + 5}-01-01`, `${year + 5}-12-31`, { billingPlanId: 999999 }));
    expect(unknownPlan.statusCode).toBe(400);
    expect(unknownPlan.json().fields).toEqual({ billingPlanId: 'invalid' });
  });

  it("prices by the client's billing plan when the contract names none", async () => {
    const { db } = t.deps.database;
    const [c] = await db
      .select({ planId: clients.billingPlanId })
      .from(clients)
      .where(eq(clients.id, clientId));
    const res = await add(draft(`${year + 6}-01-01`, `${year + 6}-12-31`, { billingPlanId: null }));
    if (c.planId == null) {
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('contractNoBillingPlan');
    } else {
      expect(res.statusCode).toBe(201);
      expect(res.json().contract.billingPlanId).toBe(c.planId);
    }
  });

  it('activates a draft (updated message, logged) and refuses to reopen an inactive contract', async () => {
    const created = await add(draft(`${year + 10}-01-01`, `${year + 10}-12-31`));
    const id = created.json().contract.id as number;
    const body = {
      ...draft(`${year + 10}-01-01`, `${year + 10}-12-31`),
      status: 'active',
      numberOfPlans: 20,
    };
    const res = await t.inject({ method: 'PUT', url: `${base()}/${id}`, token: admin, payload: body });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'contractUpdated',
      message: message('contractUpdated', 'en'),
      contract: { status: 'active', monthlyCost: '95.00' },
    });
    const log = await loggedFor(t, 'contract', id);
    expect(log.map((l) => l.action)).toEqual(['create', 'activate']);
    expect(log[1].before).toMatchObject({ status: 'draft' });

    const inactive = await t.inject({
      method: 'PUT',
      url: `${base()}/${id}`,
      token: admin,
      payload: { ...body, status: 'inactive', inactiveDate: `${year + 10}-06-30` },
    });
    expect(inactive.statusCode).toBe(200);
    expect(inactive.json().contract).toMatchObject({
      status: 'inactive',
      inactiveDate: `${year + 10}-06-30`,
    });
    const back = await t.inject({ method: 'PUT', url: `${base()}/${id}`, token: admin, payload: body });
    expect(back.statusCode).toBe(409);
    expect(back.json().code).toBe('contractNotEditable');
  });

  it('terminates only on a day between start and end, once', async () => {
    const created = await add(draft(`${year + 12}-01-01`, `${year + 12}-12-31`, { status: 'active' }));
    const id = created.json().contract.id as number;
    const outside = await terminate(id, `${year + 13}-01-01`);
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({
      code: 'contractTerminationDate',
      message: message('contractTerminationDate', 'en'),
    });
    const ok = await terminate(id, `${year + 12}-05-31`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      code: 'contractTerminated',
      message: message('contractTerminated', 'en'),
      contract: { status: 'terminated', terminationDate: `${year + 12}-05-31` },
    });
    const again = await terminate(id, `${year + 12}-05-31`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('contractTerminateActiveOnly');
  });

  it('refuses to terminate a draft or an inactive contract (409, English and Finnish), leaving it as it was', async () => {
    const created = await add(draft(`${year + 14}-01-01`, `${year + 14}-12-31`));
    const draftId = created.json().contract.id as number;
    const active = await add(draft(`${year + 15}-01-01`, `${year + 15}-12-31`, { status: 'active' }));
    const inactiveId = active.json().contract.id as number;
    const stopped = await t.inject({
      method: 'PUT',
      url: `${base()}/${inactiveId}`,
      token: admin,
      payload: draft(`${year + 15}-01-01`, `${year + 15}-12-31`, {
        status: 'inactive',
        inactiveDate: `${year + 15}-03-31`,
      }),
    });
    expect(stopped.json().contract.status).toBe('inactive');
    const rowsBefore = await t.deps.database.db
      .select()
      .from(clientContracts)
      .where(eq(clientContracts.clientId, clientId));

    for (const lang of ['en', 'fi'] as const) {
      // The message is in the caller's own language.
      await t.deps.database.db
        .update(users)
        .set({ languageId: lang === 'fi' ? 2 : 1 })
        .where(eq(users.email, DEMO.admin));
      for (const [id, day] of [
        [draftId, `${year + 14}-06-30`],
        [inactiveId, `${year + 15}-06-30`],
      ] as const) {
        const res = await terminate(id, day);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({
          code: 'contractTerminateActiveOnly',
          message: message('contractTerminateActiveOnly', lang),
        });
      }
    }
    await t.deps.database.db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.admin));
    const rowsAfter = await t.deps.database.db
      .select()
      .from(clientContracts)
      .where(eq(clientContracts.clientId, clientId));
    expect(rowsAfter).toEqual(rowsBefore);
  });

  it("keeps company users out of contracts and another client's contract ids out of reach", async () => {
    await expectEachStatus(t, [companyAdmin, clientUser], 403, [['GET', base()]]);
    const [other] = await t.deps.database.db
      .select({ id: clientContracts.id })
      .from(clientContracts)
      .where(eq(clientContracts.clientId, otherClientId));
    const res = await t.inject({ method: 'GET', url: `${base()}/${other.id}`, token: admin });
    expect(res.statusCode).toBe(404);
    const term = await terminate(other.id, today);
    expect(term.statusCode).toBe(404);
  });
});

describe('a company without a valid contract is locked out (spec §4)', () => {
  it('answers 403 with the message on data routes, keeps the session routes, and not for the provider', async () => {
    const before = await t.inject({ method: 'GET', url: '/api/invoices', token: otherCompanyAdmin });
    expect(before.statusCode).toBe(200);
    const [active] = await t.deps.database.db
      .select({ id: clientContracts.id })
      .from(clientContracts)
      .where(and(eq(clientContracts.clientId, otherClientId), eq(clientContracts.status, 'active')));

    // A termination on a later day keeps the company in until that day.
    const tomorrow = addDays(helsinkiDay(t.deps.now()), 1);
    await t.deps.database.db
      .update(clientContracts)
      .set({ status: 'terminated', terminationDate: tomorrow })
      .where(eq(clientContracts.id, active.id));
    expect(
      (await t.inject({ method: 'GET', url: '/api/invoices', token: otherCompanyAdmin })).statusCode,
    ).toBe(200);
    await t.deps.database.db
      .update(clientContracts)
      .set({ status: 'active', terminationDate: null })
      .where(eq(clientContracts.id, active.id));

    const res = await terminate(active.id, today, otherClientId);
    expect(res.statusCode).toBe(200);

    for (const url of ['/api/invoices', '/api/dashboard/cost-usage']) {
      const locked = await t.inject({ method: 'GET', url, token: otherCompanyAdmin });
      expect(locked.statusCode, url).toBe(403);
      expect(locked.json()).toMatchObject({ code: 'menuDisabled', message: message('menuDisabled', 'en') });
    }
    const info = await t.inject({
      method: 'GET',
      url: '/api/Account/GetClientInfo',
      token: otherCompanyAdmin,
    });
    expect(info.statusCode).toBe(200);
    expect(info.json().menuDisabled).toBe(true);
    expect(
      (await t.inject({ method: 'GET', url: '/api/profile', token: otherCompanyAdmin })).statusCode,
    ).toBe(200);
    // The provider still works on the company's data.
    const provider = await t.inject({
      method: 'GET',
      url: `/api/invoices?clientId=${otherClientId}`,
      token: admin,
    });
    expect(provider.statusCode).toBe(200);
    // The other company is untouched.
    expect((await t.inject({ method: 'GET', url: '/api/invoices', token: companyAdmin })).statusCode).toBe(
      200,
    );

    // In the user's language.
    const other = await t.login(DEMO.otherClientUser);
    await t.deps.database.db
      .update(users)
      .set({ languageId: 2 })
      .where(eq(users.email, DEMO.otherClientUser));
    const fi = await t.inject({ method: 'GET', url: '/api/dashboard/cost-usage', token: other });
    expect(fi.statusCode).toBe(403);
    expect(fi.json().message).toBe(message('menuDisabled', 'fi'));
  });

  it('locks out a terminated client whatever its contracts', async () => {
    await t.deps.database.db
      .update(clients)
      .set({ profileStatus: 'terminated' })
      .where(eq(clients.id, clientId));
    const res = await t.inject({ method: 'GET', url: '/api/invoices', token: companyAdmin });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('menuDisabled');
    await t.deps.database.db.update(clients).set({ profileStatus: 'active' }).where(eq(clients.id, clientId));
    expect((await t.inject({ method: 'GET', url: '/api/invoices', token: companyAdmin })).statusCode).toBe(
      200,
    );
  });
});

/** A client of its own (a company or a consultant firm) with one signed-in user. */
async function clientWithUser(type: 'company' | 'consultant', n: number) {
  const { db } = t.deps.database;
  const [c] = await db
    .insert(clients)
    .values({
      type,
      companyName: `Lock-out ${type} ${n} Oy`,
      businessId: `${1000000 + n}-${n % 10}`,
      email: `lockout${n}@${type}.test`,
      interestStatus: type,
    })
    .returning({ id: clients.id });
  const email = `user${n}@${type}.test`;
  await db.insert(users).values({
    email,
    fullName: `Lock-out user ${n}`,
    roleId: type === 'company' ? ROLE.companyAdmin : ROLE.consultant,
    clientId: c.id,
    passwordHash: await hashPassword(DEMO_PASSWORD),
    activated: true,
  });
  return { id: c.id, token: await t.login(email) };
}

const isOpen = async (token: string, url: string) => {
  const res = await t.inject({ method: 'GET', url, token });
  expect([200, 403], `${url}: ${res.body}`).toContain(res.statusCode);
  if (res.statusCode === 403) expect(res.json().code).toBe('menuDisabled');
  const info = await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token });
  expect(info.json().menuDisabled).toBe(res.statusCode === 403);
  return res.statusCode === 200;
};

describe('the lock-out rule, status by status (lib/contract-access.ts)', () => {
  it('opens the door only for an active contract, or one terminated from active before its date', async () => {
    const company = await clientWithUser('company', 1);
    const day = helsinkiDay(t.deps.now());
    const yesterday = addDays(day, -1);
    const tomorrow = addDays(day, 1);
    const within = { startDate: addDays(day, -30), endDate: addDays(day, 300) };
    const activated = { activatedAt: t.deps.now() };
    type Contract = Partial<typeof clientContracts.$inferInsert>;
    /** A contract over today, activated now, in `status` (with `extra` over that). */
    const activatedAs = (status: Contract['status'], extra: Contract = {}): Contract => ({
      status,
      ...within,
      ...activated,
      ...extra,
    });
    const cases: Array<[string, Contract | null, boolean]> = [
      ['no contract', null, false],
      ['a draft over today', { status: 'draft', ...within }, false],
      ['an active contract over today', activatedAs('active'), true],
      ['an active contract that ended yesterday', activatedAs('active', { endDate: yesterday }), false],
      ['an active contract from tomorrow', activatedAs('active', { startDate: tomorrow }), false],
      ['an inactive contract', activatedAs('inactive', { inactiveDate: yesterday }), false],
      [
        'a contract terminated from active on a later day',
        activatedAs('terminated', { terminationDate: tomorrow }),
        true,
      ],
      ['a contract terminated today', activatedAs('terminated', { terminationDate: day }), false],
      [
        'a draft terminated on a later day (never activated)',
        activatedAs('terminated', { terminationDate: tomorrow, activatedAt: null }),
        false,
      ],
      [
        'an inactive contract terminated on a later day',
        activatedAs('terminated', { terminationDate: tomorrow, inactiveDate: yesterday }),
        false,
      ],
    ];
    const { db } = t.deps.database;
    for (const [label, contract, open] of cases) {
      await db.delete(clientContracts).where(eq(clientContracts.clientId, company.id));
      if (contract) {
        await db.insert(clientContracts).values({
          ...within,
          ...contract,
          clientId: company.id,
        } as typeof clientContracts.$inferInsert);
      }
      expect(await isOpen(company.token, '/api/invoices'), label).toBe(open);
    }
  });
});

describe('a consultant firm is locked out like any client (spec §4)', () => {
  it("locks a consultant firm's users out without a valid contract; the provider's own consultants never", async () => {
    const firm = await clientWithUser('consultant', 2);
    await t.deps.database.db.insert(consultantCompanies).values({ consultantClientId: firm.id, clientId });
    const provider = await t.login(DEMO.consultant);
    const url = base();

    expect(await isOpen(firm.token, url)).toBe(false);
    // The session routes stay open, so the firm's users can read why and sign out.
    expect((await t.inject({ method: 'GET', url: '/api/profile', token: firm.token })).statusCode).toBe(200);
    expect(await isOpen(provider, url)).toBe(true);

    await addActiveContract(t, firm.id);
    expect(await isOpen(firm.token, url)).toBe(true);

    const [contract] = await t.deps.database.db
      .select({ id: clientContracts.id })
      .from(clientContracts)
      .where(eq(clientContracts.clientId, firm.id));
    const ended = await terminate(contract.id, helsinkiDay(t.deps.now()), firm.id);
    expect(ended.statusCode).toBe(200);
    expect(await isOpen(firm.token, url)).toBe(false);
    expect(await isOpen(provider, url)).toBe(true);

    // A terminated firm is locked out whatever its contracts.
    await addActiveContract(t, firm.id);
    await t.deps.database.db.delete(clientContracts).where(eq(clientContracts.id, contract.id));
    expect(await isOpen(firm.token, url)).toBe(true);
    await t.deps.database.db
      .update(clients)
      .set({ profileStatus: 'terminated' })
      .where(eq(clients.id, firm.id));
    expect(await isOpen(firm.token, url)).toBe(false);
  });
});
