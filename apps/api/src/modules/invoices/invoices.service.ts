import crypto from 'node:crypto';
import { fairPriority } from '../../lib/fair-priority.js';
import { and, asc, count, desc, eq, ilike, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { sniffInvoiceFormat, type InvoiceFileFormat } from '@kulu/invoices/file';
import {
  INVOICE_MAX_BYTES,
  RECONCILIATION_TOLERANCE,
  message,
  type CategoryCost,
  type Invoice,
  type InvoiceDetail,
  type InvoiceLineRow,
  type InvoiceSubscriptionList,
  type InvoiceSubscriptionsQuery,
  type InvoiceList,
  type InvoiceListQuery,
  type InvoiceUploadResult,
  type Lang,
  type MessageCode,
} from '@kulu/shared';
import {
  clients,
  costCategories,
  costCenters,
  costElements,
  fileChunks,
  files,
  invoiceLines,
  invoices,
  monthlyFacts,
  plans,
  subCompanies,
  subscriptions,
  uploadReceipts,
  users,
} from '../../db/schema/index.js';
import type { Db, Executor } from '../../db/client.js';
import { preparedPerDb, withFastRows } from '../../db/prepared.js';
import { AppError, notFound, withoutPaths } from '../../lib/errors.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import { mailLanguage, mailTemplates } from '../../lib/mail-templates/index.js';
import type { Scope } from '../../lib/scope.js';
import { SUBSCRIPTION_NAMES } from '../../lib/subscription-names.js';
import { parseJobOptions, QUEUE } from '../../lib/queue.js';
import type { Deps } from '../../types.js';
import { isoTimeOrNull as iso } from '../../lib/db-values.js';
import type { InvoiceBuyer, RefusedInvoiceFacts } from './import.service.js';
import { readFileData, removeFiles, storeFileStream, type StreamedFile } from '../../lib/files.js';
import type { PhaseClock } from '../../lib/phases.js';
import { invoiceReconciliation, unconvertedLines } from './reconciliation.js';

/** The text of an invoice's error code in a language, with the printed business id it may name. */
/** A failed invoice's reason in `lang`, with whom the invoice was addressed to where it names them. */
export const invoiceErrorText = (
  code: MessageCode,
  lang: Lang,
  buyer: { businessId: string | null; name: string | null; invoiceNumber?: string | null },
) =>
  message(code, lang)
    .replace('{businessId}', buyer.businessId ?? '')
    .replace('{buyerName}', buyer.name ?? '')
    .replaceAll('{invoiceNumber}', buyer.invoiceNumber ?? '');

/** The media type an invoice file of `format` is stored and served with (null: not an invoice file). */
const mediaTypeOf = (format: InvoiceFileFormat | null) =>
  format === 'pdf' ? 'application/pdf' : format ? 'application/xml' : null;

/**
 * What an uploaded invoice file is by its first bytes (never by name or type), judged by the one
 * sniffer the parse child uses too (`sniffInvoiceFormat`, @kulu/invoices/file): its media type, or null.
 */
export function invoiceMediaType(head: Buffer): 'application/pdf' | 'application/xml' | null {
  return mediaTypeOf(sniffInvoiceFormat(head));
}

export type IncomingFile = { fileName: string } & (
  | {
      /** null when the file exceeded the size limit. */
      data: Buffer | null;
    }
  /** Already streamed into storage (uploads): its file row, hash and size, and its format by its first bytes. */
  | { stored: StreamedFile; format: InvoiceFileFormat }
  /** Refused while it streamed in (nothing of it stored). */
  | { refused: MessageCode }
);

/**
 * Streams one uploaded file into storage (hash on the fly, in chunks, at most INVOICE_MAX_BYTES):
 * a file that does not start as a PDF or grows past the limit is read to its end and dropped.
 */
export async function receiveInvoiceFile(
  db: Db,
  target: UploadTarget,
  fileName: string,
  source: AsyncIterable<Buffer> & { truncated?: boolean },
  /**
   * Told of the bytes taken from `source` as they arrive, also of a file that breaks off midway;
   * what it throws ends the file (nothing of it kept) and is thrown on.
   */
  received: { add(bytes: number): void } = { add() {} },
): Promise<IncomingFile> {
  const name = cleanFileName(fileName);
  const counted = {
    async *[Symbol.asyncIterator]() {
      for await (const piece of source) {
        received.add(piece.length);
        yield piece;
      }
    },
    get truncated() {
      return source.truncated;
    },
  };
  let format: InvoiceFileFormat | null = null;
  const outcome = await storeFileStream(
    db,
    { clientId: target.clientId, kind: 'invoice', name, mime: 'application/pdf' },
    counted,
    { maxBytes: INVOICE_MAX_BYTES, accept: (head) => mediaTypeOf((format = sniffInvoiceFormat(head))) },
  );
  if ('stored' in outcome) return { fileName, stored: outcome.stored, format: format ?? 'pdf' };
  return { fileName, refused: outcome.refused === 'size' ? 'invoiceTooLarge' : 'invoiceNotPdf' };
}

/** Files streamed in by a request that then failed as a whole (nothing of it is kept). */
export async function discardReceived(db: Db, incoming: IncomingFile[]): Promise<void> {
  await removeFiles(
    db,
    incoming.flatMap((f) => ('stored' in f ? [f.stored.fileId] : [])),
  );
}

/**
 * Records bytes an upload request sent that no invoice keeps (refused files, a request that broke
 * off): they count against the client's daily upload budget like accepted files, so sending the
 * same file again and again (written to storage, then dropped as a duplicate) is bounded per day.
 */
export async function recordRefusedBytes(deps: Deps, clientId: number, bytes: number): Promise<void> {
  if (bytes <= 0) return;
  await deps.database.db.insert(uploadReceipts).values({ clientId, bytes, receivedAt: deps.now() });
}

/** The daily cleanup: refused bytes older than 24 hours no longer count against any budget. */
export async function removeOldUploadReceipts(deps: Deps): Promise<number> {
  const since = new Date(deps.now().getTime() - 86_400_000);
  const gone = await deps.database.db
    .delete(uploadReceipts)
    .where(lt(uploadReceipts.receivedAt, since))
    .returning({ id: uploadReceipts.id });
  return gone.length;
}

/**
 * Whether an earlier upload of the client (of another batch than `batchId`, when given) is still
 * parsing; if so, the uploader (`userId`, null: none) is added to those mailed when it is done.
 */
async function parseRunning(
  db: Executor,
  clientId: number,
  userId: number | null,
  batchId?: string,
): Promise<boolean> {
  const parsing = and(eq(invoices.clientId, clientId), eq(invoices.uploadState, 'in_progress'));
  const [running] = await db
    .select({ id: invoices.id, notify: invoices.notifyUserIds })
    .from(invoices)
    .where(batchId == null ? parsing : and(parsing, ne(invoices.batchId, batchId)))
    .orderBy(desc(invoices.id))
    .limit(1);
  if (running && userId != null && !running.notify.includes(userId)) {
    await db
      .update(invoices)
      .set({ notifyUserIds: sql`${invoices.notifyUserIds} || ${JSON.stringify([userId])}::jsonb` })
      .where(eq(invoices.id, running.id));
  }
  return running != null;
}

/**
 * Whether a client may send an upload of `bytes` now, checked before its body is read: (uploads by
 * people) no earlier upload of the client still parsing (the caller is then mailed when it is
 * done), its invoice files within the storage quota and its last 24 hours' uploads (the invoices'
 * files and the refused bytes of `upload_receipts`) within the daily budget, counting what this
 * instance is still receiving for it (`receiving`: what its uploads in progress declared), and its parse
 * time of the last hour within PARSE_BUDGET_SECONDS_PER_HOUR.
 */
export async function admitUpload(
  deps: Deps,
  target: UploadTarget,
  opts: { userId: number | null; bytes: number; receiving: number },
): Promise<void> {
  const { db } = deps.database;
  if (await parseRunning(db, target.clientId, opts.userId)) throw new AppError(409, 'previousParseRunning');
  const MB = 1024 * 1024;
  const since = new Date(deps.now().getTime() - 86_400_000);
  const [use] = await db
    .select({
      stored: sql<number>`coalesce((select sum(f.size) from files f where f.client_id = ${target.clientId}), 0)::float8`,
      today: sql<number>`(coalesce((select sum(i.file_size) from invoices i where i.client_id = ${target.clientId} and i.created_at > ${since.toISOString()}), 0)
        + coalesce((select sum(r.bytes) from upload_receipts r where r.client_id = ${target.clientId} and r.received_at > ${since.toISOString()}), 0))::float8`,
    })
    .from(sql`(select 1) as one`);
  const coming = opts.bytes + opts.receiving;
  if (use.stored + coming > deps.config.CLIENT_STORAGE_QUOTA_MB * MB) {
    throw new AppError(413, 'clientStorageFull');
  }
  if (use.today + coming > deps.config.CLIENT_DAILY_UPLOAD_MB * MB) {
    throw new AppError(429, 'dailyUploadBudgetSpent');
  }
  // A client that has used its parse time of the hour sends nothing more until it frees up
  // (decision 0019): refused here, so its files are not streamed in only to be dropped.
  if ((await parseSecondsLastHour(deps, target.clientId)) >= deps.config.PARSE_BUDGET_SECONDS_PER_HOUR) {
    throw new AppError(429, 'parseBudgetExhausted');
  }
}

/**
 * The daily removal of failed invoices' files past FAILED_FILE_RETENTION_DAYS: the invoice stays
 * with its reason (and the file's name, size and hash, so the same file is still known), its bytes go.
 */
export async function removeExpiredFailedFiles(deps: Deps): Promise<number> {
  const { db } = deps.database;
  const cutoff = new Date(deps.now().getTime() - deps.config.FAILED_FILE_RETENTION_DAYS * 86_400_000);
  const expired = db
    .select({ id: invoices.fileId })
    .from(invoices)
    .where(and(eq(invoices.uploadState, 'failed'), lt(invoices.createdAt, cutoff)));
  return db.transaction(async (tx) => {
    await tx.delete(fileChunks).where(inArray(fileChunks.fileId, expired));
    const gone = await tx
      .update(files)
      .set({ size: 0, data: Buffer.alloc(0) })
      .where(and(inArray(files.id, expired), ne(files.size, 0)))
      .returning({ id: files.id });
    return gone.length;
  });
}

export interface UploadTarget {
  clientId: number;
  subCompanyId: number | null;
}

/**
 * Which client (and sub-company) an upload goes to, checked against the caller's scope: a client
 * asked for must be in scope (else 404); without one, the caller's own client (provider users,
 * who have none, must choose).
 */
export async function resolveUploadTarget(
  db: Db,
  scope: Scope,
  input: { clientId?: number; subCompanyId?: number },
): Promise<UploadTarget> {
  // Ids outside the caller's scope are a 404 before anything else is judged (as on every route).
  if (input.clientId) await scope.assertClient(input.clientId);
  if (input.subCompanyId) await scope.assertSubCompany(input.subCompanyId);
  const clientId = input.clientId ?? scope.ownClientId;
  if (clientId == null) throw new AppError(400, 'validation', { clientId: 'required' });
  const allowed = scope.subCompanyIds;
  let subCompanyId = input.subCompanyId ?? null;
  if (subCompanyId == null && allowed?.length === 1) subCompanyId = allowed[0];
  if (subCompanyId == null && allowed) {
    throw new AppError(400, 'validation', { subCompanyId: 'required' });
  }
  if (subCompanyId != null && !(await scope.hasSubCompany(clientId, subCompanyId, db))) {
    throw new AppError(400, 'validation', { subCompanyId: 'invalid' });
  }
  return { clientId, subCompanyId };
}

/** A file name as stored and shown: no control characters (NUL is refused by text columns), at most 255. */
export function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'invoice.pdf').slice(0, 255);
}

const refused = (fileName: string, code: MessageCode, lang: Lang): InvoiceUploadResult => ({
  fileName,
  status: 'refused',
  code,
  message: message(code, lang),
});

/**
 * Enqueues the parse of an invoice behind the client's own: its priority is minus the number of
 * the client's parse jobs not yet finished, and every instance's worker takes the highest priority
 * first (pg-boss: priority, then age). A client's first file goes before any client's second, its
 * second before any third, so a client that queues 20 files holds at most one parse ahead of
 * another client's single file, whichever instance works them (issue 23, finding 3;
 * docs/decisions/0019-fair-parse-queue.md).
 */
export async function queueParse(deps: Deps, invoiceId: number): Promise<void> {
  await deps.jobs.start(); // the queue's tables exist once it has started
  const priority = await fairPriority(deps, QUEUE.parseInvoice, invoiceId);
  await deps.jobs.send(QUEUE.parseInvoice, { invoiceId }, { ...parseJobOptions(deps.config), priority });
}

/**
 * Seconds of parse time a client's parse jobs have run in the last hour (a running one up to now):
 * what PARSE_BUDGET_SECONDS_PER_HOUR bounds.
 */
export async function parseSecondsLastHour(deps: Deps, clientId: number): Promise<number> {
  await deps.jobs.start();
  return deps.jobs.clientSecondsLastHour(QUEUE.parseInvoice, clientId);
}

/**
 * Stores each file and enqueues its parse job. Refused per file: not a PDF by content, too large,
 * the same file already parsed, or (uploads by people) while an earlier upload of the client is
 * still parsing — then the caller is mailed when that parse finishes. Files of one request don't
 * block each other. Nothing is stored for a refused file. What refuses a person's upload as a
 * whole (parse time of the hour, quota, budget) is judged before its body is read: `admitUpload`.
 */
export async function uploadInvoices(
  deps: Deps,
  target: UploadTarget,
  incoming: IncomingFile[],
  opts: {
    userId: number | null;
    lang: Lang;
    source?: 'upload' | 'automation' | 'demo';
    /** Measurement: a lap per file stored (`record`) and per parse queued (`enqueue`). */
    clock?: PhaseClock;
  },
): Promise<InvoiceUploadResult[]> {
  const { db } = deps.database;
  const source = opts.source ?? 'upload';
  const batchId = crypto.randomUUID();
  const results: InvoiceUploadResult[] = [];
  for (const f of incoming) {
    const fileName = cleanFileName(f.fileName);
    if ('refused' in f) {
      results.push(refused(fileName, f.refused, opts.lang));
      continue;
    }
    const streamed = 'stored' in f ? f.stored : null;
    const data = 'data' in f ? f.data : null;
    if (!streamed && !data) {
      results.push(refused(fileName, 'invoiceTooLarge', opts.lang));
      continue;
    }
    if (data && !invoiceMediaType(data)) {
      results.push(refused(fileName, 'invoiceNotPdf', opts.lang));
      continue;
    }
    const sha = streamed?.sha256 ?? crypto.createHash('sha256').update(data!).digest('hex');
    const size = streamed?.size ?? data!.length;
    type Outcome = { code: MessageCode; invoiceId?: undefined } | { code?: undefined; invoiceId: number };
    // A file that cannot be stored is refused on its own (its transaction rolled back): the files
    // before it stay accepted with their parse queued, so the answer is per file, never a 5xx
    // after part of the request was already imported.
    const stored = db.transaction(async (tx): Promise<Outcome> => {
      await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, target.clientId)).for('update');
      if (source === 'upload' && (await parseRunning(tx, target.clientId, opts.userId, batchId))) {
        return { code: 'previousParseRunning' as const };
      }
      // The same bytes are refused whatever became of them: parsed, parsing, or failed (a failed
      // file again would fail again and only take storage; deleting the failed invoice allows it).
      const [same] = await tx
        .select({ state: invoices.uploadState })
        .from(invoices)
        .where(and(eq(invoices.clientId, target.clientId), eq(invoices.fileSha256, sha)))
        .orderBy(desc(invoices.id))
        .limit(1);
      if (same) {
        return { code: same.state === 'failed' ? 'invoiceSameFileFailed' : 'invoiceAlreadyParsed' };
      }
      const [file] = streamed
        ? [{ id: streamed.fileId }]
        : await tx
            .insert(files)
            .values({
              clientId: target.clientId,
              kind: 'invoice',
              name: fileName,
              mime: invoiceMediaType(data!) ?? 'application/pdf',
              size,
              data: data!,
            })
            .returning({ id: files.id });
      const [inv] = await tx
        .insert(invoices)
        .values({
          clientId: target.clientId,
          subCompanyId: target.subCompanyId,
          fileId: file.id,
          fileName,
          fileSha256: sha,
          fileSize: size,
          format: 'stored' in f ? f.format : (sniffInvoiceFormat(data!) ?? 'pdf'),
          source,
          batchId,
          uploadedBy: opts.userId,
          createdAt: deps.now(),
        })
        .returning({ id: invoices.id });
      return { invoiceId: inv.id as number };
    });
    const outcome = await stored.catch((e: unknown): Outcome => {
      // Only the error's code: a failed query's message carries its values (file bytes, names).
      const err = e as { code?: string; cause?: { code?: string } };
      console.error(`invoice upload: storing a file failed (${err.cause?.code ?? err.code ?? 'unknown'})`);
      return { code: 'invoiceFileRefused' };
    });
    opts.clock?.lap('record');
    if (outcome.code) {
      // A streamed file that is not taken goes (nothing is stored for a refused file).
      if (streamed) await removeFiles(db, [streamed.fileId]).catch(() => {});
      results.push(refused(fileName, outcome.code, opts.lang));
      continue;
    }
    try {
      await queueParse(deps, outcome.invoiceId);
      opts.clock?.lap('enqueue');
    } catch {
      // The row is committed; the start-up sweep re-enqueues in-progress invoices without a job.
      await markFailed(deps, outcome.invoiceId, 'internal', 'the parse job could not be queued');
      results.push(refused(fileName, 'internal', opts.lang));
      continue;
    }
    results.push({
      fileName,
      status: 'accepted',
      invoiceId: outcome.invoiceId,
      code: 'invoiceUploaded',
      message: message('invoiceUploaded', opts.lang),
    });
  }
  return results;
}

/**
 * Marks an in-progress invoice failed (nothing else of it is kept but the row and its file, and
 * whom it was addressed to where the refusal read that).
 */
export async function markFailed(
  deps: Deps,
  invoiceId: number,
  code: MessageCode,
  /** The reason's detail shown to the company (null: none; the server log has it). */
  detail: string | null,
  buyer?: InvoiceBuyer,
  /**
   * What the refusal learnt of the invoice that its reason names: its operator (no contract with
   * it: the way forward adds one) or the number a copy or cancellation refers to.
   */
  known?: RefusedInvoiceFacts,
) {
  await deps.database.db
    .update(invoices)
    .set({
      ...(buyer ? { customerName: buyer.name, businessId: buyer.businessId } : {}),
      ...(known?.operatorId != null ? { operatorId: known.operatorId } : {}),
      ...(known?.invoiceNumber != null ? { invoiceNumber: known.invoiceNumber } : {}),
      uploadState: 'failed',
      parsingStatus: 'completed',
      errorCode: code,
      // Shown to the company as the reason's detail: never where the server is installed.
      errorMessage: detail === null ? null : withoutPaths(detail).slice(0, 2000),
      parsedAt: deps.now(),
    })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.uploadState, 'in_progress')));
}

/**
 * Mails the users who were refused while this invoice was parsing (as jobs), then forgets them.
 * Safe to call again: the list is cleared only for what was queued.
 */
export async function notifyWaiting(deps: Deps, invoiceId: number): Promise<number> {
  const { db } = deps.database;
  const [inv] = await db
    .select({
      notify: invoices.notifyUserIds,
      state: invoices.uploadState,
      fileName: invoices.fileName,
      number: invoices.invoiceNumber,
      errorCode: invoices.errorCode,
      businessId: invoices.businessId,
      customerName: invoices.customerName,
    })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  if (!inv || inv.state === 'in_progress' || !inv.notify.length) return 0;
  const recipients = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName, languageId: users.languageId })
    .from(users)
    .where(inArray(users.id, inv.notify));
  for (const u of recipients) {
    const ok = inv.state === 'uploaded';
    const what = inv.number ? `${inv.fileName} (${inv.number})` : inv.fileName;
    const reason = inv.errorCode
      ? invoiceErrorText(inv.errorCode as MessageCode, mailLanguage(u.languageId), {
          businessId: inv.businessId,
          name: inv.customerName,
          invoiceNumber: inv.number,
        })
      : '';
    await deps.jobs.send(QUEUE.sendMail, {
      to: u.email,
      ...mailTemplates(u.languageId).parseDone({ name: u.fullName, what, ok, reason }),
    });
  }
  await db
    .update(invoices)
    .set({
      notifyUserIds: sql`(select coalesce(jsonb_agg(v), '[]'::jsonb) from jsonb_array_elements(${invoices.notifyUserIds}) v where not (v <@ ${JSON.stringify(inv.notify)}::jsonb))`,
    })
    .where(eq(invoices.id, invoiceId));
  return recipients.length;
}

// Reading

// Correlated subqueries name the outer table explicitly (drizzle renders bare column names here).
const operatorName = sql<
  string | null
>`(select o.name from operators o where o.id = "invoices"."operator_id")`;
const clientName = sql<string>`(select c.company_name from clients c where c.id = "invoices"."client_id")`;
const subCompanyName = sql<
  string | null
>`(select s.name from sub_companies s where s.id = "invoices"."sub_company_id")`;

const SORT: Record<InvoiceListQuery['sort'], SQL | typeof invoices.id> = {
  invoiceNumber: sql`${invoices.invoiceNumber}`,
  invoiceDate: sql`${invoices.invoiceDate}`,
  operatorName,
  clientName,
  subCompanyName,
  totalExclVat: sql`${invoices.totalExclVat}`,
  totalInclVat: sql`${invoices.totalInclVat}`,
  uploadState: sql`${invoices.uploadState}`,
  parsingStatus: sql`${invoices.parsingStatus}`,
  createdAt: sql`${invoices.createdAt}`,
  difference: sql`abs(${invoices.difference})`,
};

/**
 * The invoice columns the API answers with: not the file's hash, batch, uploader or the users to
 * notify (a JSON column read and parsed for every listed row, issue 13).
 */
const shown = {
  id: invoices.id,
  clientId: invoices.clientId,
  operatorId: invoices.operatorId,
  subCompanyId: invoices.subCompanyId,
  fileName: invoices.fileName,
  source: invoices.source,
  format: invoices.format,
  invoiceNumber: invoices.invoiceNumber,
  customerName: invoices.customerName,
  businessId: invoices.businessId,
  invoiceDate: invoices.invoiceDate,
  periodStart: invoices.periodStart,
  periodEnd: invoices.periodEnd,
  vatRate: invoices.vatRate,
  totalExclVat: invoices.totalExclVat,
  vatAmount: invoices.vatAmount,
  totalInclVat: invoices.totalInclVat,
  uploadState: invoices.uploadState,
  parsingStatus: invoices.parsingStatus,
  errorCode: invoices.errorCode,
  errorMessage: invoices.errorMessage,
  createdAt: invoices.createdAt,
  parsedAt: invoices.parsedAt,
  lineCount: invoices.lineCount,
  subscriptionCount: invoices.subscriptionCount,
  difference: invoices.difference,
};

const selection = {
  row: shown,
  operatorName,
  clientName,
  subCompanyName,
};

type Selected = {
  row: Pick<typeof invoices.$inferSelect, keyof typeof shown>;
  operatorName: string | null;
  clientName: string;
  subCompanyName: string | null;
};

function toInvoice(s: Selected, lang: Lang): Invoice {
  const r = s.row;
  const code = r.errorCode as MessageCode | null;
  return {
    id: r.id,
    clientId: r.clientId,
    clientName: s.clientName,
    operatorId: r.operatorId,
    operatorName: s.operatorName,
    subCompanyId: r.subCompanyId,
    subCompanyName: s.subCompanyName,
    fileName: r.fileName,
    source: r.source,
    format: r.format,
    invoiceNumber: r.invoiceNumber,
    buyerName: r.customerName,
    buyerBusinessId: r.businessId,
    invoiceDate: r.invoiceDate,
    periodStart: r.periodStart,
    periodEnd: r.periodEnd,
    vatRate: r.vatRate,
    totalExclVat: r.totalExclVat,
    vatAmount: r.vatAmount,
    totalInclVat: r.totalInclVat,
    uploadState: r.uploadState,
    parsingStatus: r.parsingStatus,
    errorCode: code,
    errorMessage: code
      ? invoiceErrorText(code, lang, {
          businessId: r.businessId,
          name: r.customerName,
          invoiceNumber: r.invoiceNumber,
        })
      : null,
    errorDetail: r.errorMessage,
    subscriptionCount: r.subscriptionCount,
    lineCount: r.lineCount,
    createdAt: iso(r.createdAt)!,
    parsedAt: iso(r.parsedAt),
    difference: r.difference,
  };
}

/** The Scope's columns of an invoice (one not parsed yet, or failed, has no operator: it stays seen). */
const INVOICE_SCOPE = {
  clientId: invoices.clientId,
  subCompanyId: invoices.subCompanyId,
  operatorId: invoices.operatorId,
  operatorUnknownPasses: true,
} as const;

const scopeOf = (scope: Scope) => scope.where(INVOICE_SCOPE);

/** What the list's SQL depends on besides the scope: which filters are given, and the order. */
interface ListShape {
  clientId: boolean;
  operatorId: boolean;
  subCompanyId: boolean;
  uploadState: boolean;
  parsingStatus: boolean;
  reconciled: InvoiceListQuery['reconciled'];
  month: boolean;
  q: boolean;
  sort: InvoiceListQuery['sort'];
  order: InvoiceListQuery['order'];
}

const p = <T>(name: string) => sql.placeholder(name) as unknown as T;

/**
 * The list's statement for one shape, with placeholders for every value: the page and the number
 * of matching invoices in one query (one round trip on the screen's most frequent call). The count
 * is a subquery PostgreSQL runs once, not `count(*) over ()`: the window keeps every matching row
 * in a tuple store and made the query about 4× as costly for the database (decision 0017).
 */
function listStatement(db: Db, scoped: SQL | undefined, f: ListShape) {
  const where = and(
    scoped,
    f.clientId ? eq(invoices.clientId, p('clientId')) : undefined,
    f.operatorId ? eq(invoices.operatorId, p('operatorId')) : undefined,
    f.subCompanyId ? eq(invoices.subCompanyId, p('subCompanyId')) : undefined,
    f.uploadState ? eq(invoices.uploadState, p('uploadState')) : undefined,
    f.parsingStatus ? eq(invoices.parsingStatus, p('parsingStatus')) : undefined,
    f.reconciled === 'true' ? sql`abs(${invoices.difference}) <= ${RECONCILIATION_TOLERANCE}` : undefined,
    f.reconciled === 'false' ? sql`abs(${invoices.difference}) > ${RECONCILIATION_TOLERANCE}` : undefined,
    f.month ? eq(invoices.periodStart, p('periodStart')) : undefined,
    f.q ? or(ilike(invoices.invoiceNumber, p('pattern')), ilike(invoices.fileName, p('pattern'))) : undefined,
  );
  const dir = f.order === 'asc' ? asc : desc;
  const counted = db.select({ n: count() }).from(invoices).where(where);
  const page = db
    .select({ ...selection, total: sql<number>`(${counted})`.mapWith(Number) })
    .from(invoices)
    .where(where)
    .orderBy(dir(SORT[f.sort]), dir(invoices.id))
    .limit(p('limit'))
    .offset(p('offset'));
  return { page, counted };
}

type ListStatement = ReturnType<typeof listStatement>;
type PreparedList = { page: ReturnType<ListStatement['page']['prepare']>; counted: ListStatement['counted'] };

/** Prepared list statements by shape, per database; a bounded number (other shapes run unprepared). */
const LIST_SHAPES_KEPT = 64;
const listStatements = preparedPerDb(() => new Map<string, PreparedList>());

/**
 * The invoices in scope; `?clientId=` / `?subCompanyId=` outside the scope answer 404. The statement
 * is built and prepared once per shape (scope limits, filters given, order) and run with this
 * request's values: drizzle building it was an eighth of the API's work per list request (issue 13).
 */
export async function listInvoices(
  db: Db,
  scope: Scope,
  q: InvoiceListQuery,
  lang: Lang,
): Promise<InvoiceList> {
  if (q.clientId != null) await scope.assertClient(q.clientId);
  if (q.subCompanyId != null) await scope.assertSubCompany(q.subCompanyId);
  const scoped = scope.wherePrepared(INVOICE_SCOPE);
  const f: ListShape = {
    clientId: q.clientId != null,
    operatorId: Boolean(q.operatorId),
    subCompanyId: q.subCompanyId != null,
    uploadState: Boolean(q.uploadState),
    parsingStatus: Boolean(q.parsingStatus),
    reconciled: q.reconciled,
    month: Boolean(q.month),
    q: Boolean(q.q),
    sort: q.sort,
    order: q.order,
  };
  const values = {
    ...scoped.values,
    clientId: q.clientId,
    operatorId: q.operatorId,
    subCompanyId: q.subCompanyId,
    uploadState: q.uploadState,
    parsingStatus: q.parsingStatus,
    periodStart: q.month ? `${q.month}-01` : undefined,
    pattern: q.q ? containsPattern(q.q) : undefined,
    limit: q.pageSize,
    offset: (q.page - 1) * q.pageSize,
  };
  const shape = `${scoped.shape}|${Object.values(f).map(String).join(',')}`;
  const kept = listStatements(db);
  let statement: PreparedList | ListStatement | undefined = kept.get(shape);
  if (!statement) {
    statement = listStatement(db, scoped.where, f);
    // Past the bound, a shape runs unnamed: a name stands for one text on every connection.
    if (kept.size < LIST_SHAPES_KEPT) {
      statement = {
        page: withFastRows(statement.page.prepare(`kulu_invoice_list_${kept.size}`)),
        counted: statement.counted,
      };
      kept.set(shape, statement);
    }
  }
  const rows = await statement.page.execute(values);
  const total = rows.length
    ? rows[0]!.total
    : q.page > 1
      ? (await statement.counted.execute(values))[0]!.n
      : 0;
  return { items: rows.map((r) => toInvoice(r, lang)), total, page: q.page, pageSize: q.pageSize };
}

/** The columns of an invoice line as the API shows it (subscriptions and cost categories joined). */
const lineSelection = {
  id: invoiceLines.id,
  subscriptionId: invoiceLines.subscriptionId,
  phoneNumber: subscriptions.phoneNumber,
  userName: subscriptions.userName,
  label: invoiceLines.label,
  costElementId: invoiceLines.costElementId,
  costCategoryName: costCategories.name,
  category: invoiceLines.category,
  region: invoiceLines.region,
  periodStart: invoiceLines.periodStart,
  periodEnd: invoiceLines.periodEnd,
  quantity: invoiceLines.quantity,
  unit: invoiceLines.unit,
  unitPrice: invoiceLines.unitPrice,
  amount: invoiceLines.amount,
  unitCode: invoiceLines.unitCode,
};

/** The lines matching `where` in invoice order. */
const linesWhere = (db: Db, where: SQL | undefined) =>
  db
    .select(lineSelection)
    .from(invoiceLines)
    .leftJoin(subscriptions, eq(subscriptions.id, invoiceLines.subscriptionId))
    .leftJoin(costElements, eq(costElements.id, invoiceLines.costElementId))
    .leftJoin(costCategories, eq(costCategories.id, costElements.costCategoryId))
    .where(where)
    .orderBy(asc(invoiceLines.position));

/** The facts (`monthly_facts`) a caller may see: their client, sub-companies, cost centers and operator. */
export const factsInScope = (scope: Scope) =>
  scope.where({
    clientId: monthlyFacts.clientId,
    subCompanyId: monthlyFacts.subCompanyId,
    costCenterId: monthlyFacts.costCenterId,
    operatorId: monthlyFacts.operatorId,
  });

/**
 * Cost per cost category of the facts matching `where`, largest first, names in the caller's
 * language (null: cost elements not yet categorized, named by the web).
 */
export async function categoryCosts(db: Db, where: SQL | undefined, lang: Lang): Promise<CategoryCost[]> {
  const cost = sql`sum(${monthlyFacts.amount})`;
  const rows = await db
    .select({
      costCategoryId: monthlyFacts.costCategoryId,
      name: costCategories.name,
      nameFi: costCategories.nameFi,
      usageType: costCategories.usageType,
      cost: sql<string>`${cost}::text`,
    })
    .from(monthlyFacts)
    .leftJoin(costCategories, eq(costCategories.id, monthlyFacts.costCategoryId))
    .where(where)
    .groupBy(
      monthlyFacts.costCategoryId,
      costCategories.name,
      costCategories.nameFi,
      costCategories.usageType,
    )
    .orderBy(desc(cost), asc(monthlyFacts.costCategoryId));
  return rows.map((r) => ({
    costCategoryId: r.costCategoryId,
    name: (lang === 'fi' ? r.nameFi : r.name) ?? '',
    usageType: r.usageType,
    cost: r.cost,
  }));
}

/** One invoice in the caller's scope, or 404. */
async function invoiceInScope(db: Db, scope: Scope, id: number) {
  const [row] = await db
    .select(selection)
    .from(invoices)
    .where(and(eq(invoices.id, id), scopeOf(scope)));
  if (!row) throw notFound();
  return row;
}

/**
 * An invoice with its cost by category and its invoice-level lines. Its subscriptions and their
 * lines are paged (listInvoiceSubscriptions): a big invoice has tens of thousands of lines.
 */
export async function getInvoice(db: Db, scope: Scope, id: number, lang: Lang): Promise<InvoiceDetail> {
  const row = await invoiceInScope(db, scope, id);
  // Invoice-level lines belong to no sub-company: users limited to some don't see them, nor the
  // whole invoice's reconciliation (its sums are of every sub-company's lines).
  const limited = Boolean(scope.subCompanyIds || scope.costCenterIds);
  const [byCategory, otherLines, reconciliation, unconverted] = await Promise.all([
    categoryCosts(db, and(eq(monthlyFacts.invoiceId, id), factsInScope(scope)), lang),
    limited ? [] : linesWhere(db, and(eq(invoiceLines.invoiceId, id), isNull(invoiceLines.subscriptionId))),
    limited ? null : invoiceReconciliation(db, id),
    unconvertedLines(db, id, limited ? subscriptionsInScope(scope) : undefined),
  ]);
  return {
    ...toInvoice(row, lang),
    byCategory,
    otherLines: otherLines.map(({ subscriptionId: _, ...l }) => l),
    reconciliation,
    unconvertedLines: unconverted,
  };
}

const subscriptionsInScope = (scope: Scope) =>
  scope.where({
    clientId: subscriptions.clientId,
    subCompanyId: subscriptions.subCompanyId,
    costCenterId: subscriptions.costCenterId,
    operatorId: subscriptions.operatorId,
  });

const subscriptionTotal = sql`sum(${invoiceLines.amount})`;
const SUBSCRIPTION_SORT: Record<InvoiceSubscriptionsQuery['sort'], SQL | PgColumn> = {
  phoneNumber: subscriptions.phoneNumber,
  userName: subscriptions.userName,
  subCompanyName: subCompanies.name,
  costCenterName: costCenters.name,
  planName: plans.name,
  total: subscriptionTotal,
};

/**
 * The subscriptions on an invoice that the caller may see, a page at a time, each with its total
 * and its lines on this invoice; searched by phone number or user name.
 */
export async function listInvoiceSubscriptions(
  db: Db,
  scope: Scope,
  id: number,
  q: InvoiceSubscriptionsQuery,
): Promise<InvoiceSubscriptionList> {
  await invoiceInScope(db, scope, id);
  const where = and(
    eq(invoiceLines.invoiceId, id),
    subscriptionsInScope(scope),
    q.q
      ? or(
          ilike(subscriptions.phoneNumber, containsPattern(q.q)),
          ilike(subscriptions.userName, containsPattern(q.q)),
        )
      : undefined,
  );
  const [{ n }] = await db
    .select({ n: sql<number>`count(distinct ${invoiceLines.subscriptionId})::int` })
    .from(invoiceLines)
    .innerJoin(subscriptions, eq(subscriptions.id, invoiceLines.subscriptionId))
    .where(where);
  const dir = q.order === 'asc' ? asc : desc;
  const rows = await db
    .select({
      subscriptionId: subscriptions.id,
      ...SUBSCRIPTION_NAMES,
      planName: plans.name,
      total: sql<string>`${subscriptionTotal}::text`,
    })
    .from(invoiceLines)
    .innerJoin(subscriptions, eq(subscriptions.id, invoiceLines.subscriptionId))
    .leftJoin(subCompanies, eq(subCompanies.id, subscriptions.subCompanyId))
    .leftJoin(costCenters, eq(costCenters.id, subscriptions.costCenterId))
    .leftJoin(plans, eq(plans.id, subscriptions.currentPlanId))
    .where(where)
    .groupBy(subscriptions.id, subCompanies.name, costCenters.name, plans.name)
    .orderBy(dir(SUBSCRIPTION_SORT[q.sort]), asc(subscriptions.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const lines = rows.length
    ? await linesWhere(
        db,
        and(
          eq(invoiceLines.invoiceId, id),
          inArray(
            invoiceLines.subscriptionId,
            rows.map((r) => r.subscriptionId),
          ),
        ),
      )
    : [];
  const bySubscription = new Map<number, InvoiceLineRow[]>();
  for (const { subscriptionId, ...line } of lines) {
    const list = bySubscription.get(subscriptionId!) ?? [];
    list.push(line);
    bySubscription.set(subscriptionId!, list);
  }
  return {
    items: rows.map((r) => ({ ...r, lines: bySubscription.get(r.subscriptionId) ?? [] })),
    total: n,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** The stored PDF of an invoice in the caller's scope. */
export async function invoiceFile(db: Db, scope: Scope, id: number) {
  const [row] = await db
    .select({ name: files.name, fileId: files.id, mime: files.mime })
    .from(invoices)
    .innerJoin(files, eq(files.id, invoices.fileId))
    .where(and(eq(invoices.id, id), scopeOf(scope)));
  if (!row) throw notFound();
  const data = await readFileData(db, row.fileId);
  if (!data) throw new AppError(404, 'invoiceFileRemoved');
  // Only the two types an upload can store; anything else is served as bytes, never rendered.
  const mime = row.mime === 'application/xml' ? row.mime : 'application/pdf';
  return { name: row.name, data, mime };
}

/** Row counts of everything an import writes (tests: a failed import leaves these unchanged). */
export async function importFootprint(db: Db) {
  const n = async (
    t: typeof invoiceLines | typeof subscriptions | typeof monthlyFacts | typeof costElements,
  ) => (await db.select({ n: count() }).from(t))[0].n;
  return {
    invoiceLines: await n(invoiceLines),
    subscriptions: await n(subscriptions),
    monthlyFacts: await n(monthlyFacts),
    costElements: await n(costElements),
  };
}
