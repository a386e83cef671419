import { and, asc, eq, notExists, sql } from 'drizzle-orm';
import {
  DOCUMENT_MAX_BYTES,
  isDocumentName,
  isReminderBetween,
  operatorContractResource,
  type DocumentType,
  type OperatorContractUpdate,
  type OperatorDocument,
} from '@kulu/shared';
import { clientOperatorDocuments, clientOperators, files, operators, users } from '../../db/schema/index.js';
import type { Db, Executor } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import { nameOf, qualified, type ResourceDef } from '../../lib/resource/resource.service.js';
import type { Caller } from '../../types.js';
import { underClient } from './client-parent.js';
import { DOCUMENT_MIME, sniffDocument } from './document-type.js';

/**
 * Operator contract details of a client (spec §3, §5, §8; docs/decisions/0011-operator-contracts.md): one row per
 * operator the client has a contract with (client_operators), declared on the generic resource
 * mechanism (`operatorContractsDef`), and its documents (files in the database), a workflow
 * beside it. Every document function checks the client through the caller's Scope first; rows are
 * then read by client and operator, so another client's ids answer 404.
 */

const AREA = 'operatorContracts';
const FILE_KIND = 'operator-document';

/**
 * The contracts (spec §3, §5): a resource nested under its client, named by its operator
 * (`/:operatorId`: one row per operator, the key) and listed whole by operator name with the
 * operators the client has none with yet (`available`). PUT saves the details and adds the
 * contract when the client has none with that operator (an upsert; an unknown operator answers
 * 404). Spec §5: the end date reminder lies after the start and before the end (400
 * `operatorContractReminderDate`, checked before the operator).
 */
export const operatorContractsDef: ResourceDef = {
  meta: operatorContractResource,
  table: clientOperators,
  id: clientOperators.id,
  select: {
    id: clientOperators.id,
    clientId: clientOperators.clientId,
    operatorId: clientOperators.operatorId,
    operatorName: nameOf(operators.name, operators.id, clientOperators.operatorId),
    salesContactName: clientOperators.salesContactName,
    uploadInvoiceReminder: clientOperators.uploadInvoiceReminder,
    contractStartDate: clientOperators.contractStartDate,
    contractEndDate: clientOperators.contractEndDate,
    contractEndReminder: clientOperators.contractEndReminder,
    documentCount: sql<number>`(select count(*)::int from ${clientOperatorDocuments}
      where ${qualified(clientOperatorDocuments.clientOperatorId)} = ${qualified(clientOperators.id)})`,
  },
  // By the name as it is (not lower-cased), as the operators' own list.
  sortBy: { operatorName: nameOf(operators.name, operators.id, clientOperators.operatorId) },
  parent: underClient(clientOperators.clientId),
  key: { param: 'operatorId', column: clientOperators.operatorId, upsert: true, references: operators.id },
  // The values are the body's fields as they are (the columns of the same names).
  async validate(_tx, input) {
    const v = input as OperatorContractUpdate;
    if (
      v.contractEndReminder != null &&
      !isReminderBetween(v.contractEndReminder, v.contractStartDate, v.contractEndDate)
    ) {
      throw new AppError(400, 'operatorContractReminderDate', { contractEndReminder: 'invalid' });
    }
  },
  async totals(db, { parentId }) {
    const available = await db
      .select({ id: operators.id, name: operators.name })
      .from(operators)
      .where(
        notExists(
          db
            .select({ id: clientOperators.id })
            .from(clientOperators)
            .where(
              and(eq(clientOperators.clientId, parentId!), eq(clientOperators.operatorId, operators.id)),
            ),
        ),
      )
      .orderBy(asc(operators.name));
    return { available };
  },
  activityArea: AREA,
  activityEntity: 'operatorContract',
};

// ---- documents -----------------------------------------------------------------------------------

const documentColumns = {
  id: clientOperatorDocuments.id,
  name: clientOperatorDocuments.name,
  fileName: files.name,
  size: files.size,
  uploadedAt: clientOperatorDocuments.uploadedAt,
  uploadedBy: users.fullName,
};

const typeOf = (fileName: string) => fileName.slice(fileName.lastIndexOf('.') + 1) as DocumentType;

async function readDocuments(db: Executor, contractId: number, id?: number): Promise<OperatorDocument[]> {
  const rows = await db
    .select(documentColumns)
    .from(clientOperatorDocuments)
    .innerJoin(files, eq(files.id, clientOperatorDocuments.fileId))
    .leftJoin(users, eq(users.id, clientOperatorDocuments.uploadedBy))
    .where(
      and(
        eq(clientOperatorDocuments.clientOperatorId, contractId),
        id == null ? undefined : eq(clientOperatorDocuments.id, id),
      ),
    )
    .orderBy(asc(sql`lower(${clientOperatorDocuments.name})`), asc(clientOperatorDocuments.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    type: typeOf(r.fileName),
    size: r.size,
    uploadedAt: new Date(r.uploadedAt).toISOString(),
    uploadedBy: r.uploadedBy ?? null,
  }));
}

/**
 * The client_operators row of the client and operator, else 404. The client is the route's
 * `:clientId`, already checked against the caller's Scope by the access plugin (`config.client`).
 */
async function contractId(db: Executor, clientId: number, operatorId: number): Promise<number> {
  const [row] = await db
    .select({ id: clientOperators.id })
    .from(clientOperators)
    .where(and(eq(clientOperators.clientId, clientId), eq(clientOperators.operatorId, operatorId)));
  if (!row) throw notFound();
  return row.id;
}

export async function listDocuments(
  db: Db,
  clientId: number,
  operatorId: number,
): Promise<OperatorDocument[]> {
  return readDocuments(db, await contractId(db, clientId, operatorId));
}

/** Checks that the document exists under the client's operator contract (404 otherwise). */
export async function getDocument(
  db: Db,
  clientId: number,
  operatorId: number,
  id: number,
): Promise<OperatorDocument> {
  const [d] = await readDocuments(db, await contractId(db, clientId, operatorId), id);
  if (!d) throw notFound();
  return d;
}

export interface DocumentUpload {
  /** The name typed in (alphanumeric, spec §5), already trimmed. */
  name: string;
  /** The uploaded file's own name: its extension must agree with the content. */
  fileName: string;
  data: Buffer;
}

const extensionOf = (fileName: string) => {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};

const isUniqueViolation = (err: unknown): boolean => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
};

/**
 * Stores a document of the client's operator contract. Refused (spec §5, §8): a name that is not
 * alphanumeric (400 `documentNameInvalid`), a file over 10 MB (400 `documentTooLarge`), a type
 * other than doc, docx, xls, xlsx, csv, pdf by content, or a file whose extension disagrees with
 * its content (400 `documentType`), a name already used on this operator contract, whatever
 * its case (409 `documentNameExists`).
 */
export async function uploadDocument(
  db: Db,
  me: Caller,
  clientId: number,
  operatorId: number,
  upload: DocumentUpload,
): Promise<OperatorDocument> {
  const contract = await contractId(db, clientId, operatorId);
  if (!isDocumentName(upload.name)) throw new AppError(400, 'documentNameInvalid', { name: 'invalid' });
  if (upload.data.length > DOCUMENT_MAX_BYTES)
    throw new AppError(400, 'documentTooLarge', { file: 'invalid' });
  const type = sniffDocument(upload.data);
  if (!type || extensionOf(upload.fileName) !== type) {
    throw new AppError(400, 'documentType', { file: 'invalid' });
  }
  const duplicate = async (tx: Executor) => {
    const [same] = await tx
      .select({ id: clientOperatorDocuments.id })
      .from(clientOperatorDocuments)
      .where(
        and(
          eq(clientOperatorDocuments.clientOperatorId, contract),
          sql`lower(${clientOperatorDocuments.name}) = lower(${upload.name})`,
        ),
      );
    return !!same;
  };
  if (await duplicate(db)) throw new AppError(409, 'documentNameExists', { name: 'invalid' });
  try {
    return await db.transaction(async (tx) => {
      const [file] = await tx
        .insert(files)
        .values({
          clientId,
          kind: FILE_KIND,
          name: `${upload.name}.${type}`,
          mime: DOCUMENT_MIME[type],
          size: upload.data.length,
          data: upload.data,
        })
        .returning({ id: files.id });
      const [row] = await tx
        .insert(clientOperatorDocuments)
        .values({
          clientId,
          clientOperatorId: contract,
          name: upload.name,
          fileId: file.id,
          uploadedBy: me.user.id,
        })
        .returning({ id: clientOperatorDocuments.id });
      const [after] = await readDocuments(tx, contract, row.id);
      await logActivity(tx, {
        userId: me.user.id,
        clientId,
        area: AREA,
        action: 'upload',
        entity: 'operatorDocument',
        entityId: row.id,
        after: { ...after, operatorId },
      });
      return after;
    });
  } catch (err) {
    // Two uploads of one name at once: the unique index has the last word.
    if (isUniqueViolation(err)) throw new AppError(409, 'documentNameExists', { name: 'invalid' });
    throw err;
  }
}

/** A document's bytes with its download name and type. */
export async function documentContent(
  db: Db,
  clientId: number,
  operatorId: number,
  id: number,
): Promise<{ name: string; mime: string; data: Buffer }> {
  const contract = await contractId(db, clientId, operatorId);
  const [f] = await db
    .select({ name: files.name, mime: files.mime, data: files.data })
    .from(clientOperatorDocuments)
    .innerJoin(files, eq(files.id, clientOperatorDocuments.fileId))
    .where(and(eq(clientOperatorDocuments.id, id), eq(clientOperatorDocuments.clientOperatorId, contract)));
  if (!f) throw notFound();
  return f;
}

/** Deletes a document and its file (404 when it is not the client's). */
export async function deleteDocument(
  db: Db,
  me: Caller,
  clientId: number,
  operatorId: number,
  id: number,
): Promise<void> {
  const contract = await contractId(db, clientId, operatorId);
  await db.transaction(async (tx) => {
    const [before] = await readDocuments(tx, contract, id);
    if (!before) throw notFound();
    const [row] = await tx
      .delete(clientOperatorDocuments)
      .where(and(eq(clientOperatorDocuments.id, id), eq(clientOperatorDocuments.clientOperatorId, contract)))
      .returning({ fileId: clientOperatorDocuments.fileId });
    if (!row) throw notFound();
    await tx.delete(files).where(eq(files.id, row.fileId));
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'delete',
      entity: 'operatorDocument',
      entityId: id,
      before: { ...before, operatorId },
    });
  });
}
