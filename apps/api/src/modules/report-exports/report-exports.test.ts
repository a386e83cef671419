import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { reportExportParts, reportExports, users } from '../../db/schema/index.js';
import { createTestApp, DEMO, demoTokens, mailText, type TestApp } from '../../test/helpers.js';
import { SCOPE_CALLERS } from '../../test/fixtures.js';
import { uploadMonths } from '../../test/uploads.js';
import { buildExport, removeExpiredExports, requeueScheduledExports } from './report-exports.service.js';
import { getWorkbook } from '../../test/workbook.js';

let t: TestApp;
const tok: Record<string, string> = {};
let pohjola: number;
let anna: number;
const MONTHS = ['2021-01', '2021-02'];

beforeAll(async () => {
  // A large export (here: 5 rows or more) mails its requester.
  t = await createTestApp({ EXPORT_MAIL_MIN_ROWS: '5', EXPORT_RETENTION_DAYS: '7' }, { jobs: true });
  const { db } = t.deps.database;
  const [u] = await db
    .select({ id: users.id, clientId: users.clientId })
    .from(users)
    .where(eq(users.email, DEMO.companyAdmin));
  pohjola = u!.clientId!;
  anna = u!.id;
  Object.assign(tok, await demoTokens(t, SCOPE_CALLERS));
  await uploadMonths(t, tok.companyAdmin!, {
    operator: 'elisa',
    subscriptions: 3,
    seed: 900,
    months: MONTHS,
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const schedule = (payload: object, token = tok.companyAdmin!) =>
  t.inject({ method: 'POST', url: '/api/report-exports', token, payload });

/** Polls the caller's list until the export leaves Scheduled. */
async function finished(id: number, token = tok.companyAdmin!) {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await t.inject({ method: 'GET', url: '/api/report-exports?pageSize=200', token });
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().items.find((i: { id: number }) => i.id === id);
    if (row && row.status !== 'scheduled') return row;
    if (Date.now() > until) throw new Error(`export ${id} still scheduled`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A scheduled export of the company admin over 2021-01…2021-02, written directly (no job queued). */
async function scheduledExport(kind: (typeof reportExports.$inferInsert)['kind'], lang: 'en' | 'fi') {
  const [row] = await t.deps.database.db
    .insert(reportExports)
    .values({ userId: anna, clientId: pohjola, kind, fromMonth: '2021-01', toMonth: '2021-02', lang })
    .returning();
  return row!;
}

async function workbook(id: number, token = tok.companyAdmin!) {
  return (await getWorkbook(t, `/api/report-exports/${id}/file`, token)).wb;
}

/** The invoice lines themselves per subscription and month (phone, month → euros). */
async function linesBySubscription() {
  const { rows } = (await t.deps.database.db.execute(sql`
    select s.phone_number as phone, to_char(i.period_start, 'YYYY-MM') as month, sum(l.amount)::text as cost
    from invoice_lines l join invoices i on i.id = l.invoice_id join subscriptions s on s.id = l.subscription_id
    where i.client_id = ${pohjola} and i.period_start between '2021-01-01' and '2021-02-01'
    group by 1, 2`)) as unknown as { rows: Array<{ phone: string; month: string; cost: string }> };
  return new Map(rows.map((r) => [`${r.phone} ${r.month}`, Number(r.cost)]));
}

describe('report archive: scheduled Excel exports', () => {
  it('a company admin schedules all costs and usage; it turns Ready and the workbook holds the invoice lines', async () => {
    const res = await schedule({ kind: 'costs-usage', from: '2021-01', to: '2021-02' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      kind: 'costs-usage',
      status: 'scheduled',
      clientId: pohjola,
      from: '2021-01',
    });
    const row = await finished(res.json().id);
    expect(row).toMatchObject({ status: 'ready', error: null });
    expect(row.readyAt).toBeTruthy();
    // Kept for EXPORT_RETENTION_DAYS (7) days from when it was made.
    expect(Date.parse(row.expiresAt) - Date.parse(row.readyAt)).toBe(7 * 86_400_000);

    const wb = await workbook(row.id);
    const subs = wb.getWorksheet('Subscriptions by month')!;
    expect(subs.getRow(1).getCell(10).value).toBe('Total (€)');
    expect(subs.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const lines = await linesBySubscription();
    expect(subs.rowCount - 1).toBe(lines.size);
    expect(row.rows).toBeGreaterThanOrEqual(lines.size);
    for (let r = 2; r <= subs.rowCount; r++) {
      const x = subs.getRow(r);
      const key = `${x.getCell(2).value} ${x.getCell(1).value}`;
      expect(x.getCell(10).value, key).toBeCloseTo(lines.get(key)!, 2);
      // fees + usage + other = total
      expect(
        Number(x.getCell(7).value) + Number(x.getCell(8).value) + Number(x.getCell(9).value),
      ).toBeCloseTo(Number(x.getCell(10).value), 2);
      expect(x.getCell(10).numFmt).toBe('#,##0.00 "€"');
      // SMS / MMS counted in whole numbers, never shown as 12.00.
      expect(x.getCell(12).numFmt, key).toBe('0');
      expect(Number.isInteger(x.getCell(12).value), key).toBe(true);
    }
    expect(subs.getRow(1).getCell(12).value).toBe('SMS / MMS');
    // The cost category sheet adds up to every line of the invoices (also the invoice-level ones).
    const cats = wb.getWorksheet('Cost categories')!;
    let sum = 0;
    for (let r = 2; r <= cats.rowCount; r++) {
      sum += Number(cats.getRow(r).getCell(4).value);
      expect(cats.getRow(r).getCell(6).numFmt).toBe('0');
    }
    // The usage type is named in the requester's language, never as its code (`sms`, `monthly_fee`).
    const types = new Set<unknown>();
    for (let r = 2; r <= cats.rowCount; r++) types.add(cats.getRow(r).getCell(3).value);
    expect(types).toContain('Monthly fee');
    for (const code of ['monthly_fee', 'voice', 'sms', 'data']) expect(types).not.toContain(code);
    const { rows: all } = (await t.deps.database.db.execute(sql`
      select sum(l.amount)::text as cost from invoice_lines l join invoices i on i.id = l.invoice_id
      where i.client_id = ${pohjola} and i.period_start between '2021-01-01' and '2021-02-01'`)) as unknown as {
      rows: Array<{ cost: string }>;
    };
    expect(sum).toBeCloseTo(Number(all[0]!.cost), 2);

    // A large export mails its requester (EXPORT_MAIL_MIN_ROWS = 5 here).
    await vi.waitFor(
      () => {
        const mail = t.mails.find(
          (m) => m.to.includes(DEMO.companyAdmin) && /is ready|on valmis/.test(mailText(m)),
        );
        expect(mail).toBeTruthy();
        expect(mailText(mail!)).toContain('/#/company/report/downloads');
      },
      { timeout: 15_000 },
    );
  });

  it('top users in the archive are the Top Users report, cell by cell, in the requester’s language', async () => {
    const res = await schedule({ kind: 'top-users', from: '2021-01', to: '2021-02' });
    const row = await finished(res.json().id);
    expect(row.status).toBe('ready');
    const report = (
      await t.inject({
        method: 'GET',
        url: '/api/reports/top-users?from=2021-01&to=2021-02&pageSize=200',
        token: tok.companyAdmin,
      })
    ).json();
    const ws = (await workbook(row.id)).worksheets[0]!;
    // The ranked subscriptions, then the invoice-level charges, as the report's own export.
    expect(ws.rowCount - 2).toBe(report.total);
    expect(ws.getRow(ws.rowCount).getCell(6).value).toBe(Number(report.totals.invoiceLevelCost));
    report.items.forEach((item: { rank: number; phoneNumber: string; cost: string }, n: number) => {
      const x = ws.getRow(n + 2);
      expect(x.getCell(1).value).toBe(item.rank);
      expect(x.getCell(3).value).toBe(item.phoneNumber);
      expect(x.getCell(6).value).toBe(Number(item.cost));
    });
  });

  it('optimized, un-optimized and no-usage users come as three sheets; plan types as one', async () => {
    const opt = await finished((await schedule({ kind: 'optimization-users' })).json().id);
    expect(opt.status).toBe('ready');
    expect((await workbook(opt.id)).worksheets.map((w) => w.name)).toEqual([
      'Optimized',
      'Un-optimized',
      'No usage',
    ]);
    const plan = await finished(
      (await schedule({ kind: 'plan-types', from: '2021-01', to: '2021-02' })).json().id,
    );
    expect(plan.status).toBe('ready');
    const ws = (await workbook(plan.id)).worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('Base plan group');
  });

  it('refuses what it cannot schedule with a clear message: the coming-soon report, a bad kind, a bad period, another client', async () => {
    for (const body of [
      { kind: 'executive' },
      { kind: 'everything' },
      { kind: 'top-users', from: '2021-03', to: '2021-01' },
      { kind: 'top-users', extra: 1 },
    ]) {
      const res = await schedule(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    const [{ clientId: other }] = (await t.deps.database.db
      .select({ clientId: users.clientId })
      .from(users)
      .where(eq(users.email, DEMO.otherCompanyAdmin))) as [{ clientId: number }];
    expect((await schedule({ kind: 'top-users', clientId: other })).statusCode).toBe(404);
    // A provider admin names the client.
    const admin = await schedule({ kind: 'plan-types' }, tok.admin);
    expect(admin.statusCode).toBe(400);
    expect(admin.json().fields).toMatchObject({ clientId: 'required' });
  });

  it('each user sees, downloads and deletes only their own exports; a user without Downloads gets 403', async () => {
    const mine = (await schedule({ kind: 'plan-types', from: '2021-01', to: '2021-02' })).json();
    await finished(mine.id);
    const other = tok.otherCompanyAdmin!;
    const list = (await t.inject({ method: 'GET', url: '/api/report-exports', token: other })).json();
    expect(list.items.map((i: { id: number }) => i.id)).not.toContain(mine.id);
    expect(
      (await t.inject({ method: 'GET', url: `/api/report-exports/${mine.id}/file`, token: other }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.inject({ method: 'DELETE', url: `/api/report-exports/${mine.id}`, token: other })).statusCode,
    ).toBe(404);
    // The demo client user holds no Downloads permission.
    expect(
      (await t.inject({ method: 'GET', url: '/api/report-exports', token: tok.clientUser })).statusCode,
    ).toBe(403);
    expect((await schedule({ kind: 'plan-types' }, tok.clientUser)).statusCode).toBe(403);

    const del = await t.inject({
      method: 'DELETE',
      url: `/api/report-exports/${mine.id}`,
      token: tok.companyAdmin,
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ code: 'exportDeleted' });
    const parts = await t.deps.database.db
      .select()
      .from(reportExportParts)
      .where(eq(reportExportParts.exportId, mine.id));
    expect(parts).toEqual([]);
  });

  it('a file made of many parts downloads whole', async () => {
    const row = await scheduledExport('costs-usage', 'fi');
    await buildExport(t.deps, row.id, 1024);
    const parts = await t.deps.database.db
      .select({ seq: reportExportParts.seq })
      .from(reportExportParts)
      .where(eq(reportExportParts.exportId, row.id));
    expect(parts.length).toBeGreaterThan(3);
    const wb = await workbook(row.id);
    // Made in the requester's language as asked (Finnish here).
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Liittymät kuukausittain', 'Kustannuslajit']);
    expect(wb.worksheets[0]!.rowCount - 1).toBe((await linesBySubscription()).size);
  });

  it('an export that cannot be made turns Failed with "try again later"; a file not ready answers 409', async () => {
    const { db } = t.deps.database;
    const row = await scheduledExport('top-users', 'en');
    expect(
      (await t.inject({ method: 'GET', url: `/api/report-exports/${row.id}/file`, token: tok.companyAdmin }))
        .statusCode,
    ).toBe(409);
    // The requester lost the report's permission before the job ran: no data leaves, the export fails.
    const [before] = await db
      .select({ permissions: users.permissions, roleId: users.roleId })
      .from(users)
      .where(eq(users.id, anna));
    await db.update(users).set({ status: 'inactive' }).where(eq(users.id, anna));
    try {
      await buildExport(t.deps, row.id);
    } finally {
      await db.update(users).set({ status: 'active' }).where(eq(users.id, anna));
    }
    expect(before).toBeTruthy();
    const failed = await finished(row.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'The Excel export failed, please try again later',
    });
    const [stored] = await db.select().from(reportExports).where(eq(reportExports.id, row.id));
    expect(stored!.params).toMatchObject({ detail: expect.stringContaining('forbidden') });
    // A second run of the same job does nothing (the export is no longer scheduled).
    await buildExport(t.deps, row.id);
    expect((await finished(row.id)).status).toBe('failed');
  });

  it('when the job cannot be queued the request answers 503 "try again later" and the row is Failed', async () => {
    const send = vi.spyOn(t.deps.jobs, 'send').mockRejectedValueOnce(new Error('queue down'));
    try {
      const res = await schedule({ kind: 'plan-types', from: '2021-01', to: '2021-02' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'exportScheduleFailed',
        message: 'The Excel export could not be scheduled, please try again later',
      });
    } finally {
      send.mockRestore();
    }
    const failed = await t.deps.database.db
      .select()
      .from(reportExports)
      .where(and(eq(reportExports.userId, anna), eq(reportExports.errorCode, 'exportScheduleFailed')));
    expect(failed).toHaveLength(1);
  });

  it('a scheduled export whose job was lost is queued again on start, and is made', async () => {
    const row = await scheduledExport('plan-types', 'en');
    expect(await requeueScheduledExports(t.deps)).toBe(1);
    expect((await finished(row.id)).status).toBe('ready');
  });

  it('exports past their keeping time are removed with their files', async () => {
    const { db } = t.deps.database;
    const before = await db.select({ id: reportExports.id }).from(reportExports);
    expect(before.length).toBeGreaterThan(0);
    expect(await removeExpiredExports(t.deps)).toBe(0);
    t.advanceClock(8 * 86_400_000);
    try {
      expect(await removeExpiredExports(t.deps)).toBe(before.length);
    } finally {
      t.advanceClock(-8 * 86_400_000);
    }
    expect(await db.select().from(reportExportParts)).toEqual([]);
    const list = (
      await t.inject({ method: 'GET', url: '/api/report-exports', token: tok.companyAdmin })
    ).json();
    expect(list).toMatchObject({ items: [], total: 0, retentionDays: 7 });
  });
});
