import { z } from 'zod';
import { isValidBusinessId } from '../business-id.js';
import { emailSchema, profilePhoneSchema } from './auth.js';
import { enumWithDefault, listResponseSchemaOf, optId, optText, reqEnum, reqText } from './masters/common.js';
import {
  blankAsNull,
  blankToNull,
  idSchema,
  listQuery,
  messageAnswer,
  notBlank,
  savedAnswer,
  searchText,
  text,
} from './primitives.js';

/**
 * Client management (issue 11; spec §2 Client Management, Interested Clients, Add Customer; §3
 * Client; §4; §5; §8). One schema for the API's requests and answers and the web's forms.
 * Design: docs/decisions/0007-client-management.md.
 */

/** What a converted client is (clients.interest_status once converted); also the list's tabs. */
export const CLIENT_KINDS = ['lead', 'company', 'consultant'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];
export const CLIENT_TABS = ['all', ...CLIENT_KINDS] as const;
export type ClientTab = (typeof CLIENT_TABS)[number];
export const INTEREST_STATUSES = ['not_converted', ...CLIENT_KINDS] as const;
export const PROFILE_STATUSES = ['active', 'terminated'] as const;
export const LEAD_STATUSES = ['hot', 'cold', 'lost'] as const;
export const UPLOAD_METHODS = ['manual', 'automation'] as const;

/** A calendar day, `YYYY-MM-DD`, that exists (2026-02-30 does not). */
export const dayString = z.string().refine((s) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
});
/** A required day: missing or blank is "required", a wrong one "invalid". */
export const reqDay = () => notBlank(dayString);
/** An optional day: missing or blank is null. */
export const optDay = () => blankAsNull(dayString);

/** Finnish business id (Y-tunnus) with its check digit; missing is "required". */
export const clientBusinessId = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
  z.string().refine(isValidBusinessId),
);

// ---- list ------------------------------------------------------------------------------------

export const CLIENT_SORTABLE = [
  'companyName',
  'businessId',
  'email',
  'profileStatus',
  'leadStatus',
  'reminderDate',
  'createdAt',
] as const;
export type ClientSortKey = (typeof CLIENT_SORTABLE)[number];

export const clientListQuerySchema = listQuery(CLIENT_SORTABLE, {
  tab: z.enum(CLIENT_TABS).default('all'),
  q: searchText.optional(),
  profileStatus: z.enum(PROFILE_STATUSES).optional(),
  invoiceUploadMethod: z.enum(UPLOAD_METHODS).optional(),
  leadStatus: z.enum(LEAD_STATUSES).optional(),
});
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

/** Interested clients (Sign Up, not yet converted): the same paging, sort and search. */
export const interestedListQuerySchema = listQuery(CLIENT_SORTABLE, {
  q: searchText.optional(),
});
export type InterestedListQuery = z.infer<typeof interestedListQuerySchema>;

export const clientListItemSchema = z.object({
  id: z.number().int(),
  type: z.enum(['company', 'consultant']),
  kind: z.enum(INTEREST_STATUSES),
  companyName: z.string(),
  businessId: z.string(),
  providerAccountId: z.string().nullable(),
  email: z.string(),
  contactNumber: z.string().nullable(),
  adminName: z.string().nullable(),
  operatorName: z.string().nullable(),
  profileStatus: z.enum(PROFILE_STATUSES),
  leadStatus: z.enum(LEAD_STATUSES).nullable(),
  reminderDate: z.string().nullable(),
  invoiceUploadMethod: z.enum(UPLOAD_METHODS),
  createdAt: z.string(),
});
export type ClientListItem = z.infer<typeof clientListItemSchema>;

export const clientListSchema = listResponseSchemaOf(clientListItemSchema);
export type ClientList = z.infer<typeof clientListSchema>;

// ---- detail and profile ------------------------------------------------------------------------

/** The profile of spec §3 Client as the API answers it; the portal password is never answered. */
export const clientSchema = clientListItemSchema.extend({
  address: z.string().nullable(),
  country: z.string().nullable(),
  operatorId: z.number().int().nullable(),
  billingPlanId: z.number().int().nullable(),
  portalUrl: z.string().nullable(),
  portalUsername: z.string().nullable(),
  hasPortalPassword: z.boolean(),
  convertedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type Client = z.infer<typeof clientSchema>;

const profileFields = {
  companyName: reqText(200),
  businessId: clientBusinessId,
  providerAccountId: optText(50),
  address: optText(500, true),
  country: optText(100),
  operatorId: optId(),
  adminName: optText(200),
  contactNumber: blankAsNull(profilePhoneSchema),
  email: z.preprocess(blankToNull, emailSchema),
  profileStatus: enumWithDefault(PROFILE_STATUSES, 'active'),
  leadStatus: blankAsNull(z.enum(LEAD_STATUSES)),
  reminderDate: optDay(),
  billingPlanId: optId(),
  invoiceUploadMethod: enumWithDefault(UPLOAD_METHODS, 'manual'),
  /** The operator portal, for automated upload (the connector signs in there). */
  portalUrl: blankAsNull(text({ max: 500 }).url()),
  portalUsername: optText(200),
  /** Left out (or blank) on update: the stored password is kept. */
  portalPassword: blankAsNull(text({ max: 200, trim: false })),
};

/**
 * Spec §5: operator portal username and password are required when the invoice method is
 * automation (and the operator and portal address the connector needs). The password may be
 * left out when one is stored already: the API checks that.
 */
const automationNeeds = (
  v: {
    invoiceUploadMethod: string;
    operatorId: number | null;
    portalUrl: string | null;
    portalUsername: string | null;
  },
  ctx: z.RefinementCtx,
) => {
  if (v.invoiceUploadMethod !== 'automation') return;
  for (const key of ['operatorId', 'portalUrl', 'portalUsername'] as const) {
    // Answered as the field's "required" ('{name} is required'), like a missing field.
    if (v[key] == null)
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'string',
        input: undefined,
        path: [key],
        message: 'Invalid input: expected string, received undefined',
      });
  }
};

/** PUT /api/clients/:id: the whole profile (the form always sends every field). */
export const clientUpdateSchema = z.object(profileFields).superRefine(automationNeeds);
export type ClientUpdate = z.infer<typeof clientUpdateSchema>;

/**
 * POST /api/clients (Add Customer): the profile, what the customer is, and its first user (the
 * admin name and the email), who gets the activation mail and sets a password from the link.
 */
export const clientCreateSchema = z
  .object({
    ...profileFields,
    kind: reqEnum(CLIENT_KINDS),
    adminName: reqText(200),
  })
  .superRefine(automationNeeds);
export type ClientCreate = z.infer<typeof clientCreateSchema>;

export const clientSavedSchema = savedAnswer('client', clientSchema);
export type ClientSaved = z.infer<typeof clientSavedSchema>;

// ---- interested clients --------------------------------------------------------------------------

export const convertSchema = z.object({ to: reqEnum(CLIENT_KINDS) });
export type ConvertRequest = z.infer<typeof convertSchema>;

/** The success message of each conversion (spec §8 "lead conversion"). */
export const CONVERTED_MESSAGE = {
  lead: 'convertedToLead',
  company: 'convertedToCompany',
  consultant: 'convertedToConsultant',
} as const satisfies Record<ClientKind, string>;

// ---- assign companies ----------------------------------------------------------------------------

export const assignedCompaniesSchema = z.object({
  clientIds: z.array(idSchema).max(10_000),
});
export type AssignedCompaniesInput = z.infer<typeof assignedCompaniesSchema>;

export const assignedCompaniesViewSchema = z.object({
  consultantClientId: z.number().int(),
  companies: z.array(z.object({ id: z.number().int(), name: z.string(), businessId: z.string() })),
});
export type AssignedCompanies = z.infer<typeof assignedCompaniesViewSchema>;

export const assignedCompaniesSavedSchema = assignedCompaniesViewSchema.extend(messageAnswer.shape);
