import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { alerts, invoices, subCompanies, users } from '../../db/schema/index.js';
import {
  createTestApp,
  DEMO,
  demoTokens,
  limitDemoClientUser,
  operatorIdOf,
  type TestApp,
} from '../../test/helpers.js';
import { SCOPE_CALLERS } from '../../test/fixtures.js';
import { evaluateInvoiceAlerts } from './evaluate.service.js';
import { writeTestInvoice, type TestSub } from './test-invoices.js';
import { alertText } from './alert-text.js';
import { getWorkbook } from '../../test/workbook.js';

let t: TestApp;
const tok: Record<string, string> = {};
let pohjola: number;
let elisa: number;
/** The client user's sub-company (A) and another of the same client (B). */
let subA: number;
let subB: number;

const months = (last: string, n: number): string[] => {
  const [y, m] = last.split('-').map(Number);
  return Array.from({ length: n }, (_, i) =>
    new Date(Date.UTC(y, m - 1 - (n - 1 - i), 1)).toISOString().slice(0, 10),
  );
};
let phoneSeq = 4000000;
const phone = () => `+35840${phoneSeq++}`;
let accountSeq = 0;

/**
 * A sub-company of its own per case (an operator bills each sub-company on its own invoice): the
 * "new" and "gone" rules of one case do not see another case's invoices.
 */
async function account(): Promise<number> {
  const [s] = await t.deps.database.db
    .insert(subCompanies)
    .values({ clientId: pohjola, name: `Alerts case ${accountSeq++}` })
    .returning({ id: subCompanies.id });
  return s.id;
}

/** Writes one invoice per month (the subscriptions of each month given) and evaluates each. */
async function history(sub: number, perMonth: Array<[string, TestSub[]]>): Promise<number[]> {
  const ids: number[] = [];
  for (const [month, subs] of perMonth) {
    const id = await writeTestInvoice(t.deps.database.db, {
      clientId: pohjola,
      operatorId: elisa,
      month,
      subCompanyId: sub,
      subs: subs.map((s) => ({ subCompanyId: sub, ...s })),
    });
    await evaluateInvoiceAlerts(t.deps.database.db, id);
    ids.push(id);
  }
  return ids;
}

const alertsOf = (invoiceId: number) =>
  t.deps.database.db.select().from(alerts).where(eq(alerts.invoiceId, invoiceId)).orderBy(asc(alerts.id));

/** Six months of `usual` euros, then a month of `cost`: the alerts of that last month. */
async function costJumpCase(usual: number[], cost: number) {
  const sub = await account();
  const p = phone();
  const ms = months('2025-10-01', usual.length + 1);
  const ids = await history(
    sub,
    ms.map((m, i) => [m, [{ phone: p, fee: i < usual.length ? usual[i] : cost }]]),
  );
  return (await alertsOf(ids.at(-1)!)).filter((a) => a.rule === 'cost_jump');
}

beforeAll(async () => {
  t = await createTestApp();
  ({ clientId: pohjola, subA, subB } = await limitDemoClientUser(t, ['general', 'dashboards', 'alerts']));
  elisa = await operatorIdOf(t, 'Elisa');
  Object.assign(tok, await demoTokens(t, SCOPE_CALLERS));
});

afterAll(async () => {
  await t?.close();
});

describe('cost jump', () => {
  it('is raised for a month of at least 3x the median of the previous six and at least €30 more', async () => {
    const found = await costJumpCase([20, 20, 20, 20, 20, 20], 90);
    expect(found).toHaveLength(1);
    expect(found[0].severity).toBe('high');
    expect(found[0].figures).toMatchObject({ costCents: 9000, usualCents: 2000, months: 6 });
  });

  it('is raised at exactly 3x and exactly €30 more (both edges included)', async () => {
    expect(await costJumpCase([15, 15, 15, 15, 15, 15], 45)).toHaveLength(1);
  });

  it('is not raised a cent below 3x', async () => {
    expect(await costJumpCase([15, 15, 15, 15, 15, 15], 44.99)).toHaveLength(0);
  });

  it('is not raised for a large multiple under €30 more', async () => {
    expect(await costJumpCase([5, 5, 5, 5, 5, 5], 34.99)).toHaveLength(0);
  });

  it('takes the median, so one earlier peak month does not lift the usual', async () => {
    const found = await costJumpCase([20, 20, 300, 20, 20, 20], 90);
    expect(found).toHaveLength(1);
    expect(found[0].figures).toMatchObject({ usualCents: 2000 });
  });

  it('needs three months of history', async () => {
    expect(await costJumpCase([20, 20], 200)).toHaveLength(0);
    expect(await costJumpCase([20, 20, 20], 200)).toHaveLength(1);
  });

  it('follows the client’s own factor and amount, and is off when turned off', async () => {
    const put = (rules: unknown[]) =>
      t.inject({ method: 'PUT', url: '/api/alerts/rules', token: tok.companyAdmin, payload: { rules } });
    let res = await put([{ rule: 'cost_jump', enabled: true, factor: 2, amount: 10 }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rules.find((r: { rule: string }) => r.rule === 'cost_jump')).toMatchObject({
      factor: 2,
      amount: 10,
    });
    expect(await costJumpCase([20, 20, 20, 20, 20, 20], 40)).toHaveLength(1);
    res = await put([{ rule: 'cost_jump', enabled: false }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await costJumpCase([20, 20, 20, 20, 20, 20], 200)).toHaveLength(0);
    res = await put([{ rule: 'cost_jump', enabled: true, factor: 3, amount: 30 }]);
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('roaming', () => {
  const roamingCase = async (lines: TestSub['lines']) => {
    const sub = await account();
    const [id] = await history(sub, [['2025-08-01', [{ phone: phone(), lines }]]]);
    return (await alertsOf(id)).filter((a) => a.rule === 'roaming');
  };
  const fee = { label: 'Test plan', category: 'monthly_fee', amount: 20 };

  it('is raised for roaming of €20.00 in the EU, not for €19.99', async () => {
    const eu = (amount: number) => [
      fee,
      { label: 'Datasiirto EU/ETA', category: 'data', region: 'eu', amount },
    ];
    expect(await roamingCase(eu(19.99))).toHaveLength(0);
    const found = await roamingCase(eu(20));
    expect(found).toHaveLength(1);
    expect(found[0].figures).toMatchObject({ roamingCents: 2000, outsideCents: 0 });
  });

  it('is raised for any roaming cost outside the EU/EEA and the Nordic-Baltic area', async () => {
    const found = await roamingCase([
      fee,
      { label: 'Roaming puhelut muualla', category: 'voice', region: 'world', amount: 0.5 },
    ]);
    expect(found).toHaveLength(1);
    expect(found[0].figures).toMatchObject({ outsideCents: 50 });
  });

  it('leaves calls from Finland abroad and free Nordic roaming alone', async () => {
    expect(
      await roamingCase([
        fee,
        { label: 'Ulkomaanpuhelut', category: 'voice', region: 'world', amount: 50 },
        {
          label: 'Puhelut Pohjoismaissa ja Baltiassa',
          category: 'voice',
          region: 'nordic_baltic',
          amount: 0,
        },
      ]),
    ).toHaveLength(0);
  });
});

describe('service numbers', () => {
  const serviceCase = async (amount: number) => {
    const sub = await account();
    const [id] = await history(sub, [
      [
        '2025-08-01',
        [
          {
            phone: phone(),
            lines: [
              { label: 'Test plan', category: 'monthly_fee', amount: 20 },
              { label: 'Palvelunumerot', category: 'service_number', amount: amount / 2 },
              { label: 'Maksulliset palvelut', category: 'service_number', amount: amount / 2 },
            ],
          },
        ],
      ],
    ]);
    return (await alertsOf(id)).filter((a) => a.rule === 'service_numbers');
  };

  it('is raised from €10.00 of service numbers and paid services together, not at €9.98', async () => {
    expect(await serviceCase(9.98)).toHaveLength(0);
    const found = await serviceCase(10);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      severity: 'medium',
      figures: expect.objectContaining({ serviceCents: 1000 }),
    });
  });
});

describe('service numbers month to month', () => {
  /** One number's service-number charge per month (null: none that month), evaluated in the order given. */
  const monthly = async (charges: Array<[string, number | null]>) => {
    const sub = await account();
    const p = phone();
    await history(
      sub,
      charges.map(([month, amount]) => [
        month,
        [
          {
            phone: p,
            lines: [
              { label: 'Test plan', category: 'monthly_fee', amount: 20 },
              ...(amount == null ? [] : [{ label: 'Palvelunumerot', category: 'service_number', amount }]),
            ],
          },
        ],
      ]),
    );
    const found = await t.deps.database.db
      .select()
      .from(alerts)
      .where(eq(alerts.subCompanyId, sub))
      .orderBy(asc(alerts.month));
    return found.filter((a) => a.rule === 'service_numbers').map((a) => [a.month, a.figures.serviceCents]);
  };

  it('alerts an unchanged monthly charge once, not again every month', async () => {
    expect(
      await monthly([
        ['2025-01-01', 22.24],
        ['2025-02-01', 22.24],
        ['2025-03-01', 22.24],
        ['2025-04-01', 22.24],
      ]),
    ).toEqual([['2025-01-01', 2224]]);
  });

  it('alerts a changed amount, and a charge that comes back after a month without it', async () => {
    expect(
      await monthly([
        ['2025-01-01', 22.24],
        ['2025-02-01', 22.24],
        ['2025-03-01', 30],
        ['2025-04-01', 30],
        ['2025-05-01', null],
        ['2025-06-01', 30],
      ]),
    ).toEqual([
      ['2025-01-01', 2224],
      ['2025-03-01', 3000],
      ['2025-06-01', 3000],
    ]);
  });

  it('alerts an unchanged charge once when its months are evaluated at the same time (the worker and the daily run)', async () => {
    const sub = await account();
    const p = phone();
    const ids: number[] = [];
    for (const month of ['2025-01-01', '2025-02-01', '2025-03-01', '2025-04-01'])
      ids.push(
        await writeTestInvoice(t.deps.database.db, {
          clientId: pohjola,
          operatorId: elisa,
          month,
          subCompanyId: sub,
          subs: [
            {
              subCompanyId: sub,
              phone: p,
              lines: [{ label: 'Palvelunumerot', category: 'service_number', amount: 44.36 }],
            },
          ],
        }),
      );
    // Each evaluation reads the number's earlier alerts: side by side, neither saw the other's.
    await Promise.all(ids.map((id) => evaluateInvoiceAlerts(t.deps.database.db, id)));
    const found = await t.deps.database.db.select().from(alerts).where(eq(alerts.subCompanyId, sub));
    expect(found.filter((a) => a.rule === 'service_numbers')).toHaveLength(1);
  });

  it('alerts an unchanged charge once when a month imported last fills the gap between two alerted ones', async () => {
    expect(
      await monthly([
        ['2025-01-01', 15],
        ['2025-03-01', 15],
        ['2025-02-01', 15],
      ]),
    ).toEqual([['2025-01-01', 1500]]);
  });

  it('alerts an unchanged charge once when its months are imported newest first', async () => {
    expect(
      await monthly([
        ['2025-03-01', 15],
        ['2025-02-01', 15],
        ['2025-01-01', 15],
      ]),
    ).toEqual([['2025-03-01', 1500]]);
  });
});

describe('new and gone subscriptions', () => {
  it('raises nothing on the first invoice of an operator, then each new number once', async () => {
    const sub = await account();
    const [a, b, c] = [phone(), phone(), phone()];
    const ids = await history(sub, [
      ['2025-06-01', [{ phone: a }, { phone: b }]],
      ['2025-07-01', [{ phone: a }, { phone: b }, { phone: c }]],
    ]);
    expect((await alertsOf(ids[0])).filter((x) => x.rule === 'new_subscription')).toHaveLength(0);
    const found = (await alertsOf(ids[1])).filter((x) => x.rule === 'new_subscription');
    expect(found.map((x) => x.figures.phone)).toEqual([c]);
    expect(found[0].severity).toBe('low');
  });

  it('raises "gone" for a number on last month’s invoice and not on this one', async () => {
    const sub = await account();
    const [a, b] = [phone(), phone()];
    const ids = await history(sub, [
      ['2025-06-01', [{ phone: a }, { phone: b, fee: 25 }]],
      ['2025-07-01', [{ phone: a }]],
    ]);
    const gone = (await alertsOf(ids[1])).filter((x) => x.rule === 'subscription_gone');
    expect(gone.map((x) => x.figures.phone)).toEqual([b]);
    expect(gone[0].figures).toMatchObject({ lastCents: 2500 });
    expect(gone[0].month).toBe('2025-07-01');
  });

  it('does not call a number gone that another sub-company’s invoice bills', async () => {
    const [s1, s2] = [await account(), await account()];
    await history(s1, [['2025-06-01', [{ phone: phone() }]]]);
    const ids = await history(s2, [['2025-07-01', [{ phone: phone() }]]]);
    expect((await alertsOf(ids[0])).filter((x) => x.rule === 'subscription_gone')).toHaveLength(0);
  });
});

describe('each alert once', () => {
  it('evaluating again adds nothing; deleting the invoice deletes its alerts, importing it again raises them again', async () => {
    const { db } = t.deps.database;
    const sub = await account();
    const p = phone();
    const subs = (fee: number, roaming: number): TestSub[] => [
      {
        phone: p,
        lines: [
          { label: 'Test plan', category: 'monthly_fee', amount: fee },
          { label: 'Datasiirto muualla', category: 'data', region: 'world', amount: roaming },
        ],
      },
    ];
    const ms = months('2025-05-01', 4);
    const ids = await history(sub, [
      [ms[0], subs(20, 0)],
      [ms[1], subs(20, 0)],
      [ms[2], subs(20, 0)],
    ]);
    // The fourth month: the same fee and 150 of roaming (a cost jump and a roaming alert).
    const fourth = {
      clientId: pohjola,
      operatorId: elisa,
      month: ms[3],
      subCompanyId: sub,
      subs: subs(20, 150).map((s) => ({ ...s, subCompanyId: sub })),
    };
    const last = await writeTestInvoice(db, fourth);
    expect(await evaluateInvoiceAlerts(db, last)).toBe(2); // cost jump + roaming
    expect(await evaluateInvoiceAlerts(db, last)).toBe(0);
    const before = await db.select().from(alerts).where(eq(alerts.subCompanyId, sub));
    expect(before).toHaveLength(2);

    // Deleted (its lines and facts with it): its alerts go with it. Imported again: raised again.
    await db.delete(invoices).where(eq(invoices.id, last));
    expect(await db.select().from(alerts).where(eq(alerts.subCompanyId, sub))).toEqual([]);
    const again = await writeTestInvoice(db, fourth);
    expect(await evaluateInvoiceAlerts(db, again)).toBe(2);
    expect(await evaluateInvoiceAlerts(db, again)).toBe(0);
    const after = await db.select().from(alerts).where(eq(alerts.subCompanyId, sub)).orderBy(asc(alerts.id));
    expect(after.map((a) => [a.rule, a.invoiceId, a.state]).sort()).toEqual(
      before.map((a) => [a.rule, again, 'open']).sort(),
    );
    expect(ids).toHaveLength(3);
  });
});

describe('reading alerts', () => {
  let inA: number;
  let inB: number;

  beforeAll(async () => {
    const { db } = t.deps.database;
    const roaming = (p: string, sub: number): TestSub => ({
      phone: p,
      userName: 'Matti Virtanen',
      subCompanyId: sub,
      lines: [
        { label: 'Test plan', category: 'monthly_fee', amount: 20 },
        { label: 'Datasiirto muualla', category: 'data', region: 'world', amount: 180 },
      ],
    });
    /** An October invoice of sub-company `sub` with one roaming subscription of number `p`. */
    const october = (p: string, sub: number) =>
      writeTestInvoice(db, {
        clientId: pohjola,
        operatorId: elisa,
        month: '2026-10-01',
        subCompanyId: sub,
        subs: [roaming(p, sub)],
      });
    inA = await october('+358401234567', subA);
    inB = await october('+358407654321', subB);
    await evaluateInvoiceAlerts(db, inA);
    await evaluateInvoiceAlerts(db, inB);
  });

  it('gives a client user limited to a sub-company only its alerts, the company admin both', async () => {
    const list = async (token: string) => {
      const res = await t.inject({ method: 'GET', url: '/api/alerts?from=2026-10&to=2026-10', token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items as Array<{ invoiceId: number; subCompanyId: number }>;
    };
    const user = await list(tok.clientUser);
    expect(user.length).toBeGreaterThan(0);
    expect(user.every((a) => a.subCompanyId === subA)).toBe(true);
    const admin = await list(tok.companyAdmin);
    expect(admin.some((a) => a.invoiceId === inB)).toBe(true);
    expect(admin.some((a) => a.invoiceId === inA)).toBe(true);
    expect(await list(tok.otherCompanyAdmin)).toEqual([]);
    // Asking for the other sub-company by id is out of the user's scope: 404.
    const res = await t.inject({
      method: 'GET',
      url: `/api/alerts?subCompanyId=${subB}`,
      token: tok.clientUser,
    });
    expect(res.statusCode).toBe(404);
  });

  it('writes the sentence in the reader’s language', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `/api/alerts?rule=roaming&from=2026-10&to=2026-10&subCompanyId=${subA}`,
      token: tok.companyAdmin,
    });
    const [a] = res.json().items;
    expect(a.text).toBe(
      '+358401234567 (Matti Virtanen): €180.00 roaming in October 2026, €180.00 of it outside the EU/EEA and the Nordic-Baltic area',
    );
    expect(alertText(a.rule, a.figures, a.month, 'fi')).toBe(
      '+358401234567 (Matti Virtanen): verkkovierailua 180,00 € lokakuussa 2026, siitä 180,00 € EU/ETA-alueen sekä Pohjoismaiden ja Baltian ulkopuolella',
    );
  });

  it('acknowledges with a note only what the caller sees, and the bell counts what stays open', async () => {
    const { db } = t.deps.database;
    const ofB = await db.select({ id: alerts.id }).from(alerts).where(eq(alerts.invoiceId, inB));
    const ofA = await db.select({ id: alerts.id }).from(alerts).where(eq(alerts.invoiceId, inA));
    const count = async (token: string) =>
      (await t.inject({ method: 'GET', url: '/api/alerts/count', token })).json() as {
        open: number;
        high: number;
      };
    const before = await count(tok.clientUser);
    expect(before.open).toBeGreaterThanOrEqual(ofA.length);

    const ack = await t.inject({
      method: 'POST',
      url: '/api/alerts/acknowledge',
      token: tok.clientUser,
      payload: { ids: [...ofA, ...ofB].map((a) => a.id), note: 'Trip to Turkey, approved' },
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json().acknowledged).toBe(ofA.length);
    expect((await count(tok.clientUser)).open).toBe(before.open - ofA.length);
    const stillOpen = await db.select({ state: alerts.state }).from(alerts).where(eq(alerts.invoiceId, inB));
    expect(stillOpen.every((a) => a.state === 'open')).toBe(true);

    const res = await t.inject({
      method: 'GET',
      url: `/api/alerts?state=acknowledged&subCompanyId=${subA}`,
      token: tok.companyAdmin,
    });
    const items = res.json().items as Array<{ note: string; acknowledgedBy: string; invoiceId: number }>;
    expect(items.filter((i) => i.invoiceId === inA).every((i) => i.note === 'Trip to Turkey, approved')).toBe(
      true,
    );
    expect(items[0].acknowledgedBy).toBe('Mikko Korhonen');
  });

  it('exports the filtered alerts as an Excel file', async () => {
    const { res } = await getWorkbook(t, '/api/alerts/export?from=2026-10', tok.companyAdmin);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it("exports a subscription's alert as its number, user and the rest of the sentence, with no quote in front of the number (issue 37)", async () => {
    const { wb } = await getWorkbook(t, '/api/alerts/export?from=2026-10', tok.companyAdmin);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(6, 9)).toEqual(['Number', 'User', 'Alert']);
    const rows = [];
    for (let i = 2; i <= ws.rowCount; i++) rows.push(ws.getRow(i).values as unknown[]);
    const withNumber = rows.filter((r) => typeof r[6] === 'string');
    expect(withNumber.length).toBeGreaterThan(0);
    for (const r of withNumber) {
      expect(r[6]).toMatch(/^\+\d+$/);
      expect(String(r[8])).not.toMatch(/^'|^\+\d/);
    }
    // No cell of the sheet starts with a stray quote.
    expect(rows.flat().filter((v) => typeof v === 'string' && v.startsWith("'"))).toEqual([]);
  });

  it('refuses bad filters with 400 and callers without the permission with 403', async () => {
    expect(
      (await t.inject({ method: 'GET', url: '/api/alerts?rule=nope', token: tok.admin })).statusCode,
    ).toBe(400);
    expect(
      (await t.inject({ method: 'GET', url: '/api/alerts?from=2026-13', token: tok.admin })).statusCode,
    ).toBe(400);
    const { db } = t.deps.database;
    await db
      .update(users)
      .set({ permissions: ['general'] })
      .where(eq(users.email, DEMO.clientUser));
    const token = await t.login(DEMO.clientUser);
    expect((await t.inject({ method: 'GET', url: '/api/alerts', token })).statusCode).toBe(403);
    await db
      .update(users)
      .set({ permissions: ['general', 'dashboards', 'alerts'] })
      .where(eq(users.email, DEMO.clientUser));
  });
});

describe('rules', () => {
  it('reads the defaults, lets provider users change a client’s, and not a limited user', async () => {
    let res = await t.inject({ method: 'GET', url: '/api/alerts/rules', token: tok.otherCompanyAdmin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rules).toContainEqual({
      rule: 'cost_jump',
      enabled: true,
      factor: 3,
      amount: 30,
      days: null,
    });
    expect(res.json().rules).toHaveLength(7);
    expect(res.json().editable).toBe(true);

    res = await t.inject({ method: 'GET', url: '/api/alerts/rules', token: tok.admin });
    expect(res.statusCode).toBe(400);
    res = await t.inject({
      method: 'PUT',
      url: '/api/alerts/rules',
      token: tok.admin,
      payload: { clientId: pohjola, rules: [{ rule: 'roaming', enabled: true, amount: 50, factor: 9 }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    // The roaming rule reads no factor: it is not kept.
    expect(res.json().rules).toContainEqual({
      rule: 'roaming',
      enabled: true,
      factor: null,
      amount: 50,
      days: null,
    });

    // A limited user reads the rules (told they may not change them) and cannot change them.
    res = await t.inject({ method: 'GET', url: '/api/alerts/rules', token: tok.clientUser });
    expect(res.json()).toMatchObject({ editable: false });
    res = await t.inject({
      method: 'PUT',
      url: '/api/alerts/rules',
      token: tok.clientUser,
      payload: { rules: [{ rule: 'roaming', enabled: false }] },
    });
    expect(res.statusCode).toBe(403);
    res = await t.inject({
      method: 'PUT',
      url: '/api/alerts/rules',
      token: tok.companyAdmin,
      payload: { rules: [{ rule: 'cost_jump', enabled: true, factor: 0.5 }] },
    });
    expect(res.statusCode).toBe(400);
    // A company admin naming another client still changes only their own.
    res = await t.inject({
      method: 'GET',
      url: `/api/alerts/rules?clientId=${pohjola}`,
      token: tok.otherCompanyAdmin,
    });
    expect(res.json().clientId).not.toBe(pohjola);
    await t.inject({
      method: 'PUT',
      url: '/api/alerts/rules',
      token: tok.admin,
      payload: { clientId: pohjola, rules: [{ rule: 'roaming', enabled: true, amount: 20 }] },
    });
  });
});

describe('an alert belongs to its invoice', () => {
  /** An invoice of a sub-company of its own with `n` roaming subscriptions, evaluated: its alerts. */
  async function roamingInvoice(n: number, month = '2025-03-01') {
    const { db } = t.deps.database;
    const sub = await account();
    const id = await writeTestInvoice(db, {
      clientId: pohjola,
      operatorId: elisa,
      month,
      subCompanyId: sub,
      subs: Array.from({ length: n }, () => ({
        phone: phone(),
        subCompanyId: sub,
        lines: [
          { label: 'Test plan', category: 'monthly_fee', amount: 20 },
          { label: 'Datasiirto muualla', category: 'data', region: 'world', amount: 30 },
        ],
      })),
    });
    expect(await evaluateInvoiceAlerts(db, id)).toBe(n);
    return { id, sub };
  }
  const bell = async (token: string) =>
    ((await t.inject({ method: 'GET', url: '/api/alerts/count', token })).json() as { open: number }).open;
  const acknowledge = (token: string, payload: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: '/api/alerts/acknowledge', token, payload });

  it('deletes an invoice’s alerts with it through the API, and the bell stops counting them', async () => {
    const { db } = t.deps.database;
    const { id } = await roamingInvoice(32);
    const before = await bell(tok.companyAdmin);
    const res = await t.inject({ method: 'DELETE', url: `/api/invoices/${id}`, token: tok.companyAdmin });
    expect(res.statusCode, res.body).toBe(200);
    expect(await db.select().from(alerts).where(eq(alerts.invoiceId, id))).toEqual([]);
    expect(await bell(tok.companyAdmin)).toBe(before - 32);
  });

  it('acknowledges hundreds of alerts by id at once', async () => {
    const { id } = await roamingInvoice(600);
    const ids = (
      await t.deps.database.db.select({ id: alerts.id }).from(alerts).where(eq(alerts.invoiceId, id))
    ).map((a) => a.id);
    const before = await bell(tok.companyAdmin);
    const res = await acknowledge(tok.companyAdmin, { ids, note: 'All checked' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ acknowledged: 600 });
    expect(await bell(tok.companyAdmin)).toBe(before - 600);
  });

  it('acknowledges every open alert matching the filters, and only those the caller sees', async () => {
    const { db } = t.deps.database;
    const { sub } = await roamingInvoice(250, '2025-02-01');
    const other = await roamingInvoice(3, '2025-02-01');
    const res = await acknowledge(tok.companyAdmin, {
      matching: { subCompanyId: sub, rule: 'roaming', from: '2025-02', to: '2025-02' },
      note: 'Trip approved',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ acknowledged: 250 });
    const states = async (s: number) =>
      (await db.select({ state: alerts.state }).from(alerts).where(eq(alerts.subCompanyId, s))).map(
        (a) => a.state,
      );
    expect(new Set(await states(sub))).toEqual(new Set(['acknowledged']));
    expect(await states(other.sub)).toEqual(['open', 'open', 'open']);
    // Another company's admin matching this client's sub-company: 404, nothing changes.
    const foreign = await acknowledge(tok.otherCompanyAdmin, { matching: { subCompanyId: other.sub } });
    expect(foreign.statusCode).toBe(404);
    // The same for all it sees: none of these is theirs.
    expect((await acknowledge(tok.otherCompanyAdmin, { matching: {} })).statusCode).toBe(200);
    expect(await states(other.sub)).toEqual(['open', 'open', 'open']);
  });

  it('refuses an acknowledgement naming both ids and filters, or neither, with a clear message', async () => {
    for (const payload of [{ note: 'x' }, { ids: [1], matching: {} }]) {
      const res = await acknowledge(tok.companyAdmin, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'alertsAcknowledgeWhich',
        message: 'Name the alerts to acknowledge: their ids, or all matching the filters (not both)',
      });
    }
    const tooMany = await acknowledge(tok.companyAdmin, {
      ids: Array.from({ length: 10_001 }, (_, i) => i + 1),
    });
    expect(tooMany.statusCode).toBe(400);
  });
});
