import { z } from 'zod';
import { COMPANY_PERMISSIONS } from '../permissions.js';
import { emailSchema, phoneSchema } from './auth.js';
import {
  DEFAULT_MESSAGES,
  defineMaster,
  labelledBy,
  optId,
  optMoney,
  reqId,
  reqText,
} from './masters/common.js';
import { placeInClient } from './dashboards.js';
import { normalizePhoneNumber } from './masters/resources.js';
import {
  blankAsNull,
  idSchema,
  listQuery,
  messageAnswer,
  named,
  namedOrNull,
  notBlank,
  savedAnswer,
  searchText,
} from './primitives.js';

/**
 * The company's client masters (issue 11, spec §2 `/company/client-masters`): Invoice User
 * Management (the subscriptions' users, their import from CSV or Excel, allow login) and Plan
 * Details / Edit Plan Details (each subscription's plan and contract price). A company works on
 * its own client; provider users (admin, consultant) name the client with `clientId`.
 * Design: docs/decisions/0008-client-masters.md.
 */

/** A phone number as typed or printed, stored in international form (+358…). */
export const invoiceUserPhone = notBlank(phoneSchema).transform(normalizePhoneNumber);

/** Permissions a client user may be given (what a company may ever have). */
export const companyPermissionSchema = z.enum(COMPANY_PERMISSIONS as unknown as [string, ...string[]]);

// ---- invoice users --------------------------------------------------------------------------------

export const INVOICE_USER_SORTABLE = ['name', 'phoneNumber', 'email', 'subCompany', 'costCenter'] as const;

/**
 * The filters of a list of the client's invoice users or subscriptions: the client (required for
 * provider users; client users get their own client), a search (contains, case-insensitive) and
 * the sub-company and cost center.
 */
const clientListFilters = {
  clientId: idSchema.optional(),
  q: searchText.optional(),
  subCompanyId: idSchema.optional(),
  costCenterId: idSchema.optional(),
};

/** `q` matches the name, phone number or email. */
export const invoiceUserListQuerySchema = listQuery(INVOICE_USER_SORTABLE, clientListFilters);
export type InvoiceUserListQuery = z.infer<typeof invoiceUserListQuerySchema>;

export const invoiceUserSchema = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  phoneNumber: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  ...placeInClient,
  mobileBenefit: z.boolean(),
  fiveGPlan: z.boolean(),
  allowLogin: z.boolean(),
  /** The subscription of the same number once an invoice has shown it. */
  subscriptionId: z.number().int().nullable(),
  /** The client user created by Allow login (null: none). */
  userId: z.number().int().nullable(),
  /** That user's state: invited (activation mail sent, no password yet), active, inactive. */
  loginStatus: z.enum(['invited', 'active', 'inactive']).nullable(),
  permissions: z.array(z.string()),
  updatedAt: z.string(),
});
export type InvoiceUser = z.infer<typeof invoiceUserSchema>;

/**
 * POST / PUT: every field (PUT is a full replacement). With `allowLogin` the email is required
 * (it becomes the login) and `permissions` are the client user's access permissions.
 */
export const invoiceUserInputSchema = z
  .object({
    /** Provider users name the client on create; ignored on update (the row keeps its client). */
    clientId: idSchema.optional(),
    name: reqText(200),
    phoneNumber: invoiceUserPhone,
    email: blankAsNull(emailSchema),
    subCompanyId: optId(),
    costCenterId: optId(),
    mobileBenefit: z.boolean().default(false),
    fiveGPlan: z.boolean().default(false),
    allowLogin: z.boolean().default(false),
    permissions: z.array(companyPermissionSchema).max(50).default([]),
  })
  .superRefine((v, ctx) => {
    if (v.allowLogin && !v.email)
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'string',
        input: undefined,
        path: ['email'],
        message: 'Invalid input: expected string, received undefined',
      });
  });
export type InvoiceUserInput = z.infer<typeof invoiceUserInputSchema>;

const iu = labelledBy('clientMasters');

/**
 * Invoice User Management as a resource of the API's generic mechanism (`/api/invoice-users`):
 * the rows of one client, named by the query (provider users) or the caller's own, and within
 * the caller's sub-companies and cost centers; searched by name, phone number or email (contains,
 * case-insensitive), filtered by sub-company and cost center. The phone number is unique within
 * the client. Writes answer `{ invoiceUser, code, message }`, a delete `{ id, code, message }`.
 */
const invoiceUserDeclaration = defineMaster({
  key: 'invoiceUsers',
  path: 'invoice-users',
  permission: 'clientMasters.invoiceUsers',
  searchable: ['name', 'phoneNumber', 'email'],
  sortable: INVOICE_USER_SORTABLE,
  defaultSort: 'name',
  filters: { subCompanyId: { type: 'id' }, costCenterId: { type: 'id' } },
  columns: [
    iu.col('name'),
    iu.col('phoneNumber'),
    iu.col('email'),
    iu.col('subCompanyName', 'text', { labelKey: iu.labelKey('subCompany') }),
    iu.col('costCenterName', 'text', { labelKey: iu.labelKey('costCenter') }),
    iu.col('mobileBenefit', 'boolean'),
    iu.col('fiveGPlan', 'boolean'),
    iu.col('allowLogin', 'boolean'),
  ],
  fields: [
    iu.field('name', 'text', { required: true, maxLength: 200 }),
    iu.field('phoneNumber', 'phone', { required: true }),
    iu.field('email', 'text'),
    iu.field('subCompanyId', 'ref', { labelKey: iu.labelKey('subCompany') }),
    iu.field('costCenterId', 'ref', { labelKey: iu.labelKey('costCenter'), dependsOn: 'subCompanyId' }),
    iu.field('mobileBenefit', 'boolean'),
    iu.field('fiveGPlan', 'boolean'),
    iu.field('allowLogin', 'boolean'),
  ],
  messages: {
    created: 'invoiceUserAdded',
    updated: 'invoiceUserUpdated',
    deleted: 'invoiceUserDeleted',
    duplicate: 'invoiceUserPhoneExists',
    inUse: 'inUse',
  },
  savedAs: 'invoiceUser',
  deleteAnswersId: true,
  entity: invoiceUserSchema,
  create: invoiceUserInputSchema,
});
/** The list query names the client too (`clientId`: provider users must). */
export const invoiceUserResource = { ...invoiceUserDeclaration, listQuery: invoiceUserListQuerySchema };

export const invoiceUserListSchema = invoiceUserResource.list;
export type InvoiceUserList = z.infer<typeof invoiceUserListSchema>;

export const invoiceUserSavedSchema = savedAnswer('invoiceUser', invoiceUserSchema);
export type InvoiceUserSaved = z.infer<typeof invoiceUserSavedSchema>;

// ---- import -----------------------------------------------------------------------------------------

/** Largest import file and most data rows (docs/decisions/0008-client-masters.md). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
/** Last column of a sheet that may hold a value (IV, Excel's old width). */
export const IMPORT_MAX_COLUMNS = 256;
/** Most invalid rows an answer lists (the count is always whole). */
export const IMPORT_MAX_REPORTED = 1_000;

export const importRowSchema = z.object({
  row: z.number().int(),
  name: z.string(),
  phoneNumber: z.string(),
  email: z.string().nullable(),
  subCompanyName: z.string().nullable(),
  costCenterName: z.string().nullable(),
  mobileBenefit: z.boolean(),
  fiveGPlan: z.boolean(),
  /** An existing user of the same number is updated (upsert by phone number). */
  update: z.boolean(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

export const importPreviewSchema = z.object({
  rows: z.number().int(),
  valid: z.number().int(),
  /** Of the valid rows: new users and updates of existing ones. */
  create: z.number().int(),
  update: z.number().int(),
  invalidCount: z.number().int(),
  /** Row numbers as the spreadsheet shows them (the header is row 1). */
  invalid: z.array(z.object({ row: z.number().int(), errors: z.array(z.string()) })),
  sample: z.array(importRowSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  ...messageAnswer.shape,
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const importQuerySchema = z.object({ clientId: idSchema.optional() });

// ---- plan details ------------------------------------------------------------------------------------

export const PLAN_DETAIL_SORTABLE = [
  'phoneNumber',
  'userName',
  'operatorName',
  'planName',
  'listPrice',
  'contractPrice',
] as const;

/** `q` matches the number, user or plan. */
export const planDetailListQuerySchema = listQuery(PLAN_DETAIL_SORTABLE, clientListFilters);
export type PlanDetailListQuery = z.infer<typeof planDetailListQuerySchema>;

/** Money as decimal strings in euros ("15.90"). */
export const planDetailSchema = z.object({
  subscriptionId: z.number().int(),
  clientId: z.number().int(),
  phoneNumber: z.string(),
  /** The invoice user's name where one is kept, else the name the invoice printed. */
  userName: z.string(),
  ...named('operator'),
  subCompanyName: z.string().nullable(),
  costCenterName: z.string().nullable(),
  ...namedOrNull('plan'),
  listPrice: z.string().nullable(),
  /** The client's contract price of the plan (null: none agreed, the list price applies). */
  contractPrice: z.string().nullable(),
});
export type PlanDetail = z.infer<typeof planDetailSchema>;

/** A plan the subscription may be put on: its operator's, the client's own rows overriding by name. */
export const planChoiceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  listPrice: z.string(),
  contractPrice: z.string().nullable(),
  customerSpecific: z.boolean(),
  /** Subscriptions of the client on this plan (a contract price applies to all of them). */
  subscriptions: z.number().int(),
});
export type PlanChoice = z.infer<typeof planChoiceSchema>;

/** Edit Plan Details: the plan and the client's contract price of it (blank: none, list price). */
export const planDetailUpdateSchema = z.object({
  planId: reqId(),
  contractPrice: optMoney(2),
});
export type PlanDetailUpdate = z.infer<typeof planDetailUpdateSchema>;

const pd = labelledBy('planDetails');

/**
 * Plan Details as a declared list (`/api/plan-details`, the client named by the query for
 * provider users): a row per subscription (keyed by `subscriptionId`), searched by number, user or
 * plan; never added or deleted, only edited (Edit Plan Details, which queues re-optimization).
 */
const planDetailDeclaration = defineMaster({
  key: 'planDetails',
  path: 'plan-details',
  permission: 'clientMasters.planDetails',
  searchable: ['phoneNumber', 'userName', 'planName'],
  sortable: PLAN_DETAIL_SORTABLE,
  defaultSort: 'phoneNumber',
  filters: {},
  columns: [
    pd.col('phoneNumber'),
    pd.col('userName', 'text', { labelKey: pd.labelKey('user') }),
    pd.col('operatorName', 'text', { labelKey: pd.labelKey('operator') }),
    pd.col('planName', 'text', { labelKey: pd.labelKey('plan') }),
    pd.col('listPrice', 'money'),
    pd.col('contractPrice', 'money'),
  ],
  fields: [
    pd.field('planId', 'ref', { labelKey: pd.labelKey('plan'), required: true }),
    pd.field('contractPrice', 'money'),
  ],
  // Never added or deleted, never a duplicate: the defaults stand in.
  messages: { ...DEFAULT_MESSAGES, created: 'planDetailsUpdated', updated: 'planDetailsUpdated' },
  savedAs: 'planDetail',
  entity: planDetailSchema,
  create: planDetailUpdateSchema,
});
/** The list query names the client too (`clientId`: provider users must). */
export const planDetailResource = { ...planDetailDeclaration, listQuery: planDetailListQuerySchema };

export const planDetailListSchema = planDetailResource.list;
export type PlanDetailList = z.infer<typeof planDetailListSchema>;

export const planDetailSavedSchema = z.object({
  planDetail: planDetailSchema,
  /** Whether the client's re-optimization was queued. */
  reoptimization: z.boolean(),
  ...messageAnswer.shape,
});
export type PlanDetailSaved = z.infer<typeof planDetailSavedSchema>;
