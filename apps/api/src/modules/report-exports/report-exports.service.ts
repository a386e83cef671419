import { Readable, Writable } from 'node:stream';
import { and, count, desc, eq, lt, or, sql } from 'drizzle-orm';
import {
  message,
  REPORT_EXPORT_LABELS,
  type Lang,
  type ReportExport,
  type ReportExportKind,
  type ReportExportList,
  type ReportExportListQuery,
  type ReportExportRequest,
} from '@kulu/shared';
import { clients, reportExportParts, reportExports } from '../../db/schema/index.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { mailTemplates } from '../../lib/mail-templates/index.js';
import type { Scope } from '../../lib/scope.js';
import { writeWorkbook } from '../../lib/xlsx/index.js';
import { callerForUser } from '../../plugins/access.js';
import { QUEUE, resendLost, type JobHandler } from '../../lib/queue.js';
import type { AuthUser, Deps } from '../../types.js';
import { resolveSlice } from '../dashboards/dashboards.service.js';
import { ARCHIVE_PERMISSION, archiveSheets } from './archive-sheets.js';

/**
 * The report archive (issue 12, spec §9): a request makes a `scheduled` row and a
 * build-report-export job; the job writes the workbook with the streaming writer into parts of at
 * most 1 MB in the database and marks the row `ready` (or `failed`, "try again later"). Each user
 * sees and downloads their own exports, and only while the export's client is still in their Scope.
 * Files are kept EXPORT_RETENTION_DAYS days. Decision: docs/decisions/0015-report-archive.md.
 */

export interface BuildReportExportJob {
  exportId: number;
}

/** Bytes per stored part of a workbook. */
export const PART_BYTES = 1024 * 1024;

type Row = typeof reportExports.$inferSelect;

const fileNameOf = (r: Pick<Row, 'kind' | 'fromMonth' | 'toMonth' | 'id'>) =>
  `${r.kind}-${r.fromMonth ?? ''}${r.toMonth && r.toMonth !== r.fromMonth ? `-${r.toMonth}` : ''}-${r.id}.xlsx`.replace(
    /--/g,
    '-',
  );

function toApi(r: Row & { clientName: string }, lang: Lang): ReportExport {
  return {
    id: r.id,
    kind: r.kind,
    clientId: r.clientId,
    clientName: r.clientName,
    subCompanyId: r.subCompanyId,
    from: r.fromMonth,
    to: r.toMonth,
    status: r.status,
    error: r.status === 'failed' ? message('exportFailed', lang) : null,
    rows: r.rowCount,
    sizeBytes: r.sizeBytes,
    fileName: fileNameOf(r),
    requestedAt: r.createdAt.toISOString(),
    readyAt: r.readyAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
  };
}

/**
 * Schedules an export: the caller's permission for the report, the client, sub-company and period
 * checked and resolved through the Scope now (404 outside it), then the row and its job. When the job
 * cannot be queued the row is marked failed and the caller gets the spec's "try again later" (503).
 */
export async function scheduleExport(
  deps: Deps,
  me: AuthUser,
  scope: Scope,
  body: ReportExportRequest,
  lang: Lang,
): Promise<ReportExport> {
  if (!me.permissions.includes(ARCHIVE_PERMISSION[body.kind])) throw forbidden();
  const { db } = deps.database;
  const slice = await resolveSlice(db, scope, {
    clientId: body.clientId,
    subCompanyId: body.subCompanyId,
    from: body.from,
    to: body.to,
  });
  const [row] = await db
    .insert(reportExports)
    .values({
      userId: me.id,
      clientId: slice.clientId,
      subCompanyId: body.subCompanyId ?? null,
      kind: body.kind,
      fromMonth: slice.from,
      toMonth: slice.to,
      operatorId: me.operatorId,
      lang,
      createdAt: deps.now(),
    })
    .returning();
  try {
    await deps.jobs.send(QUEUE.buildReportExport, { exportId: row!.id } satisfies BuildReportExportJob);
  } catch {
    await db
      .update(reportExports)
      .set({ status: 'failed', errorCode: 'exportScheduleFailed' })
      .where(eq(reportExports.id, row!.id));
    throw new AppError(503, 'exportScheduleFailed');
  }
  return (await getOwn(deps, me, scope, row!.id, lang)).api;
}

/** One of the caller's exports (404 for anyone else's, or once its client left the caller's Scope). */
async function getOwn(deps: Deps, me: AuthUser, scope: Scope, id: number, lang: Lang) {
  const { db } = deps.database;
  const [r] = await db
    .select({ row: reportExports, clientName: clients.companyName })
    .from(reportExports)
    .innerJoin(clients, eq(clients.id, reportExports.clientId))
    .where(and(eq(reportExports.id, id), eq(reportExports.userId, me.id)));
  if (!r || !scope.canSeeClient(r.row.clientId)) throw notFound();
  return { row: r.row, api: toApi({ ...r.row, clientName: r.clientName }, lang) };
}

/** The caller's exports, newest first (those of clients still in their Scope). */
export async function listExports(
  deps: Deps,
  me: AuthUser,
  scope: Scope,
  q: ReportExportListQuery,
  lang: Lang,
): Promise<ReportExportList> {
  const { db } = deps.database;
  const where = and(
    eq(reportExports.userId, me.id),
    scope.where({ clientId: reportExports.clientId, operatorId: reportExports.operatorId }),
    q.status ? eq(reportExports.status, q.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: reportExports, clientName: clients.companyName })
      .from(reportExports)
      .innerJoin(clients, eq(clients.id, reportExports.clientId))
      .where(where)
      .orderBy(desc(reportExports.createdAt), desc(reportExports.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(reportExports).where(where),
  ]);
  return {
    items: rows.map((r) => toApi({ ...r.row, clientName: r.clientName }, lang)),
    total: total?.n ?? 0,
    page: q.page,
    pageSize: q.pageSize,
    retentionDays: deps.config.EXPORT_RETENTION_DAYS,
  };
}

/** A ready export's file, streamed part by part (409 while it is not ready). */
export async function exportFile(deps: Deps, me: AuthUser, scope: Scope, id: number, lang: Lang) {
  const { row, api } = await getOwn(deps, me, scope, id, lang);
  if (row.status !== 'ready') throw new AppError(409, 'exportNotReady');
  const { db } = deps.database;
  async function* parts() {
    for (let seq = 0; ; seq++) {
      const [part] = await db
        .select({ data: reportExportParts.data })
        .from(reportExportParts)
        .where(and(eq(reportExportParts.exportId, id), eq(reportExportParts.seq, seq)));
      if (!part) return;
      yield Buffer.from(part.data);
    }
  }
  return { fileName: api.fileName, size: row.sizeBytes, stream: Readable.from(parts()) };
}

export async function deleteExport(deps: Deps, me: AuthUser, scope: Scope, id: number, lang: Lang) {
  await getOwn(deps, me, scope, id, lang);
  await deps.database.db.delete(reportExports).where(eq(reportExports.id, id));
}

/** A Writable that stores what it is given as numbered parts of an export. */
class PartWriter extends Writable {
  private chunks: Buffer[] = [];
  private pending = 0;
  private seq = 0;
  size = 0;

  constructor(
    private readonly deps: Deps,
    private readonly exportId: number,
    private readonly partBytes: number,
  ) {
    super();
  }

  private async flush() {
    if (!this.pending) return;
    const data = Buffer.concat(this.chunks);
    this.chunks = [];
    this.pending = 0;
    await this.deps.database.db
      .insert(reportExportParts)
      .values({ exportId: this.exportId, seq: this.seq++, data });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void) {
    this.chunks.push(chunk);
    this.pending += chunk.length;
    this.size += chunk.length;
    if (this.pending < this.partBytes) return done();
    this.flush().then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void) {
    this.flush().then(() => done(), done);
  }
}

/** Marks an export failed; the cause is kept for operators (`params.detail`), never shown to users. */
const fail = async (deps: Deps, id: number, err: unknown) => {
  const { db } = deps.database;
  const detail = (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 500);
  await db.delete(reportExportParts).where(eq(reportExportParts.exportId, id));
  await db
    .update(reportExports)
    .set({ status: 'failed', errorCode: 'exportFailed', params: { detail } })
    .where(eq(reportExports.id, id));
};

/**
 * build-report-export: makes the workbook of a scheduled export as its requester would see it now
 * (their Scope and permissions rebuilt from the user row: someone who lost access gets a failed
 * export, not the data). Idempotent: a job for an export that is no longer scheduled does nothing,
 * and a retried one starts its parts afresh.
 */
export async function buildExport(deps: Deps, exportId: number, partBytes = PART_BYTES): Promise<void> {
  const { db } = deps.database;
  const [row] = await db.select().from(reportExports).where(eq(reportExports.id, exportId));
  if (!row || row.status !== 'scheduled') return;
  const found = await callerForUser(db, row.userId, row.operatorId, deps.now());
  const u = found?.row;
  const lang = row.lang;
  try {
    if (!found || !u) throw forbidden();
    const { user: me, scope } = found.caller;
    if (
      !me.permissions.includes('downloads') ||
      !me.permissions.includes(ARCHIVE_PERMISSION[toKind(row.kind)])
    )
      throw forbidden();
    await db.delete(reportExportParts).where(eq(reportExportParts.exportId, exportId));
    const sheets = await archiveSheets(
      db,
      scope,
      {
        kind: toKind(row.kind),
        clientId: row.clientId,
        subCompanyId: row.subCompanyId,
        from: row.fromMonth!,
        to: row.toMonth!,
      },
      lang,
    );
    const out = new PartWriter(deps, exportId, partBytes);
    const { rows } = await writeWorkbook(out, sheets);
    const now = deps.now();
    const done = await db
      .update(reportExports)
      .set({
        status: 'ready',
        rowCount: rows,
        sizeBytes: out.size,
        readyAt: now,
        expiresAt: new Date(now.getTime() + deps.config.EXPORT_RETENTION_DAYS * 86_400_000),
      })
      .where(and(eq(reportExports.id, exportId), eq(reportExports.status, 'scheduled')))
      .returning({ id: reportExports.id });
    if (done.length && rows >= deps.config.EXPORT_MAIL_MIN_ROWS) {
      const report = REPORT_EXPORT_LABELS[row.kind][lang];
      const base = deps.config.PUBLIC_URL.replace(/\/+$/, '');
      const path = scope.isProvider ? '/admin/reports/downloads' : '/company/report/downloads';
      await deps.jobs.send(QUEUE.sendMail, {
        to: u.email,
        ...mailTemplates(u.languageId).exportReady({
          name: u.fullName,
          report,
          rows,
          link: `${base}/#${path}`,
          days: deps.config.EXPORT_RETENTION_DAYS,
        }),
      });
    }
  } catch (err) {
    await fail(deps, exportId, err);
  }
}

const toKind = (k: ReportExportKind) => {
  if (k === 'executive') throw new AppError(400, 'exportComingSoon');
  return k;
};

export function buildReportExportHandler(deps: Deps): JobHandler<BuildReportExportJob> {
  return async (job) => buildExport(deps, job.data.exportId);
}

/**
 * Removes exports past their keeping time, and failed or never-built ones older than it; their parts
 * go with them. Returns how many rows were removed.
 */
export async function removeExpiredExports(deps: Deps): Promise<number> {
  const now = deps.now();
  const cutoff = new Date(now.getTime() - deps.config.EXPORT_RETENTION_DAYS * 86_400_000);
  const gone = await deps.database.db
    .delete(reportExports)
    .where(or(lt(reportExports.expiresAt, now), lt(reportExports.createdAt, cutoff)))
    .returning({ id: reportExports.id });
  return gone.length;
}

/** Scheduled exports whose job is gone (the send failed after the row was committed) get a new one. */
export async function requeueScheduledExports(deps: Deps): Promise<number> {
  const match = sql`(j.data->>'exportId')::int = ${reportExports.id}`;
  const lost = { id: reportExports.id, waiting: eq(reportExports.status, 'scheduled'), match };
  const send = (exportId: number) => deps.jobs.send(QUEUE.buildReportExport, { exportId });
  return resendLost(deps.database.db, QUEUE.buildReportExport, lost, send);
}
