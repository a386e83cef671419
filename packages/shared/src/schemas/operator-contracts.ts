import { z } from 'zod';
import { messageAnswer, named, savedAnswer } from './primitives.js';
import { DEFAULT_MESSAGES, defineMaster, labelledBy, optionSchema, optText } from './masters/common.js';
import { dayString, optDay } from './clients.js';

/**
 * Operator contract details of a client (issue 11; spec §3 "Operator contract details", §5
 * "Document name alphanumeric only, no symbols. Allowed document types: doc, docx, xls, xlsx,
 * csv, pdf", "operator contract reminder dates after start and before end", §8). One row per
 * operator the client has a contract with; documents belong to that row. One schema for the API
 * and the web forms.
 */

// ---- rules (pure) ------------------------------------------------------------------------------

/**
 * Spec §5: the contract end date reminder lies after the contract start and before its end (both
 * excluded), so it needs both dates. Days are `YYYY-MM-DD`, compared as strings.
 */
export const isReminderBetween = (reminder: string, start: string | null, end: string | null): boolean =>
  start != null && end != null && reminder > start && reminder < end;

/** The longest document name (characters). */
export const DOCUMENT_NAME_MAX = 100;
/** The largest document (bytes): 10 MB. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** The document types of spec §5, in the order they are named; told by content on upload. */
export const DOCUMENT_TYPES = ['doc', 'docx', 'xls', 'xlsx', 'csv', 'pdf'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
/** The file chooser's `accept` list (a hint only: the API decides by content). */
export const DOCUMENT_ACCEPT = DOCUMENT_TYPES.map((t) => `.${t}`).join(',');

/**
 * Spec §5 "alphanumeric only, no symbols": letters (Finnish ä, ö, å and other Unicode letters
 * included) and digits, with single spaces between words; no punctuation, dots, dashes or
 * underscores. Trimmed before the check. Uniqueness (per operator contract) ignores case.
 */
export const isDocumentName = (name: string): boolean =>
  name.length >= 1 && name.length <= DOCUMENT_NAME_MAX && /^[\p{L}\p{N}]+( [\p{L}\p{N}]+)*$/u.test(name);

/**
 * A name proposal from a chosen file's name: the extension dropped, every run of symbols a single
 * space, trimmed and shortened (the user may still change it).
 */
export const documentNameFromFile = (fileName: string): string =>
  (fileName.split(/[\\/]/).pop() ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, DOCUMENT_NAME_MAX)
    .trim();

// ---- requests ----------------------------------------------------------------------------------

/**
 * Update (or add, when the client has no contract with the operator yet) an operator contract: the
 * whole contract, as PUT says (a field left out is cleared).
 * The end not before the start is the field rule `contractEndDate: invalid`; the reminder rule
 * answers its own message (`operatorContractReminderDate`), checked by the API.
 */
export const operatorContractUpdateSchema = z
  // Unknown fields are refused: a misspelt field must not clear the contract's real one.
  .strictObject({
    salesContactName: optText(200),
    uploadInvoiceReminder: z.boolean().default(false),
    contractStartDate: optDay(),
    contractEndDate: optDay(),
    contractEndReminder: optDay(),
  })
  .refine((v) => !v.contractStartDate || !v.contractEndDate || v.contractEndDate >= v.contractStartDate, {
    path: ['contractEndDate'],
    message: 'invalid',
  });
export type OperatorContractUpdate = z.infer<typeof operatorContractUpdateSchema>;

/** The name field of a document upload (multipart field `name`). */
export const documentNameSchema = z
  .string()
  .transform((s) => s.trim())
  .refine(isDocumentName);

// ---- answers -----------------------------------------------------------------------------------

export const operatorContractSchema = z.object({
  /** The client's row of this operator (client_operators). */
  id: z.number().int(),
  clientId: z.number().int(),
  ...named('operator'),
  salesContactName: z.string().nullable(),
  uploadInvoiceReminder: z.boolean(),
  contractStartDate: dayString.nullable(),
  contractEndDate: dayString.nullable(),
  contractEndReminder: dayString.nullable(),
  documentCount: z.number().int(),
});
export type OperatorContract = z.infer<typeof operatorContractSchema>;

export const operatorContractListSchema = z.object({
  items: z.array(operatorContractSchema),
  /** Operators the client has no contract with yet (the provider may add one). */
  available: z.array(optionSchema),
});
export type OperatorContractList = z.infer<typeof operatorContractListSchema>;

export const operatorContractSavedSchema = savedAnswer('contract', operatorContractSchema);
export type OperatorContractSaved = z.infer<typeof operatorContractSavedSchema>;

export const operatorDocumentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(DOCUMENT_TYPES),
  size: z.number().int(),
  uploadedAt: z.string(),
  uploadedBy: z.string().nullable(),
});
export type OperatorDocument = z.infer<typeof operatorDocumentSchema>;

export const operatorDocumentListSchema = z.object({ items: z.array(operatorDocumentSchema) });
export type OperatorDocumentList = z.infer<typeof operatorDocumentListSchema>;

export const operatorDocumentSavedSchema = savedAnswer('document', operatorDocumentSchema);
export type OperatorDocumentSaved = z.infer<typeof operatorDocumentSavedSchema>;

export const operatorDocumentDeletedSchema = messageAnswer;

const contract = labelledBy('clients.operatorContracts');

/**
 * A client's operator contracts as a resource nested under their client
 * (`/api/clients/:clientId/operator-contracts`, the API's generic resource mechanism): keyed by
 * the operator (`/:operatorId`, one contract per operator), listed whole by operator name with the
 * operators the client has none with (`available`), saved by PUT, which adds the contract when
 * there is none (an upsert); never deleted here. Documents are a workflow beside it.
 */
export const operatorContractResource = defineMaster({
  key: 'operatorContracts',
  path: 'operator-contracts',
  permission: 'clientMasters.operatorContracts',
  searchable: [],
  sortable: ['operatorName'],
  defaultSort: 'operatorName',
  filters: {},
  columns: [
    contract.col('operatorName', 'text', { labelKey: contract.labelKey('operator') }),
    contract.col('salesContactName'),
    contract.col('uploadInvoiceReminder', 'boolean'),
    contract.col('contractStartDate', 'date'),
    contract.col('contractEndDate', 'date'),
    contract.col('contractEndReminder', 'date'),
  ],
  fields: [
    contract.field('salesContactName', 'text', { maxLength: 200 }),
    contract.field('uploadInvoiceReminder', 'boolean'),
    contract.field('contractStartDate', 'text'),
    contract.field('contractEndDate', 'text'),
    contract.field('contractEndReminder', 'text'),
  ],
  // Never deleted (no delete route), never a duplicate (one row per operator, by its key): the
  // defaults stand in.
  messages: { ...DEFAULT_MESSAGES, created: 'operatorContractSaved', updated: 'operatorContractSaved' },
  totals: operatorContractListSchema.pick({ available: true }).shape,
  savedAs: 'contract',
  entity: operatorContractSchema,
  create: operatorContractUpdateSchema,
});
