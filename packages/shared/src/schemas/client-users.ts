import { z } from 'zod';
import { DEFAULT_CLIENT_USER_PERMISSIONS } from '../permissions.js';
import { emailSchema, phoneSchema, userSortable } from './auth.js';
import { companyPermissionSchema } from './client-masters.js';
import {
  DEFAULT_MESSAGES,
  defineMaster,
  enumWithDefault,
  labelledBy,
  type MasterMessages,
  type MasterMeta,
  optId,
  optionSchema,
  optText,
  reqInt,
  reqText,
} from './masters/common.js';
import { idSchema, namedOrNull, savedAnswer } from './primitives.js';
import {
  PROVIDER_USER_ROLES,
  PROVIDER_USER_SORTABLE,
  PROVIDER_USER_STATUSES,
  providerUserInputSchema,
  providerUserSchema,
} from './provider-users.js';

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
  ...namedOrNull('billingPlan'),
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

export const CLIENT_USER_SORTABLE = userSortable('status', 'country');
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

/** What a user resource declares of its own (`userResource` adds what all of them share). */
type UserResourceOwn<
  E extends z.ZodObject,
  C extends z.ZodType,
  S extends readonly [string, ...string[]],
> = Omit<MasterMeta<E, C, S>, 'searchable' | 'defaultSort' | 'savedAs' | 'messages'> & {
  messages: Pick<MasterMessages, 'created' | 'updated' | 'duplicate'>;
};

/**
 * What a client's users and the provider's users declare alike: listed in Client Management,
 * searched by name, email or contact number (contains, case-insensitive), sorted by name, the
 * name and email first in the list and the form, the last login last in the list; never deleted
 * (deactivated by a workflow of their own: the default delete and in-use messages stand in);
 * writes answer `{ user, code, message }`. The email is unique among all users, whatever its case.
 * `declare` gives the rest, its columns and fields labelled `<prefix>.<key>` by `user`: those
 * between the email and the last login, and those after the email.
 */
const userResource = <
  E extends z.ZodObject,
  C extends z.ZodType,
  const S extends readonly ['name', ...string[]],
>(
  prefix: string,
  declare: (user: ReturnType<typeof labelledBy>) => UserResourceOwn<E, C, S>,
) => {
  const user = labelledBy(prefix);
  const own = declare(user);
  return defineMaster({
    searchable: ['name', 'email', 'contactNumber'],
    defaultSort: 'name',
    savedAs: 'user',
    ...own,
    columns: [user.col('name'), user.col('email'), ...own.columns, user.col('lastLoginAt', 'date')],
    fields: [
      user.field('name', 'text', { required: true, maxLength: 200 }),
      user.field('email', 'text', { required: true }),
      ...own.fields,
    ],
    messages: { ...DEFAULT_MESSAGES, ...own.messages },
  });
};

/**
 * A client's additional users as a resource nested under their client
 * (`/api/clients/:clientId/users`, the API's generic resource mechanism): the client's users with
 * the client-user role, filtered by status (the rest: `userResource`).
 */
export const clientUserResource = userResource('clients.users', (user) => ({
  key: 'clientUsers',
  path: 'users',
  permission: 'clients.manage',
  sortable: CLIENT_USER_SORTABLE,
  filters: { status: { type: 'enum', values: CLIENT_USER_STATUSES } },
  columns: [user.col('status', 'enum'), user.col('country')],
  fields: [
    user.field('address', 'text', { maxLength: 500 }),
    user.field('contactNumber', 'phone'),
    user.field('country', 'text', { maxLength: 100 }),
    user.field('status', 'enum'),
  ],
  messages: { created: 'clientUserAdded', updated: 'clientUserUpdated', duplicate: 'clientUserEmailExists' },
  entity: clientUserSchema,
  create: clientUserInputSchema,
}));

/**
 * The provider's own admins and consultants (issue 11; decisions/0012) as a declared resource
 * (`/api/provider-users`: the list query of `providerUserListQuerySchema`), filtered by role and
 * status (the rest: `userResource`). The role's permissions and a consultant's companies are the
 * web form's items beside these fields.
 */
export const providerUserResource = userResource('clients.providerUsers', (user) => ({
  key: 'providerUsers',
  path: 'provider-users',
  permission: 'users.manage',
  sortable: PROVIDER_USER_SORTABLE,
  filters: {
    role: { type: 'enum', values: PROVIDER_USER_ROLES },
    status: { type: 'enum', values: PROVIDER_USER_STATUSES },
  },
  columns: [user.col('role', 'enum'), user.col('status', 'enum')],
  fields: [
    user.field('contactNumber', 'phone'),
    user.field('role', 'enum', {
      required: true,
      options: PROVIDER_USER_ROLES.map((value) => ({ value, labelKey: user.labelKey(`roles.${value}`) })),
    }),
    user.field('status', 'enum'),
  ],
  messages: { created: 'providerUserAdded', updated: 'providerUserUpdated', duplicate: 'userEmailExists' },
  entity: providerUserSchema,
  create: providerUserInputSchema,
}));

export const clientUserListQuerySchema = clientUserResource.listQuery;
export type ClientUserListQuery = z.infer<typeof clientUserListQuerySchema>;
export const clientUserListSchema = clientUserResource.list;
export type ClientUserList = z.infer<typeof clientUserListSchema>;

export const clientUserSavedSchema = savedAnswer('user', clientUserSchema);
export type ClientUserSaved = z.infer<typeof clientUserSavedSchema>;
