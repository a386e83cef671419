import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import {
  MASTER_RESOURCES,
  masterLabel,
  type MasterField,
  type MasterKey,
  type MasterResource,
} from '@kulu/shared';
import { monthlyFacts, userCostCenters, users } from '../../db/schema/index.js';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { insertInvoice } from '../../test/import-parsed.js';
import { operatorResource, costCategoryResource, MASTER_DEFS } from './definitions.js';
import { createRow, deleteRow, mapDbError, pgErrorOf } from '../../lib/resource/resource.service.js';
import { safeText } from '../../lib/resource/export.js';
import { AppError } from '../../lib/errors.js';
import { getWorkbook } from '../../test/workbook.js';

let t: TestApp;
let admin: string;
let consultant: string;
const ref: Record<string, number> = {};

type Payload = Record<string, unknown>;
const get = (url: string, token = admin) => t.inject({ method: 'GET', url, token });
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Payload, token = admin) =>
  t.inject({ method, url, token, payload });
const base = (m: MasterResource) => `/api/masters/${m.path}`;
/** Adds a row through POST /api/masters/`path` (201): its id. */
const added = async (path: string, payload: Payload) => {
  const res = await send('POST', `/api/masters/${path}`, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};
/** POST /api/masters/`path` with `payload` is refused (400) with exactly `fields` (each field's issue). */
const refusedWith = async (path: string, payload: Payload, fields: Record<string, string>) => {
  const res = await send('POST', `/api/masters/${path}`, payload);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().fields).toEqual(fields);
};
const option = async (url: string, name: string) => {
  const rows = (await get(url)).json() as Array<{ id: number; name: string }>;
  const hit = rows.find((r) => r.name === name);
  if (!hit) throw new Error(`no option ${name} at ${url}`);
  return hit.id;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
  consultant = await t.login(DEMO.consultant);
  ref.elisa = await option('/api/masters/operators/options', 'Elisa');
  ref.telia = await option('/api/masters/operators/options', 'Telia');
  ref.pohjola = await option('/api/masters/lookups/clients', 'Pohjola Rakennus Oy');
  ref.saimaa = await option('/api/masters/lookups/clients', 'Saimaan Logistiikka Oy');
  ref.pohjolaHelsinki = await option(
    `/api/masters/lookups/sub-companies?clientId=${ref.pohjola}`,
    'Pohjola Rakennus Helsinki',
  );
  ref.saimaaSub = await option(
    `/api/masters/lookups/sub-companies?clientId=${ref.saimaa}`,
    'Saimaan Kuljetus Oy',
  );
  ref.monthlyFee = await option('/api/masters/cost-categories/options', 'Monthly fee');
  ref.usage = await option('/api/masters/cost-groups/options', 'Usage');
  ref.elisaGroup = await option(
    `/api/masters/plan-groups/options?operatorId=${ref.elisa}`,
    'Elisa Yritysliittymä',
  );
  ref.teliaGroup = await option(
    `/api/masters/plan-groups/options?operatorId=${ref.telia}`,
    'Telia Yritys Mobiili',
  );
  ref.elisaBase = await option('/api/masters/base-plan-groups/options', 'Elisa 5G');
});
afterAll(async () => {
  await t?.close();
});

/**
 * One case per resource: a valid payload whose searchable text carries `tag`, and an update.
 * Everything else (required fields, invalid values, paging, sorting, search, export, delete)
 * is derived from the shared declaration.
 */
interface Case {
  make: (tag: string) => Payload;
  /** The entity key that carries the tag (sorted and searched on). */
  textKey: string;
  /** A tag per row; search for `search` finds exactly the case's rows. */
  tag: (i: number) => string;
  search: string;
  change: () => Payload;
}

const planPayload = (name: string): Payload => ({
  name,
  operatorId: ref.elisa,
  planType: 'flat_rate',
  planGroupId: ref.elisaGroup,
  basePlanGroupId: ref.elisaBase,
  listPrice: '21.90',
  contractPrice: 18.5,
  unlimited: true,
  dataSpeedMbps: 200,
  euDataGb: '30',
  dataInEu: true,
  voiceInEu: true,
  smsInEu: true,
  coverage: 'no_limitations',
  scope: 'general',
});
const fee = '10.00';
const billingPayload = (name: string): Payload => ({
  name,
  contractLengthMonths: 24,
  advancePaymentDiscountPercent: '7.5',
  costPerPlan: 1.9,
  setUpFee: fee,
  setUpFeePerCompany: fee,
  additionalUsersFee: fee,
  automatedInvoiceUploadFee: fee,
  onDemandSupportFee: '120',
  adminFee: fee,
  companyAdditionalUsersFee: fee,
});

const letters = (i: number) => String.fromCharCode(97 + i);
const named = (prefix: string) => ({ tag: (i: number) => `${prefix} ${letters(i)}`, search: prefix });

const CASES: Partial<Record<MasterKey, Case>> = {
  operators: {
    ...named('Testioperaattori'),
    textKey: 'name',
    make: (name) => ({ name }),
    change: () => ({ name: 'Testioperaattori z' }),
  },
  countries: {
    ...named('Testland'),
    textKey: 'name',
    make: (name) => ({ name, code: `Q${name.slice(-1).toUpperCase()}`, zone: 'world' }),
    change: () => ({ zone: 'eu' }),
  },
  currencies: {
    ...named('Testcoin'),
    textKey: 'name',
    make: (name) => ({ name, abbreviation: `QQ${name.slice(-1).toUpperCase()}`, symbol: 'Q' }),
    change: () => ({ symbol: 'Qz' }),
  },
  costCenters: {
    ...named('Testipaikka'),
    textKey: 'name',
    make: (name) => ({ clientId: ref.pohjola, subCompanyId: ref.pohjolaHelsinki, name }),
    change: () => ({ subCompanyId: null }),
  },
  costGroups: {
    ...named('Test group'),
    textKey: 'name',
    make: (name) => ({ name }),
    change: () => ({ isCurrentPlan: true }),
  },
  costCategories: {
    ...named('Test category'),
    textKey: 'name',
    make: (name) => ({ name, nameFi: `${name} fi`, usageType: 'data', zone: 'eu', costGroupId: ref.usage }),
    change: () => ({ operatorId: ref.elisa, zone: 'nordic_baltic' }),
  },
  costElements: {
    ...named('Test element'),
    textKey: 'name',
    make: (name) => ({ name, operatorId: ref.elisa }),
    change: () => ({ costCategoryId: ref.monthlyFee }),
  },
  plans: {
    ...named('Testiliittymä 5G'),
    textKey: 'name',
    make: planPayload,
    change: () => ({ listPrice: '22.50', dataSpeedMbps: 300, considerForOptimization: false }),
  },
  planGroups: {
    ...named('Test plan group'),
    textKey: 'name',
    make: (name) => ({ name, operatorId: ref.elisa, planType: 'flat_rate', costCategoryId: ref.monthlyFee }),
    change: () => ({ automaticCategorization: true, planType: 'data_only' }),
  },
  basePlanGroups: {
    ...named('Test base group'),
    textKey: 'name',
    make: (name) => ({ name, operatorId: ref.telia, planType: 'pay_per_use' }),
    change: () => ({ costCategoryId: ref.monthlyFee }),
  },
  skippedNumbers: {
    tag: (i) => `+35850990000${i}`,
    search: '50990000',
    textKey: 'phoneNumber',
    make: (phoneNumber) => ({ phoneNumber, clientId: ref.saimaa, note: 'Vaihde' }),
    change: () => ({ note: 'Kokoushuone' }),
  },
  billingPlans: {
    ...named('Test billing plan'),
    textKey: 'name',
    make: billingPayload,
    change: () => ({ contractLengthMonths: 36, adminFee: '15.50' }),
  },
};

/** A value that the field's type refuses. */
function invalidValueOf(f: MasterField): unknown {
  switch (f.type) {
    case 'text':
      return 'x'.repeat((f.maxLength ?? 200) + 1);
    case 'integer':
      return 'many';
    case 'money':
      return '-1.00';
    case 'percent':
      return '100.01';
    case 'boolean':
      return 'perhaps';
    case 'enum':
      return 'no-such-value';
    case 'ref':
      return 987654;
    case 'phone':
      return 'call me';
    default:
      return {};
  }
}

/** The other field values under which a conditional field applies (e.g. scope = customer_specific). */
const applies = (f: MasterField): Payload =>
  f.visibleWhen ? { [f.visibleWhen.field]: f.visibleWhen.values[0] } : {};

const expectSubset = (row: Payload, expected: Payload) => {
  for (const [k, v] of Object.entries(expected)) expect(row[k], k).toEqual(v);
};

describe.each(Object.entries(CASES) as Array<[MasterKey, Case]>)('master %s', (key, c) => {
  const m = MASTER_RESOURCES[key] as unknown as MasterResource;
  const url = base(m);
  const created: Payload[] = [];

  it('creates rows and reads them back', async () => {
    for (const i of [1, 0, 2]) {
      const res = await send('POST', url, c.make(c.tag(i)));
      expect(res.statusCode, res.body).toBe(201);
      const row = res.json() as Payload;
      expect(m.entity.safeParse(row).success).toBe(true);
      expect(row[c.textKey]).toBe(c.tag(i));
      created.push(row);
      const again = await get(`${url}/${row.id}`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(row);
    }
  });

  it('lists with paging, sorting and search', async () => {
    const page1 = await get(
      `${url}?q=${encodeURIComponent(c.search)}&pageSize=2&sort=${c.textKey}&order=desc`,
    );
    expect(page1.statusCode, page1.body).toBe(200);
    const body1 = page1.json();
    expect(body1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(body1.items.map((r: Payload) => r[c.textKey])).toEqual([c.tag(2), c.tag(1)]);
    const page2 = (
      await get(`${url}?q=${encodeURIComponent(c.search)}&pageSize=2&page=2&sort=${c.textKey}`)
    ).json();
    expect(page2.items.map((r: Payload) => r[c.textKey])).toEqual([c.tag(2)]);
    const asc = (await get(`${url}?q=${encodeURIComponent(c.search)}&sort=${c.textKey}&order=asc`)).json();
    expect(asc.items.map((r: Payload) => r[c.textKey])).toEqual([c.tag(0), c.tag(1), c.tag(2)]);
    const none = (await get(`${url}?q=${encodeURIComponent('no such thing at all')}`)).json();
    expect(none).toMatchObject({ items: [], total: 0 });
  });

  it('refuses a page size over 200, an unknown sort field and page 0, saying why', async () => {
    const cases = [
      ['pageSize=201', 'invalidPaging'],
      ['page=0', 'invalidPaging'],
      ['sort=password', 'invalidSort'],
      ['order=sideways', 'invalidSort'],
    ];
    for (const [q, code] of cases) {
      const res = await get(`${url}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code, q).toBe(code);
    }
    const sort = (await get(`${url}?sort=password`)).json();
    expect(sort.message).toContain(m.sortable.join(', '));
  });

  it('answers "required" for each required field that is missing or blank', async () => {
    const required = m.fields.filter((f) => f.required);
    expect(required.length).toBeGreaterThan(0);
    for (const f of required) {
      const payload = { ...c.make(`${c.tag(5)}`), ...applies(f) };
      delete payload[f.key];
      const res = await send('POST', url, payload);
      expect(res.statusCode, f.key).toBe(400);
      expect(res.json().fields, f.key).toEqual({ [f.key]: 'required' });
      if (f.type === 'text' || f.type === 'phone' || f.type === 'money') {
        const blank = await send('POST', url, { ...c.make(c.tag(5)), ...applies(f), [f.key]: '  ' });
        expect(blank.json().fields, `${f.key} blank`).toEqual({ [f.key]: 'required' });
      }
    }
  });

  it('answers "invalid" for a value of the wrong kind in each field', async () => {
    for (const f of m.fields) {
      const res = await send('POST', url, { ...c.make(c.tag(6)), ...applies(f), [f.key]: invalidValueOf(f) });
      expect(res.statusCode, `${f.key}: ${res.body}`).toBe(400);
      expect(res.json().fields, f.key).toEqual({ [f.key]: 'invalid' });
    }
  });

  it('refuses a duplicate', async () => {
    const res = await send('POST', url, c.make(c.tag(0)));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe(m.messages.duplicate);
    if (c.textKey === 'name') {
      const upper = await send('POST', url, c.make(c.tag(0).toUpperCase()));
      expect(upper.statusCode, 'names are unique regardless of case').toBe(409);
    }
    const renamed = await send('PUT', `${url}/${created[0].id}`, c.make(c.tag(0)));
    expect(renamed.statusCode, 'an update may not take another row’s name').toBe(409);
  });

  it('updates a row', async () => {
    const row = created[0];
    const change = c.change();
    const res = await send('PUT', `${url}/${row.id}`, { ...c.make(c.tag(1)), ...change });
    expect(res.statusCode, res.body).toBe(200);
    expectSubset(res.json(), change);
    expectSubset((await get(`${url}/${row.id}`)).json(), change);
    const missing = await send('PUT', `${url}/99999`, c.make(c.tag(7)));
    expect(missing.statusCode).toBe(404);
  });

  it('exports the current list as an .xlsx', async () => {
    const { res, wb } = await getWorkbook(
      t,
      `${url}/export?q=${encodeURIComponent(c.search)}&sort=${c.textKey}`,
      admin,
    );
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`attachment; filename="${m.path}-.*\\.xlsx"`),
    );
    expect(res.rawPayload.subarray(0, 4).toString('hex')).toBe('504b0304');
    const ws = wb.worksheets[0];
    expect(ws.rowCount).toBe(4);
    const col = m.columns.findIndex((x) => x.key === c.textKey) + 1;
    expect(ws.getRow(1).getCell(col).value).toBe(masterLabel(m.columns[col - 1].labelKey, 'en'));
    expect(ws.getRow(2).getCell(col).value).toBe(c.tag(0));
  });

  it('deletes a row', async () => {
    for (const row of created) {
      const res = await send('DELETE', `${url}/${row.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: row.id, code: m.messages.deleted });
      expect((await get(`${url}/${row.id}`)).statusCode).toBe(404);
    }
    expect((await send('DELETE', `${url}/${created[0].id}`)).statusCode).toBe(404);
  });

  it('is closed to the consultant', async () => {
    expect((await get(url, consultant)).statusCode).toBe(403);
    expect((await send('POST', url, c.make(c.tag(8)), consultant)).statusCode).toBe(403);
  });
});

describe('master declarations', () => {
  it('covers every resource with a test case (help files have their own tests)', () => {
    const keys = Object.keys(MASTER_RESOURCES).filter((k) => k !== 'help');
    expect(Object.keys(CASES).sort()).toEqual(keys.sort());
  });
  it('defines every master under its own typed key', () => {
    for (const [key, def] of Object.entries(MASTER_DEFS)) {
      expect(def.meta, key).toBe(MASTER_RESOURCES[key as MasterKey]);
    }
    expect(Object.keys(MASTER_DEFS).sort()).toEqual(Object.keys(MASTER_RESOURCES).sort());
  });
});

describe('search', () => {
  it('treats % and _ in the search as plain characters', async () => {
    for (const name of ['Wild%Card Oy', 'WildXCard Oy', 'Under_Score Oy', 'UnderXScore Oy']) {
      expect((await send('POST', '/api/masters/operators', { name })).statusCode).toBe(201);
    }
    const names = async (q: string) =>
      ((await get(`/api/masters/operators?q=${encodeURIComponent(q)}`)).json().items as Payload[]).map(
        (r) => r.name,
      );
    expect(await names('Wild%')).toEqual(['Wild%Card Oy']);
    expect(await names('r_S')).toEqual(['Under_Score Oy']);
    expect(await names('\\')).toEqual([]);
  });

  it('filters by the declared filters', async () => {
    const elisa = (await get(`/api/masters/plans?operatorId=${ref.elisa}&pageSize=200`)).json();
    expect(elisa.total).toBeGreaterThanOrEqual(5);
    expect(new Set(elisa.items.map((p: Payload) => p.operatorName))).toEqual(new Set(['Elisa']));
    const own = (await get(`/api/masters/plans?scope=customer_specific&clientId=${ref.saimaa}`)).json();
    expect(own.total).toBeGreaterThan(0);
    for (const p of own.items)
      expect(p).toMatchObject({ clientName: 'Saimaan Logistiikka Oy', scope: 'customer_specific' });
    const eu = (await get('/api/masters/countries?zone=nordic_baltic&pageSize=50')).json();
    expect(eu.items.map((r: Payload) => r.code).sort()).toEqual(['DK', 'EE', 'LT', 'LV', 'NO', 'SE']);
    const current = (await get('/api/masters/cost-groups?isCurrentPlan=true')).json();
    expect(current.items.map((r: Payload) => r.name)).toEqual(['Monthly fees']);
  });
});

describe('export', () => {
  it('writes text that a spreadsheet could take for a formula with a leading quote', async () => {
    const evil = '=HYPERLINK("http://evil.example","x")';
    expect((await send('POST', '/api/masters/operators', { name: evil })).statusCode).toBe(201);
    const { wb } = await getWorkbook(
      t,
      `/api/masters/operators/export?q=${encodeURIComponent('HYPERLINK')}`,
      admin,
    );
    const cell = wb.worksheets[0].getRow(2).getCell(1);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe(`'${evil}`);
    expect(['+A1', '-A1', '@x', '\tx', '=1+1'].map(safeText)).toEqual([
      "'+A1",
      "'-A1",
      "'@x",
      "'\tx",
      "'=1+1",
    ]);
    expect(['+358 40 123 4567', '-12.50'].map(safeText)).toEqual(['+358 40 123 4567', '-12.50']);
    expect(safeText('Elisa')).toBe('Elisa');
  });

  it('writes amounts as numbers, yes/no and enum values in the caller’s language', async () => {
    const fi = await t.inject({
      method: 'PUT',
      url: '/api/profile/settings',
      token: admin,
      payload: { languageID: 2 },
    });
    expect(fi.statusCode).toBe(200);
    try {
      const { wb } = await getWorkbook(
        t,
        `/api/masters/plans/export?q=${encodeURIComponent('Telia Pro EU')}`,
        admin,
      );
      const ws = wb.worksheets[0];
      expect(ws.name).toBe('Liittymät');
      const header = (ws.getRow(1).values as unknown[]).slice(1);
      expect(header).toContain('Listahinta (€/kk)');
      const row = ws.getRow(2);
      const cell = (key: string) =>
        row.getCell(MASTER_RESOURCES.plans.columns.findIndex((x) => x.key === key) + 1).value;
      expect(cell('listPrice')).toBe(44.9);
      expect(cell('planType')).toBe('Kiinteähintainen');
      expect(cell('unlimited')).toBe('Kyllä');
    } finally {
      await t.inject({
        method: 'PUT',
        url: '/api/profile/settings',
        token: admin,
        payload: { languageID: 1 },
      });
    }
  });
});

describe('in-use rows', () => {
  it('refuses to delete an operator that plans and contracts use', async () => {
    const res = await send('DELETE', `/api/masters/operators/${ref.elisa}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'inUse', message: 'This row is in use and cannot be deleted' });
  });

  it('refuses to delete a cost group, cost category, plan group and base plan group in use', async () => {
    const group = await added('cost-groups', { name: 'Used group' });
    const cat = await added('cost-categories', {
      name: 'Used category',
      nameFi: 'Käytetty luokka',
      usageType: 'voice',
      zone: 'domestic',
      costGroupId: group,
    });
    const pg = await added('plan-groups', {
      name: 'Used PG',
      operatorId: ref.elisa,
      planType: 'm2m',
      costCategoryId: cat,
    });
    const bpg = await added('base-plan-groups', { name: 'Used BPG', operatorId: ref.elisa, planType: 'm2m' });
    const plan = await added('plans', { ...planPayload('Used plan'), planGroupId: pg, basePlanGroupId: bpg });
    /** Each row of the chain, used by the next one (the last two by the plan). */
    const chain = [
      `/api/masters/cost-groups/${group}`,
      `/api/masters/cost-categories/${cat}`,
      `/api/masters/plan-groups/${pg}`,
      `/api/masters/base-plan-groups/${bpg}`,
    ];
    for (const u of chain) {
      const res = await send('DELETE', u);
      expect(res.statusCode, u).toBe(409);
      expect(res.json().code).toBe('inUse');
    }
    // Once the plan is gone, the chain can be taken down from its end.
    expect((await send('DELETE', `/api/masters/plans/${plan}`)).statusCode).toBe(200);
    for (const u of [...chain].reverse()) {
      expect((await send('DELETE', u)).statusCode, u).toBe(200);
    }
  });

  it('refuses to delete a cost center that a user is limited to', async () => {
    const cc = await added('cost-centers', { clientId: ref.pohjola, name: 'Rajattu' });
    const [u] = await t.deps.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, DEMO.clientUser));
    await t.deps.database.db.insert(userCostCenters).values({ userId: u.id, costCenterId: cc });
    const res = await send('DELETE', `/api/masters/cost-centers/${cc}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('inUse');
    await t.deps.database.db.delete(userCostCenters).where(eq(userCostCenters.costCenterId, cc));
    expect((await send('DELETE', `/api/masters/cost-centers/${cc}`)).statusCode).toBe(200);
  });

  it('maps a foreign-key violation the service did not foresee to the same 409, never a database error', async () => {
    const me = { id: 1, roleId: 1, clientId: null } as never;
    const unguarded = { ...operatorResource, referencedBy: [] };
    await expect(deleteRow(t.deps.database.db, unguarded, me, ref.elisa)).rejects.toMatchObject({
      statusCode: 409,
      code: 'inUse',
    });
  });

  it('maps a unique violation that slips past the check (a concurrent insert) to the duplicate answer', async () => {
    const me = { id: 1, roleId: 1, clientId: null } as never;
    const unchecked = { ...costCategoryResource, unique: [] };
    const input = {
      name: 'Monthly fee',
      nameFi: 'Kuukausimaksu',
      operatorId: null,
      usageType: 'monthly_fee',
      zone: 'domestic',
      costGroupId: null,
    };
    await expect(createRow(t.deps.database.db, unchecked, me, input)).rejects.toMatchObject({
      statusCode: 409,
      code: 'nameExists',
    });
    expect(pgErrorOf({ cause: { code: '23505', constraint: 'x' } })).toEqual({
      code: '23505',
      constraint: 'x',
    });
    expect(() => mapDbError(new Error('boom'), operatorResource, 'write')).toThrow('boom');
    expect(() => mapDbError({ code: '23503' }, operatorResource, 'write')).toThrow(AppError);
  });
});

describe('client billing plans', () => {
  it('keeps amounts exact as decimal strings, accepting numbers and decimal commas', async () => {
    const res = await send('POST', '/api/masters/billing-plans', {
      ...billingPayload('Exact'),
      costPerPlan: 1.9,
      adminFee: '12,35',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      costPerPlan: '1.90',
      adminFee: '12.35',
      advancePaymentDiscountPercent: '7.50',
    });
    await refusedWith(
      'billing-plans',
      { ...billingPayload('Exact 2'), costPerPlan: 0.1 + 0.2 },
      { costPerPlan: 'invalid' },
    );
  });

  it('refuses a name that exists with the spec’s message, in the user’s language', async () => {
    const res = await send('POST', '/api/masters/billing-plans', billingPayload('kulu standard 12 KK'));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'billingPlanNameExists',
      message: 'Billing plan with same name exists',
    });
  });

  it('refuses to delete a billing plan that a contract uses', async () => {
    const list = (await get('/api/masters/billing-plans?q=Standard')).json();
    const standard = list.items[0];
    const res = await t.inject({
      method: 'DELETE',
      url: `/api/masters/billing-plans/${standard.id}`,
      token: admin,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'billingPlanInUse',
      message: 'Billing plan in use cannot be deleted',
    });
    const unused = await added('billing-plans', billingPayload('Unused plan'));
    const del = await send('DELETE', `/api/masters/billing-plans/${unused}`);
    expect(del.json()).toMatchObject({
      code: 'billingPlanDeleted',
      message: 'Billing plan deleted successfully',
    });
  });

  it('requires every fee, the contract length and the discount', async () => {
    const res = await send('POST', '/api/masters/billing-plans', { name: 'Empty' });
    expect(Object.keys(res.json().fields).sort()).toEqual(
      MASTER_RESOURCES.billingPlans.fields
        .map((f) => f.key)
        .filter((k) => k !== 'name')
        .sort(),
    );
    expect(new Set(Object.values(res.json().fields))).toEqual(new Set(['required']));
  });
});

describe('specific rules', () => {
  it('requires the Finnish name of a cost category', async () => {
    await refusedWith(
      'cost-categories',
      { name: 'Roaming data', usageType: 'data', zone: 'world' },
      { nameFi: 'required' },
    );
  });

  it('requires the client of a customer-specific plan and drops it from a general one', async () => {
    await refusedWith(
      'plans',
      { ...planPayload('Own plan'), scope: 'customer_specific' },
      { clientId: 'required' },
    );
    const own = await send('POST', '/api/masters/plans', {
      ...planPayload('Own plan'),
      scope: 'customer_specific',
      clientId: ref.pohjola,
    });
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({
      clientName: 'Pohjola Rakennus Oy',
      contractPrice: '18.50',
      euDataGb: '30.00',
    });
    // The same name as a general plan is fine: the client's own row overrides it.
    const general = await send('POST', '/api/masters/plans', {
      ...planPayload('Own plan'),
      clientId: ref.pohjola,
    });
    expect(general.statusCode).toBe(201);
    expect(general.json().clientId).toBeNull();
  });

  it('refuses a plan group of another operator', async () => {
    await refusedWith(
      'plans',
      { ...planPayload('Mixed'), planGroupId: ref.teliaGroup },
      { planGroupId: 'invalid' },
    );
  });

  it('refuses a cost center under another client’s sub-company', async () => {
    await refusedWith(
      'cost-centers',
      { clientId: ref.pohjola, subCompanyId: ref.saimaaSub, name: 'Väärä' },
      { subCompanyId: 'invalid' },
    );
  });

  it('normalizes skipped phone numbers, so one number in two spellings is a duplicate', async () => {
    const res = await send('POST', '/api/masters/skipped-numbers', { phoneNumber: '040 123 4567' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ phoneNumber: '+358401234567', clientId: null });
    const again = await send('POST', '/api/masters/skipped-numbers', { phoneNumber: '+358 40 1234567' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('phoneNumberExists');
    const perClient = await send('POST', '/api/masters/skipped-numbers', {
      phoneNumber: '0401234567',
      clientId: ref.pohjola,
    });
    expect(perClient.statusCode).toBe(201);
  });

  it('upper-cases country and currency codes and refuses a code that exists', async () => {
    const se = await send('POST', '/api/masters/countries', {
      name: 'Sverige',
      code: 'se',
      zone: 'nordic_baltic',
    });
    expect(se.statusCode).toBe(409);
    expect(se.json().code).toBe('codeExists');
    const eur = await send('POST', '/api/masters/currencies', {
      name: 'Euro 2',
      abbreviation: 'eur',
      symbol: '€',
    });
    expect(eur.json().code).toBe('codeExists');
  });
});

describe('cost elements', () => {
  const url = '/api/masters/cost-elements';
  const make = async (name: string, costCategoryId?: number) =>
    (
      await send('POST', url, { name, operatorId: ref.telia, ...(costCategoryId ? { costCategoryId } : {}) })
    ).json();

  it('starts uncategorized, or categorized when given a category', async () => {
    expect((await make('Kuukausimaksu Yritys Mobiili')).status).toBe('uncategorized');
    expect((await make('Puhelut kotimaa', ref.monthlyFee)).status).toBe('categorized');
  });

  it('assigns a category and approves one element', async () => {
    const el = await make('Tekstiviestit kotimaa');
    const refused = await send('POST', `${url}/${el.id}/approve`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('costElementNotCategorized');
    const cat = await send('POST', `${url}/${el.id}/category`, { costCategoryId: ref.monthlyFee });
    expect(cat.json()).toMatchObject({ status: 'categorized', costCategoryName: 'Monthly fee' });
    const ok = await send('POST', `${url}/${el.id}/approve`);
    expect(ok.json().status).toBe('approved');
    // Renaming keeps the approval; a new category needs a new one.
    const renamed = await send('PUT', `${url}/${el.id}`, {
      name: 'Tekstiviestit, kotimaa',
      operatorId: ref.telia,
      costCategoryId: ref.monthlyFee,
    });
    expect(renamed.json().status).toBe('approved');
    const other = await option('/api/masters/cost-categories/options', 'Domestic SMS');
    const moved = await send('PUT', `${url}/${el.id}`, {
      name: 'Tekstiviestit, kotimaa',
      operatorId: ref.telia,
      costCategoryId: other,
    });
    expect(moved.json().status).toBe('categorized');
  });

  it('categorizes and approves in bulk, all or nothing', async () => {
    const els = [await make('Bulk a'), await make('Bulk b'), await make('Bulk c')];
    const ids = els.map((e) => e.id);
    const early = await send('POST', `${url}/approve`, { ids });
    expect(early.statusCode).toBe(409);
    const cat = await send('POST', `${url}/categorize`, {
      ids: ids.slice(0, 2),
      costCategoryId: ref.monthlyFee,
    });
    expect(cat.json()).toMatchObject({ updated: 2, code: 'costElementsCategorized' });
    const partial = await send('POST', `${url}/approve`, { ids });
    expect(partial.statusCode).toBe(409);
    const states = (await get(`${url}?q=Bulk&sort=name`)).json().items.map((e: Payload) => e.status);
    expect(states).toEqual(['categorized', 'categorized', 'uncategorized']);
    const ok = await send('POST', `${url}/approve`, { ids: ids.slice(0, 2) });
    expect(ok.json()).toMatchObject({ updated: 2, code: 'costElementsApproved' });
    const approved = (await get(`${url}?status=approved&q=Bulk`)).json();
    expect(approved.total).toBe(2);
    expect((await send('POST', `${url}/approve`, { ids: [987654] })).statusCode).toBe(404);
    expect((await send('POST', `${url}/categorize`, { ids, costCategoryId: 987654 })).json().fields).toEqual({
      costCategoryId: 'invalid',
    });
    expect((await send('POST', `${url}/approve`, { ids: [] })).statusCode).toBe(400);
  });

  it('moves the monthly facts of a re-categorized element to its new category, one way or the other', async () => {
    const { db } = t.deps.database;
    const sms = await option('/api/masters/cost-categories/options', 'Domestic SMS');
    const [el, other] = [
      await make('Facts element', ref.monthlyFee),
      await make('Facts other', ref.monthlyFee),
    ];
    const invoiceId = await insertInvoice(t, {
      clientId: ref.saimaa,
      operatorId: ref.telia,
      fileName: 'f.pdf',
      fileSha256: 'facts-test',
      batchId: 'facts-test',
    });
    const fact = (costElementId: number) => ({
      clientId: ref.saimaa,
      invoiceId,
      operatorId: ref.telia,
      month: '2026-01-01',
      costElementId,
      costCategoryId: ref.monthlyFee,
      amount: '1.00',
    });
    await db.insert(monthlyFacts).values([fact(el.id), fact(other.id)]);
    const categoryOf = async (costElementId: number) =>
      (
        await db
          .select({ c: monthlyFacts.costCategoryId })
          .from(monthlyFacts)
          .where(eq(monthlyFacts.costElementId, costElementId))
      ).map((r) => r.c);

    // By the edit form (PUT) ...
    const put = await send('PUT', `${url}/${el.id}`, {
      name: 'Facts element',
      operatorId: ref.telia,
      costCategoryId: sms,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await categoryOf(el.id)).toEqual([sms]);
    expect(await categoryOf(other.id)).toEqual([ref.monthlyFee]);
    // ... and by the category call, one or many.
    await send('POST', `${url}/${el.id}/category`, { costCategoryId: ref.monthlyFee });
    expect(await categoryOf(el.id)).toEqual([ref.monthlyFee]);
    await send('POST', `${url}/categorize`, { ids: [el.id, other.id], costCategoryId: sms });
    expect([...(await categoryOf(el.id)), ...(await categoryOf(other.id))]).toEqual([sms, sms]);
  });
});
