import { and, count, desc, eq, sql } from 'drizzle-orm';
import {
  helsinkiMonth,
  type FetchRun,
  type FullAutomationRow,
  type PortalCredentialsInput,
  type PortalCredentialsView,
} from '@kulu/shared';
import { clients, invoiceFetchRuns, operators, portalCredentials } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { notFound, AppError } from '../../lib/errors.js';
import { checkOutboundUrl, OutboundUrlError } from '../../lib/outbound-url.js';
import { decrypt, encrypt } from '../../lib/secrets.js';
import { QUEUE } from '../../lib/queue.js';
import { uploadInvoices } from '../invoices/invoices.service.js';
import type { Scope } from '../../lib/scope.js';
import type { Deps } from '../../types.js';
import { connectorFor, PortalError } from './connectors.js';
import { isoTimeOrNull as iso } from '../../lib/db-values.js';

export interface FetchInvoicesJob {
  clientId: number;
  operatorId: number;
  /** yyyy-mm */
  month: string;
}

// Every `:clientId` of these URLs is checked by the access plugin before a handler runs (the
// routes declare `config.client`: unknown or out of the caller's Scope → 404, plugins/access.ts).

export async function listCredentials(db: Db, clientId: number): Promise<PortalCredentialsView[]> {
  const rows = await db
    .select({
      id: portalCredentials.id,
      clientId: portalCredentials.clientId,
      operatorId: portalCredentials.operatorId,
      operatorName: operators.name,
      portalUrl: portalCredentials.portalUrl,
      username: portalCredentials.username,
      updatedAt: portalCredentials.updatedAt,
    })
    .from(portalCredentials)
    .innerJoin(operators, eq(operators.id, portalCredentials.operatorId))
    .where(eq(portalCredentials.clientId, clientId))
    .orderBy(operators.name);
  return rows.map((r) => ({ ...r, hasPassword: true as const, updatedAt: iso(r.updatedAt)! }));
}

/** Stores (or replaces) a client's portal sign-in for one operator; the password sealed with AES-256-GCM. */
export async function saveCredentials(
  deps: Deps,
  clientId: number,
  input: PortalCredentialsInput,
): Promise<PortalCredentialsView[]> {
  const { db } = deps.database;
  const [op] = await db
    .select({ id: operators.id })
    .from(operators)
    .where(eq(operators.id, input.operatorId));
  if (!op) throw new AppError(400, 'validation', { operatorId: 'invalid' });
  try {
    await checkOutboundUrl(input.portalUrl);
  } catch (e) {
    if (!(e instanceof OutboundUrlError)) throw e;
    throw new AppError(400, 'portalUrlNotAllowed', { portalUrl: 'invalid' });
  }
  const sealed = encrypt(deps.encryptionKey, input.password);
  const now = deps.now();
  await db
    .insert(portalCredentials)
    .values({
      clientId,
      operatorId: op.id,
      portalUrl: input.portalUrl,
      username: input.username,
      passwordSealed: sealed,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [portalCredentials.clientId, portalCredentials.operatorId],
      set: { portalUrl: input.portalUrl, username: input.username, passwordSealed: sealed, updatedAt: now },
    });
  return listCredentials(db, clientId);
}

export async function deleteCredentials(db: Db, clientId: number, operatorId: number) {
  const gone = await db
    .delete(portalCredentials)
    .where(and(eq(portalCredentials.clientId, clientId), eq(portalCredentials.operatorId, operatorId)))
    .returning({ id: portalCredentials.id });
  if (!gone.length) throw notFound();
}

/**
 * fetch-invoices: signs in to the client's operator portal through the operator's connector,
 * lists the month's invoices and sends each PDF down the upload path (stored, parse job). Already
 * imported PDFs are skipped by content. One run row records the result for the reports.
 */
export async function runFetch(deps: Deps, job: FetchInvoicesJob): Promise<FetchRun['status']> {
  const { db } = deps.database;
  const [cred] = await db
    .select({ cred: portalCredentials, operatorName: operators.name, method: clients.invoiceUploadMethod })
    .from(portalCredentials)
    .innerJoin(operators, eq(operators.id, portalCredentials.operatorId))
    .innerJoin(clients, eq(clients.id, portalCredentials.clientId))
    .where(
      and(eq(portalCredentials.clientId, job.clientId), eq(portalCredentials.operatorId, job.operatorId)),
    );
  const [run] = await db
    .insert(invoiceFetchRuns)
    .values({
      clientId: job.clientId,
      operatorId: job.operatorId,
      month: `${job.month}-01`,
      status: 'running',
      startedAt: deps.now(),
    })
    .returning({ id: invoiceFetchRuns.id });
  const finish = (status: 'succeeded' | 'failed', downloaded: number, reason: string | null) =>
    db
      .update(invoiceFetchRuns)
      .set({ status, downloaded, reason: reason?.slice(0, 1000) ?? null, finishedAt: deps.now() })
      .where(eq(invoiceFetchRuns.id, run.id));
  if (!cred) {
    await finish('failed', 0, 'no operator portal credentials for this operator');
    return 'failed';
  }
  const connector = connectorFor(cred.operatorName);
  if (!connector) {
    await finish('failed', 0, `no portal connector for ${cred.operatorName}`);
    return 'failed';
  }
  let downloaded = 0;
  try {
    const password = decrypt(deps.encryptionKey, cred.cred.passwordSealed);
    const session = await connector.login(cred.cred.portalUrl, cred.cred.username, password);
    const refs = await connector.listInvoices(cred.cred.portalUrl, session, job.month);
    const problems: string[] = [];
    for (const ref of refs) {
      if (!connector.formats.includes(ref.format)) {
        problems.push(`${ref.invoiceNumber}: offered as ${ref.format}, which this connector cannot download`);
        continue;
      }
      const data = await connector.download(cred.cred.portalUrl, session, ref);
      const [result] = await uploadInvoices(
        deps,
        { clientId: job.clientId, subCompanyId: null },
        [{ fileName: ref.fileName, data }],
        { userId: null, lang: 'en', source: 'automation' },
      );
      if (result.status === 'accepted') downloaded++;
      else if (result.code !== 'invoiceAlreadyParsed')
        problems.push(`${ref.invoiceNumber}: ${result.message}`);
    }
    if (problems.length) {
      await finish('failed', downloaded, problems.join('; '));
      return 'failed';
    }
    await finish('succeeded', downloaded, refs.length ? null : 'no invoices for the month on the portal');
    return 'succeeded';
  } catch (e) {
    const reason = e instanceof PortalError ? e.message : `unexpected error: ${(e as Error).message}`;
    await finish('failed', downloaded, reason);
    return 'failed';
  }
}

/** The billing month to fetch on a monthly run: the current month (invoices arrive early in it). */
export const monthOf = (d: Date) => helsinkiMonth(d);

/** automation-monthly: one fetch-invoices job per client on automated upload and operator with credentials. */
export async function enqueueMonthlyFetches(deps: Deps, month = monthOf(deps.now())): Promise<number> {
  const rows = await deps.database.db
    .select({ clientId: portalCredentials.clientId, operatorId: portalCredentials.operatorId })
    .from(portalCredentials)
    .innerJoin(clients, eq(clients.id, portalCredentials.clientId))
    .where(and(eq(clients.invoiceUploadMethod, 'automation'), eq(clients.profileStatus, 'active')));
  for (const r of rows) {
    await deps.jobs.send(QUEUE.fetchInvoices, { ...r, month } satisfies FetchInvoicesJob, {
      singletonKey: `fetch:${r.clientId}:${r.operatorId}:${month}`,
    });
  }
  return rows.length;
}

/** Manual or automated upload; automation needs portal credentials (spec §5). */
export async function setUploadMethod(db: Db, clientId: number, method: 'manual' | 'automation') {
  if (method === 'automation') {
    const [{ n }] = await db
      .select({ n: count() })
      .from(portalCredentials)
      .where(eq(portalCredentials.clientId, clientId));
    if (!n) throw new AppError(409, 'portalCredentialsRequired');
  }
  await db.update(clients).set({ invoiceUploadMethod: method }).where(eq(clients.id, clientId));
}

export async function enqueueClientFetch(deps: Deps, clientId: number, month: string): Promise<number> {
  const { db } = deps.database;
  const rows = await db
    .select({ operatorId: portalCredentials.operatorId })
    .from(portalCredentials)
    .where(eq(portalCredentials.clientId, clientId));
  if (!rows.length) throw new AppError(409, 'portalCredentialsRequired');
  for (const r of rows) {
    await deps.jobs.send(QUEUE.fetchInvoices, { clientId, operatorId: r.operatorId, month });
  }
  return rows.length;
}

const runSelection = {
  id: invoiceFetchRuns.id,
  clientId: invoiceFetchRuns.clientId,
  clientName: clients.companyName,
  operatorId: invoiceFetchRuns.operatorId,
  operatorName: operators.name,
  month: invoiceFetchRuns.month,
  status: invoiceFetchRuns.status,
  downloaded: invoiceFetchRuns.downloaded,
  reason: invoiceFetchRuns.reason,
  startedAt: invoiceFetchRuns.startedAt,
  finishedAt: invoiceFetchRuns.finishedAt,
};

const toRun = (r: {
  id: number;
  clientId: number;
  clientName: string;
  operatorId: number;
  operatorName: string;
  month: string;
  status: FetchRun['status'];
  downloaded: number;
  reason: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}): FetchRun => ({
  ...r,
  month: r.month.slice(0, 7),
  startedAt: iso(r.startedAt)!,
  finishedAt: iso(r.finishedAt),
});

/**
 * Failed Invoice Download report: the latest run of each client × operator × month that failed
 * (a later successful run of the same month clears it).
 */
export async function failedDownloads(db: Db, scope: Scope, page: number, pageSize: number) {
  // The outer table is named explicitly (drizzle renders bare column names in this subquery).
  const latest = sql`"invoice_fetch_runs"."id" = (select max(r.id) from invoice_fetch_runs r
      where r.client_id = "invoice_fetch_runs"."client_id" and r.operator_id = "invoice_fetch_runs"."operator_id"
        and r.month = "invoice_fetch_runs"."month")`;
  const where = and(
    eq(invoiceFetchRuns.status, 'failed'),
    latest,
    scope.where({ clientId: invoiceFetchRuns.clientId }),
  );
  const [{ n }] = await db.select({ n: count() }).from(invoiceFetchRuns).where(where);
  const rows = await db
    .select(runSelection)
    .from(invoiceFetchRuns)
    .innerJoin(clients, eq(clients.id, invoiceFetchRuns.clientId))
    .innerJoin(operators, eq(operators.id, invoiceFetchRuns.operatorId))
    .where(where)
    .orderBy(desc(invoiceFetchRuns.startedAt), desc(invoiceFetchRuns.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { items: rows.map(toRun), total: n, page, pageSize };
}

export async function retryFailed(deps: Deps, scope: Scope, runId: number): Promise<void> {
  const [run] = await deps.database.db
    .select()
    .from(invoiceFetchRuns)
    .where(
      and(
        eq(invoiceFetchRuns.id, runId),
        eq(invoiceFetchRuns.status, 'failed'),
        scope.where({ clientId: invoiceFetchRuns.clientId }),
      ),
    );
  if (!run) throw notFound();
  await deps.jobs.send(QUEUE.fetchInvoices, {
    clientId: run.clientId,
    operatorId: run.operatorId,
    month: run.month.slice(0, 7),
  } satisfies FetchInvoicesJob);
}

/** Full Automation report: every client on automated upload, its operators and its last run. */
export async function fullAutomation(db: Db, scope: Scope): Promise<FullAutomationRow[]> {
  const rows = await db
    .select({ id: clients.id, name: clients.companyName })
    .from(clients)
    .where(and(eq(clients.invoiceUploadMethod, 'automation'), scope.where({ clientId: clients.id })))
    .orderBy(clients.companyName);
  const out: FullAutomationRow[] = [];
  for (const c of rows) {
    const ops = await db
      .select({ name: operators.name })
      .from(portalCredentials)
      .innerJoin(operators, eq(operators.id, portalCredentials.operatorId))
      .where(eq(portalCredentials.clientId, c.id))
      .orderBy(operators.name);
    const [last] = await db
      .select({
        status: invoiceFetchRuns.status,
        reason: invoiceFetchRuns.reason,
        at: invoiceFetchRuns.startedAt,
      })
      .from(invoiceFetchRuns)
      .where(eq(invoiceFetchRuns.clientId, c.id))
      .orderBy(desc(invoiceFetchRuns.id))
      .limit(1);
    out.push({
      clientId: c.id,
      clientName: c.name,
      operators: ops.map((o) => o.name),
      lastRunAt: iso(last?.at ?? null),
      lastResult: last?.status ?? null,
      lastReason: last?.reason ?? null,
    });
  }
  return out;
}
