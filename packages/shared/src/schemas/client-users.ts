import { z } from 'zod';
import { DEFAULT_CLIENT_USER_PERMISSIONS } from '../permissions.js';
import { emailSchema, phoneSchema } from './auth.js';
import { companyPermissionSchema } from './client-masters.js';
import {
  defineMaster,
  enumWithDefault,
  labelledBy,
  optId,
  optionSchema,
  optText,
  reqInt,
  reqText,
} from './masters/common.js';
import { idSchema, savedAnswer } from './primitives.js';

/**
 * Two sections of a client in Client Management (issue 11; spec §2 "sub-company management",
 * "additional users"; §3 Sub-company, Client user; §5; §8): the client's sub-companies and its
 * client users (the additional users a company has besides its admin), with the sub-companies
 * and cost centers each user is limited to and their access permissions.
 * Design: docs/decisions/0009-client-sections.md.
 */

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

// ---- sub-companies -------------------------------------------------------------------------------

export const SUB_COMPANY_SORTABLE = [
  'name',
  'numberOfUsers',
  'userCount',
  'billingPlanName',
  'createdAt',
] as const;

/** POST / PUT (PUT replaces every field): spec §3 Sub-company. The name is unique within the client. */
export const subCompanyInputSchema = z.object({
  name: reqText(200),
  /** Users (subscriptions) the sub-company is billed for. */
  numberOfUsers: reqInt(0, 1_000_000),
  /** A Client Billing Plan (optional). */
  billingPlanId: optId(),
});
export type SubCompanyInput = z.infer<typeof subCompanyInputSchema>;

export const subCompanySchema = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  name: z.string(),
  numberOfUsers: z.number().int(),
  billingPlanId: z.number().int().nullable(),
  billingPlanName: z.string().nullable(),
  /** Client users limited to this sub-company. */
  userCount: z.number().int(),
  createdAt: z.string(),
});
export type SubCompany = z.infer<typeof subCompanySchema>;

const sub = labelledBy('clients.subCompanies');

/**
 * A client's sub-companies as a resource nested under their client
 * (`/api/clients/:clientId/sub-companies`, the API's generic resource mechanism): searched by
 * name (contains, case-insensitive), the name unique within the client, kept while anything
 * refers to it.
 */
export const subCompanyResource = defineMaster({
  key: 'subCompanies',
  path: 'sub-companies',
  menuKey: 'clients',
  permission: 'clients.manage',
  searchable: ['name'],
  sortable: SUB_COMPANY_SORTABLE,
  defaultSort: 'name',
  filters: {},
  columns: [
    sub.col('name'),
    sub.col('numberOfUsers', 'integer'),
    sub.col('userCount', 'integer'),
    sub.col('billingPlanName', 'text', { labelKey: sub.labelKey('billingPlanId') }),
  ],
  fields: [
    sub.field('name', 'text', { required: true, maxLength: 200 }),
    sub.field('numberOfUsers', 'integer', { required: true }),
    sub.field('billingPlanId', 'ref'),
  ],
  messages: {
    created: 'subCompanyAdded',
    updated: 'subCompanyUpdated',
    deleted: 'subCompanyDeleted',
    duplicate: 'subCompanyNameExists',
    inUse: 'subCompanyInUse',
  },
  savedAs: 'subCompany',
  entity: subCompanySchema,
  create: subCompanyInputSchema,
});

export const subCompanyListSchema = subCompanyResource.list;
export type SubCompanyList = z.infer<typeof subCompanyListSchema>;

export const subCompanySavedSchema = savedAnswer('subCompany', subCompanySchema);
export type SubCompanySaved = z.infer<typeof subCompanySavedSchema>;

/** The choices of the two sections' forms: billing plans, sub-companies, cost centers, permissions. */
export const clientUserOptionsSchema = z.object({
  billingPlans: z.array(optionSchema),
  subCompanies: z.array(optionSchema),
  costCenters: z.array(
    z.object({ id: z.number().int(), name: z.string(), subCompanyId: z.number().int().nullable() }),
  ),
  /** The access permissions the caller may give a client user (spec §6, what a company may have). */
  permissions: z.array(z.string()),
});
export type ClientUserOptions = z.infer<typeof clientUserOptionsSchema>;

// ---- client users ---------------------------------------------------------------------------------

export const CLIENT_USER_STATUSES = ['active', 'inactive'] as const;
export type ClientUserStatus = (typeof CLIENT_USER_STATUSES)[number];

export const CLIENT_USER_SORTABLE = [
  'name',
  'email',
  'status',
  'country',
  'createdAt',
  'lastLoginAt',
] as const;
export type ClientUserSortKey = (typeof CLIENT_USER_SORTABLE)[number];

const idList = z.array(idSchema).max(200).default([]);

/**
 * POST / PUT (PUT replaces every field): spec §3 Client user. No sub-companies (or cost centers)
 * chosen: the user sees the whole client. Permissions left out: the default set of a client user.
 */
export const clientUserInputSchema = z.object({
  name: reqText(200),
  email: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), emailSchema),
  address: optText(500, true),
  contactNumber: z.preprocess(blankToNull, phoneSchema.nullish()).transform((v) => v ?? null),
  country: optText(100),
  status: enumWithDefault(CLIENT_USER_STATUSES, 'active'),
  subCompanyIds: idList,
  costCenterIds: idList,
  permissions: z
    .array(companyPermissionSchema)
    .max(50)
    .default([...DEFAULT_CLIENT_USER_PERMISSIONS]),
});
export type ClientUserInput = z.infer<typeof clientUserInputSchema>;

export const clientUserSchema = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  name: z.string(),
  email: z.string(),
  address: z.string().nullable(),
  contactNumber: z.string().nullable(),
  country: z.string().nullable(),
  status: z.enum(CLIENT_USER_STATUSES),
  /** false: the activation mail was sent and no password has been set yet. */
  activated: z.boolean(),
  subCompanies: z.array(optionSchema),
  costCenters: z.array(optionSchema),
  permissions: z.array(z.string()),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ClientUser = z.infer<typeof clientUserSchema>;

const user = labelledBy('clients.users');

/**
 * A client's additional users as a resource nested under their client
 * (`/api/clients/:clientId/users`, the API's generic resource mechanism): the client's users with
 * the client-user role, searched by name, email or contact number (contains, case-insensitive),
 * filtered by status; never deleted (deactivated by a workflow of their own). The email is unique
 * among all users, whatever its case.
 */
export const clientUserResource = defineMaster({
  key: 'clientUsers',
  path: 'users',
  menuKey: 'clients',
  permission: 'clients.manage',
  searchable: ['name', 'email', 'contactNumber'],
  sortable: CLIENT_USER_SORTABLE,
  defaultSort: 'name',
  filters: { status: { type: 'enum', values: CLIENT_USER_STATUSES } },
  columns: [
    user.col('name'),
    user.col('email'),
    user.col('status', 'enum'),
    user.col('country'),
    user.col('lastLoginAt', 'date'),
  ],
  fields: [
    user.field('name', 'text', { required: true, maxLength: 200 }),
    user.field('email', 'text', { required: true }),
    user.field('address', 'text', { maxLength: 500 }),
    user.field('contactNumber', 'phone'),
    user.field('country', 'text', { maxLength: 100 }),
    user.field('status', 'enum'),
  ],
  messages: {
    created: 'clientUserAdded',
    updated: 'clientUserUpdated',
    // Never deleted (no delete route): the defaults stand in.
    deleted: 'deleted',
    duplicate: 'clientUserEmailExists',
    inUse: 'inUse',
  },
  savedAs: 'user',
  entity: clientUserSchema,
  create: clientUserInputSchema,
});

export const clientUserListQuerySchema = clientUserResource.listQuery;
export type ClientUserListQuery = z.infer<typeof clientUserListQuerySchema>;
export const clientUserListSchema = clientUserResource.list;
export type ClientUserList = z.infer<typeof clientUserListSchema>;

export const clientUserSavedSchema = savedAnswer('user', clientUserSchema);
export type ClientUserSaved = z.infer<typeof clientUserSavedSchema>;
