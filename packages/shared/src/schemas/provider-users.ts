import { z } from 'zod';
import { ALL_PERMISSIONS, ROLE_PERMISSIONS } from '../permissions.js';
import { ROLE } from '../roles.js';
import { emailSchema, phoneSchema, userSortable } from './auth.js';
import { enumWithDefault, listResponseSchemaOf, optionSchema, reqText } from './masters/common.js';
import { blankAsNull, idSchema, listQuery, notBlank, savedAnswer, searchText } from './primitives.js';

/**
 * The provider's own users (issue 11, spec §2 "user management with access permissions"): its
 * admins and consultants, each with the access permissions chosen for them within their role's
 * set, and a consultant's personally assigned companies. Design: docs/decisions/0012-provider-users.md.
 */

export const PROVIDER_USER_ROLES = ['admin', 'consultant'] as const;
export type ProviderUserRole = (typeof PROVIDER_USER_ROLES)[number];

/** The role id stored on the user for each role of the form. */
export const PROVIDER_ROLE_IDS = {
  admin: ROLE.providerAdmin,
  consultant: ROLE.consultant,
} as const satisfies Record<ProviderUserRole, number>;

/** What each role can be given (its role set; spec §6 and the consultant's exclusions). */
export const providerRolePermissions = (role: ProviderUserRole): readonly string[] =>
  ROLE_PERMISSIONS[PROVIDER_ROLE_IDS[role]];

export const PROVIDER_USER_STATUSES = ['active', 'inactive'] as const;
export type ProviderUserStatus = (typeof PROVIDER_USER_STATUSES)[number];

export const PROVIDER_USER_SORTABLE = userSortable('role', 'status');
export type ProviderUserSortKey = (typeof PROVIDER_USER_SORTABLE)[number];

export const providerUserListQuerySchema = listQuery(PROVIDER_USER_SORTABLE, {
  /** Name, email or contact number (contains, case-insensitive). */
  q: searchText.optional(),
  role: z.enum(PROVIDER_USER_ROLES).optional(),
  status: z.enum(PROVIDER_USER_STATUSES).optional(),
});
export type ProviderUserListQuery = z.infer<typeof providerUserListQuerySchema>;

/**
 * POST / PUT (PUT replaces every field). Permissions left out: the whole set of the role; each
 * must be in the role's set (checked by the API against the role chosen). Companies: a
 * consultant's assigned companies (an admin sees every client and has none).
 */
export const providerUserInputSchema = z.object({
  name: reqText(200),
  email: notBlank(emailSchema),
  contactNumber: blankAsNull(phoneSchema),
  role: z.enum(PROVIDER_USER_ROLES),
  status: enumWithDefault(PROVIDER_USER_STATUSES, 'active'),
  permissions: z
    .array(z.enum(ALL_PERMISSIONS as unknown as [string, ...string[]]))
    .max(100)
    .optional(),
  companyIds: z.array(idSchema).max(1000).default([]),
});
export type ProviderUserInput = z.input<typeof providerUserInputSchema>;
export type ProviderUserInputParsed = z.infer<typeof providerUserInputSchema>;

export const providerUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  contactNumber: z.string().nullable(),
  role: z.enum(PROVIDER_USER_ROLES),
  status: z.enum(PROVIDER_USER_STATUSES),
  /** false: the activation mail was sent and no password has been set yet. */
  activated: z.boolean(),
  /** The permissions the user holds (effective: their list within their role's set). */
  permissions: z.array(z.string()),
  /** A consultant's personally assigned companies (by name). */
  companies: z.array(optionSchema),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ProviderUser = z.infer<typeof providerUserSchema>;

export const providerUserListSchema = listResponseSchemaOf(providerUserSchema);
export type ProviderUserList = z.infer<typeof providerUserListSchema>;

export const providerUserSavedSchema = savedAnswer('user', providerUserSchema);
export type ProviderUserSaved = z.infer<typeof providerUserSavedSchema>;

/** The choices of the user form: the companies a consultant can be assigned, each role's permissions. */
export const providerUserOptionsSchema = z.object({
  companies: z.array(optionSchema),
  permissions: z.object({ admin: z.array(z.string()), consultant: z.array(z.string()) }),
});
export type ProviderUserOptions = z.infer<typeof providerUserOptionsSchema>;
