import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { invoiceFetchRuns, invoices, portalCredentials } from '../../db/schema/index.js';
import { BUYER, clientIdOf, createTestApp, DEMO, operatorIdOf, type TestApp } from '../../test/helpers.js';
import {
  generatePortalInvoices,
  startSimulatedPortal,
  type SimulatedPortal,
} from '../../demo/simulated-portal.js';

let t: TestApp;
let portal: SimulatedPortal;
const tok: Record<string, string> = {};
let clientId: number;
let elisaId: number;
const MONTHS = ['2026-09', '2026-10', '2026-07'];
const PASSWORD = 'Portaali-salasana-1!';

beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
  portal = await startSimulatedPortal([
    {
      username: 'pohjola-elisa',
      password: PASSWORD,
      invoices: await generatePortalInvoices('Elisa', MONTHS, {
        seed: 77,
        subscriptions: 4,
        buyer: BUYER.pohjola,
        // The second month arrives as a Finvoice e-invoice, as operators send business customers, the
        // third as a Peppol BIS Billing 3.0 e-invoice.
        format: (month) => (month === MONTHS[1] ? 'finvoice' : month === MONTHS[2] ? 'peppol' : 'pdf'),
      }),
    },
  ]);
  tok.admin = await t.login(DEMO.admin);
  tok.companyAdmin = await t.login(DEMO.companyAdmin);
  clientId = await clientIdOf(t, DEMO.companyAdmin);
  elisaId = await operatorIdOf(t, 'Elisa');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await portal?.close();
});

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, token = tok.admin) =>
  t.inject({ method, url, payload, token });

/** Waits for the next finished run of the month (more runs than `seen`). */
async function nextRun(month: string, seen: number, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const runs = await t.deps.database.db
      .select()
      .from(invoiceFetchRuns)
      .where(and(eq(invoiceFetchRuns.clientId, clientId), eq(invoiceFetchRuns.month, `${month}-01`)));
    const latest = runs.sort((a, b) => b.id - a.id)[0];
    if (runs.length > seen && latest.status !== 'running') return { latest, runs };
    if (Date.now() > end) throw new Error('no finished run');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function allSettled(timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const rows = await t.deps.database.db
      .select({ state: invoices.uploadState })
      .from(invoices)
      .where(eq(invoices.clientId, clientId));
    if (rows.every((r) => r.state !== 'in_progress')) return rows;
    if (Date.now() > end) throw new Error('invoices still parsing');
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('automated invoice retrieval (simulated operator portal)', () => {
  it('refuses automation without portal credentials', async () => {
    const res = await api('PUT', `/api/automation/clients/${clientId}/method`, {
      invoiceUploadMethod: 'automation',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('portalCredentialsRequired');
  });

  it('stores portal credentials encrypted and never returns the password', async () => {
    const res = await api('PUT', `/api/automation/clients/${clientId}/credentials`, {
      operatorId: elisaId,
      portalUrl: portal.url,
      username: 'pohjola-elisa',
      password: 'wrong-password',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('wrong-password');
    expect(res.json()).toEqual([
      expect.objectContaining({ operatorName: 'Elisa', username: 'pohjola-elisa', hasPassword: true }),
    ]);
    const [row] = await t.deps.database.db
      .select()
      .from(portalCredentials)
      .where(eq(portalCredentials.clientId, clientId));
    expect(row.passwordSealed).not.toContain('wrong-password');
    expect(row.passwordSealed.split('.')).toHaveLength(3);
    const list = await api('GET', `/api/automation/clients/${clientId}/credentials`);
    expect(list.body).not.toMatch(/password"|wrong-password|Sealed/);
    const method = await api('PUT', `/api/automation/clients/${clientId}/method`, {
      invoiceUploadMethod: 'automation',
    });
    expect(method.statusCode).toBe(200);
  });

  it('reports a failed download (refused sign-in) and retries it after the password is fixed', async () => {
    const run = await api('POST', `/api/automation/clients/${clientId}/run`, { month: MONTHS[0] });
    expect(run.statusCode).toBe(200);
    const { latest } = await nextRun(MONTHS[0], 0);
    expect(latest).toMatchObject({ status: 'failed', downloaded: 0 });
    expect(latest.reason).toMatch(/refused the sign-in/);

    const report = await api('GET', '/api/automation/failed-downloads');
    expect(report.statusCode).toBe(200);
    const item = report.json().items.find((i: { month: string }) => i.month === MONTHS[0]);
    expect(item).toMatchObject({
      clientName: 'Pohjola Rakennus Oy',
      operatorName: 'Elisa',
      status: 'failed',
    });

    await api('PUT', `/api/automation/clients/${clientId}/credentials`, {
      operatorId: elisaId,
      portalUrl: portal.url,
      username: 'pohjola-elisa',
      password: PASSWORD,
    });
    const retry = await api('POST', `/api/automation/failed-downloads/${item.id}/retry`);
    expect(retry.statusCode).toBe(200);
    const after = await nextRun(MONTHS[0], 1);
    expect(after.latest).toMatchObject({ status: 'succeeded', downloaded: 1 });
    const states = await allSettled();
    expect(states.map((s) => s.state)).toEqual(['uploaded']);
    const again = await api('GET', '/api/automation/failed-downloads');
    expect(again.json().items.find((i: { month: string }) => i.month === MONTHS[0])).toBeUndefined();
    expect(portal.log).toContain('POST /api/login');
  }, 60_000);

  it('does not import the same portal invoice twice', async () => {
    await api('POST', `/api/automation/clients/${clientId}/run`, { month: MONTHS[0] });
    const { latest, runs } = await nextRun(MONTHS[0], 2);
    expect(runs).toHaveLength(3);
    expect(latest).toMatchObject({ status: 'succeeded', downloaded: 0 });
    const rows = await t.deps.database.db.select().from(invoices).where(eq(invoices.clientId, clientId));
    expect(rows).toHaveLength(1);
    expect(rows[0].source).toBe('automation');
  }, 60_000);

  for (const [i, format, name] of [
    [1, 'finvoice', 'Finvoice'],
    [2, 'peppol', 'Peppol BIS Billing 3.0'],
  ] as const) {
    it(`fetches a month the portal offers as a ${name} e-invoice and imports it as one`, async () => {
      await api('POST', `/api/automation/clients/${clientId}/run`, { month: MONTHS[i] });
      const { latest } = await nextRun(MONTHS[i], 0);
      expect(latest).toMatchObject({ status: 'succeeded', downloaded: 1 });
      expect(portal.log).toContain(`GET /api/invoices/${portal.accounts[0].invoices[i].id}/${format}`);
      await allSettled();
      const rows = await t.deps.database.db.select().from(invoices).where(eq(invoices.clientId, clientId));
      // the months fetched so far: the PDF, then each e-invoice, imported in the format it came in
      expect(rows.map((r) => [r.uploadState, r.format, r.source]).sort()).toEqual(
        ['pdf', 'finvoice', 'peppol']
          .slice(0, i + 1)
          .map((f) => ['uploaded', f, 'automation'])
          .sort(),
      );
    }, 60_000);
  }

  it('shows the client in the Full Automation report with its last run', async () => {
    const res = await api('GET', '/api/automation/full-automation');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({ clientId, operators: ['Elisa'], lastResult: 'succeeded' }),
    ]);
  });

  it('is provider-only', async () => {
    const res = await api('GET', '/api/automation/full-automation', undefined, tok.companyAdmin);
    expect(res.statusCode).toBe(403);
  });
});
