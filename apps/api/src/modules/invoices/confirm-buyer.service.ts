import { and, eq } from 'drizzle-orm';
import type { ActivityAction, MessageCode } from '@kulu/shared';
import { clientOperators, files, invoices } from '../../db/schema/index.js';
import type { Tx } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';
import type { Deps } from '../../types.js';
import { queueParse } from './invoices.service.js';

/** The code of the one refusal a company admin may overrule (import.service.ts `checkBuyer`). */
export const CONFIRMABLE_CODE = 'invoiceBuyerUnknown';

/** The refusal a contract with the invoice's operator lifts (issue 38, item 7). */
export const NO_CONTRACT_CODE = 'invoiceOperatorNoContract';

type Head = { clientId: number; operatorId: number | null; fileName: string; buyerName: string | null };

/**
 * Reads a failed invoice again: only one refused as `refusal` (else 409 `notThat`), whose file is
 * still kept (409 `invoiceFileRemoved`), in the caller's Scope (else 404). `check` may refuse it
 * further; `set` is what the invoice keeps of the decision. Logged as `action`; the parse is queued.
 */
async function readAgain(
  deps: Deps,
  scope: Scope,
  id: number,
  userId: number,
  how: {
    refusal: MessageCode;
    notThat: MessageCode;
    action: ActivityAction;
    check?: (tx: Tx, head: Head) => Promise<void>;
    set?: Partial<typeof invoices.$inferInsert>;
  },
): Promise<void> {
  const { db } = deps.database;
  await db.transaction(async (tx) => {
    const [head] = await tx
      .select({
        clientId: invoices.clientId,
        operatorId: invoices.operatorId,
        state: invoices.uploadState,
        errorCode: invoices.errorCode,
        fileSize: files.size,
        fileName: invoices.fileName,
        buyerName: invoices.customerName,
      })
      .from(invoices)
      .innerJoin(files, eq(files.id, invoices.fileId))
      .where(
        and(
          eq(invoices.id, id),
          scope.where({ clientId: invoices.clientId, subCompanyId: invoices.subCompanyId }),
        ),
      )
      .for('update', { of: invoices });
    if (!head) throw notFound();
    if (head.state !== 'failed' || head.errorCode !== how.refusal) throw new AppError(409, how.notThat);
    // The file of a failed invoice is removed after some days: then there is nothing to read.
    if (!head.fileSize) throw new AppError(409, 'invoiceFileRemoved');
    await how.check?.(tx, head);
    await tx
      .update(invoices)
      .set({
        ...how.set,
        uploadState: 'in_progress',
        parsingStatus: 'pending',
        errorCode: null,
        errorMessage: null,
        parsedAt: null,
      })
      .where(eq(invoices.id, id));
    await logActivity(tx, {
      userId,
      clientId: head.clientId,
      area: 'invoices',
      action: how.action,
      entity: 'invoice',
      entityId: id,
      before: { fileName: head.fileName, buyerName: head.buyerName },
    });
  });
  try {
    await queueParse(deps, id);
  } catch {
    // The row is committed in progress: the start-up sweep re-enqueues in-progress invoices.
    console.error(`${how.action}: the parse job of invoice ${id} could not be queued`);
  }
}

/**
 * A company admin (or the provider: `invoices.delete`, the permission that decides a failed
 * invoice's fate) confirms that an invoice refused as `invoiceBuyerUnknown` — a PDF printing no
 * business id and another buyer's name — is the company's all the same: who and when are kept on
 * the invoice, it is read again, and its import skips the name check (issue 37, item 11). Only
 * that refusal can be confirmed (409 `invoiceBuyerNotConfirmable`); a business id printed for
 * another company is never overruled. Another client's invoice answers 404. Logged.
 */
export async function confirmInvoiceBuyer(
  deps: Deps,
  scope: Scope,
  id: number,
  userId: number,
): Promise<void> {
  await readAgain(deps, scope, id, userId, {
    refusal: CONFIRMABLE_CODE,
    notThat: 'invoiceBuyerNotConfirmable',
    action: 'confirm_buyer',
    set: { buyerConfirmedBy: userId, buyerConfirmedAt: deps.now() },
  });
}

/**
 * The way forward of an invoice refused because the company had no contract with its operator
 * (issue 38, item 7): once the contract is added (the operator contracts' own PUT), the invoice is
 * read again. Only that refusal (409 `invoiceNotRereadable`); still no contract with the operator
 * the refusal recorded: 409 `invoiceOperatorNoContract`. Another client's invoice answers 404. Logged.
 */
export async function readInvoiceAgain(deps: Deps, scope: Scope, id: number, userId: number): Promise<void> {
  await readAgain(deps, scope, id, userId, {
    refusal: NO_CONTRACT_CODE,
    notThat: 'invoiceNotRereadable',
    action: 'read_again',
    async check(tx, head) {
      const [contract] =
        head.operatorId == null
          ? []
          : await tx
              .select({ id: clientOperators.id })
              .from(clientOperators)
              .where(
                and(
                  eq(clientOperators.clientId, head.clientId),
                  eq(clientOperators.operatorId, head.operatorId),
                ),
              );
      if (!contract) throw new AppError(409, NO_CONTRACT_CODE);
    },
  });
}
