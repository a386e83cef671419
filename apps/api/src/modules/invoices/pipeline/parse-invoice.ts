import { eq } from 'drizzle-orm';
import type { MessageCode } from '@kulu/shared';
import { invoices } from '../../../db/schema/index.js';
import { readFileData } from '../../../lib/files.js';
import { importParsedInvoice } from '../import.service.js';
import { ImportRefusal } from '../import-plan.js';
import { markFailed, notifyWaiting } from '../invoices.service.js';
import { requestOptimization } from '../../optimization/optimize.service.js';
import { requestAlertEvaluation } from '../../alerts/alerts.jobs.js';
import type { Deps } from '../../../types.js';
import type { JobHandler } from '../../../lib/queue.js';
import {
  lastParseStats,
  ParseFailure,
  parseInChild,
  type ParseFailureCode,
  type ParseLimits,
  warmParseChild,
} from './parse-runner.js';
import { PhaseClock, type PhaseLog } from '../../../lib/phases.js';
import { claimParseJob } from './parse-recovery.js';
import type { Config } from '../../../config.js';

export interface ParseInvoiceJob {
  invoiceId: number;
}

/** The message code the user sees for each parse failure; the parser's own message is the detail. */
const CODE_OF: Record<ParseFailureCode, MessageCode> = {
  not_a_pdf: 'invoiceNotPdf',
  unreadable_pdf: 'invoiceUnreadable',
  encrypted_pdf: 'invoiceEncrypted',
  not_a_valid_invoice: 'invalidInvoice',
  malformed_invoice: 'invoiceMalformed',
  reconciliation_failed: 'invoiceReconciliation',
  text_too_long: 'invoiceTextTooLong',
  unknown_file_type: 'invoiceUnknownFileType',
  xml_not_well_formed: 'invoiceXmlNotWellFormed',
  xml_doctype_refused: 'invoiceXmlDoctype',
  xml_unsupported_charset: 'invoiceXmlCharset',
  xml_charset_mismatch: 'invoiceXmlCharsetMismatch',
  xml_several_documents: 'invoiceXmlSeveral',
  xml_too_deep: 'invoiceXmlTooDeep',
  xml_too_large: 'invoiceXmlTooLarge',
  not_finvoice: 'invoiceNotFinvoice',
  finvoice_unsupported_version: 'invoiceFinvoiceVersion',
  finvoice_unsupported_type: 'invoiceFinvoiceType',
  finvoice_unknown_seller: 'invoiceUnknownSeller',
  finvoice_rows_mismatch: 'invoiceRowsMismatch',
  finvoice_vat_mismatch: 'invoiceVatMismatch',
  not_peppol: 'invoiceNotPeppol',
  peppol_unsupported_version: 'invoicePeppolVersion',
  peppol_unsupported_type: 'invoicePeppolType',
  peppol_unknown_seller: 'invoiceUnknownSeller',
  peppol_unsupported_currency: 'invoiceCurrency',
  timeout: 'invoiceParseTimeout',
  out_of_memory: 'invoiceExpandsTooMuch',
  expands_too_much: 'invoiceExpandsTooMuch',
  internal: 'invoiceFailed',
};

/**
 * Whether the database refused the data itself (SQLSTATE class 22 data exception, 23 integrity
 * constraint violation, 54 program limit exceeded such as an index row too large): the same
 * import fails the same way however often it is tried. Drizzle wraps the driver's error (`cause`).
 */
export function isDataError(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

type TimeConfig = Pick<
  Config,
  'PARSE_TIMEOUT_SECONDS' | 'PARSE_TIMEOUT_BASE_SECONDS' | 'PARSE_TIMEOUT_SECONDS_PER_MB'
>;

/**
 * The time limit of parsing a file of `bytes`: the base plus so much per MB, at most
 * PARSE_TIMEOUT_SECONDS. Whatever a PDF makes the reader do, its own bytes must describe (an
 * inflated stream is bounded by the inflate check, memory by the cap), so a tiny file that keeps
 * the reader busy (a page drawing nested forms 10^10 times) is stopped after seconds, not minutes,
 * and cannot hold the parse queue (issue 23, finding 3). With the defaults (5 s + 100 s/MB, at most
 * 120 s): a 2.5 KB file 5.2 s, a 100 KB invoice 15 s, 1.15 MB and more 120 s.
 */
export function parseTimeLimitSeconds(bytes: number, config: TimeConfig): number {
  const scaled =
    config.PARSE_TIMEOUT_BASE_SECONDS + (bytes / (1024 * 1024)) * config.PARSE_TIMEOUT_SECONDS_PER_MB;
  return Math.min(config.PARSE_TIMEOUT_SECONDS, Math.round(scaled * 10) / 10);
}

/** Limits of one parse (security baseline: a hostile PDF can neither hang, crash nor exhaust the server). */
export function parseLimits(
  config: TimeConfig & Pick<Config, 'PARSE_MAX_MEMORY_MB'>,
  bytes: number,
): ParseLimits {
  return {
    timeoutMs: parseTimeLimitSeconds(bytes, config) * 1000,
    maxMemoryMb: config.PARSE_MAX_MEMORY_MB,
  };
}

/**
 * parse-invoice: PDF → child-process parse (parse-runner.ts) → one import transaction → uploaded, or failed with the
 * reason. Idempotent: an invoice no longer in progress is not parsed again (a duplicate or retried
 * job only sends the pending notifications). Bad input fails at once; unexpected errors are
 * retried by the queue and mark the invoice failed on the last attempt. With `log`, each job ends
 * with one line of where its time went (lib/phases.ts): `queued` (created to taken), `claim`,
 * `read` (the file from the database), `parse` (`parse.start` of a child, `parse.child` in it,
 * `parse.ipc` the file's way there and the answer's back), `import` (its `import.*` steps, the last
 * `import.commit`), `optimize.enqueue`, `notify`.
 */
export function parseInvoiceHandler(deps: Deps, log?: PhaseLog): JobHandler<ParseInvoiceJob> {
  return async (job) => {
    const { invoiceId } = job.data;
    const { db } = deps.database;
    const clock = log ? new PhaseClock() : null;
    let bytes = 0;
    const lastAttempt = job.retryCount >= job.retryLimit;
    const [inv] = await db
      .select({ state: invoices.uploadState, fileId: invoices.fileId })
      .from(invoices)
      .where(eq(invoices.id, invoiceId));
    if (!inv) return;
    if (inv.state === 'in_progress') {
      const release = await claimParseJob(deps, job.id);
      clock?.lap('claim');
      try {
        // The child starts while the file is read (not after it).
        warmParseChild(parseLimits(deps.config, 0));
        const data = await readFileData(db, inv.fileId);
        if (!data) throw new Error('the invoice file is gone');
        bytes = data.length;
        clock?.lap('read');
        const parsed = await parseInChild(data, parseLimits(deps.config, data.length));
        if (clock) {
          clock.lap('parse');
          const { startMs = 0, childMs = 0, totalMs = 0 } = lastParseStats();
          clock.add('parse.start', startMs);
          clock.add('parse.child', childMs);
          clock.add('parse.ipc', totalMs - startMs - childMs);
        }
        const importBegan = performance.now();
        const done = await importParsedInvoice(
          db,
          invoiceId,
          parsed,
          deps.now(),
          clock ?? undefined,
          deps.config.CLIENT_COST_ELEMENTS_MAX,
        );
        if (clock) {
          clock.lap('import.commit');
          clock.add('import', performance.now() - importBegan);
        }
        // After commit: the client's results follow its new invoice (and open marks are realised).
        // A failed send leaves the run queued: the optimize sweep sends it (modules/optimization/optimize.jobs.ts).
        if (done.imported) {
          await requestOptimization(deps, done.clientId, 'import').catch((err: unknown) =>
            console.error('optimize-client: enqueue after import failed:', err),
          );
          clock?.lap('optimize.enqueue');
          // The alert rules of the invoice, in their own job (modules/alerts).
          await requestAlertEvaluation(deps, invoiceId).catch((err: unknown) =>
            console.error('evaluate-alerts: enqueue after import failed:', err),
          );
        }
      } catch (e) {
        if (e instanceof ParseFailure && (e.code !== 'internal' || lastAttempt)) {
          await markFailed(deps, invoiceId, CODE_OF[e.code], e.message);
        } else if (e instanceof ImportRefusal) {
          await markFailed(deps, invoiceId, e.code, e.message, e.buyer, e.known);
        } else if (isDataError(e) || lastAttempt) {
          // The database's own words (SQL, constraint and column names, ids) go to the server log
          // only; the company sees the reason in its language. A value the database refuses is
          // refused again on every retry, so it is not retried.
          console.error(`parse-invoice: invoice ${invoiceId} could not be imported:`, e);
          await markFailed(deps, invoiceId, isDataError(e) ? 'invoiceImportRefused' : 'invoiceFailed', null);
        } else {
          throw e;
        }
      } finally {
        release();
      }
    }
    await notifyWaiting(deps, invoiceId);
    if (clock && log) {
      clock.lap('notify');
      if (job.queuedMs != null) clock.add('queued', job.queuedMs);
      log({ job: 'parse-invoice', invoiceId, bytes, ...clock.fields() }, 'parse-invoice phases');
    }
  };
}
