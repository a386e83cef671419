import { z } from 'zod';
import { idSchema, listQuery, named, pagedAnswer, searchText } from './primitives.js';
import { monthSchema } from './dashboards.js';

/**
 * Consultant Billing (spec §3 "Consultant billing row", issue 12): what the provider bills a
 * consultant (a client of type consultant) for a month, per company it manages, from the
 * consultant's client billing plan. Decision: docs/decisions/0014-consultant-billing.md.
 */
export const CONSULTANT_BILLING_SORTABLE = [
  'companyName',
  'businessId',
  'plans',
  'additionalUsers',
  'automatedUploads',
  'total',
] as const;

export const consultantBillingQuerySchema = listQuery(CONSULTANT_BILLING_SORTABLE, {
  /** The billing month, `YYYY-MM`; default the current month. */
  month: monthSchema.optional(),
  /** A consultant (client of type consultant); provider admins may leave it out for every one. */
  consultantId: idSchema.optional(),
  /** Company name or business id (contains, case-insensitive). */
  q: searchText.optional(),
});
export type ConsultantBillingQuery = z.infer<typeof consultantBillingQuerySchema>;

const money = z.string();

export const consultantBillingRowSchema = z.object({
  ...named('consultant'),
  companyId: z.number().int(),
  businessId: z.string(),
  companyName: z.string(),
  /** Subscriptions billed to the company in the month. */
  plans: z.number().int(),
  /** The company's active users beyond its administrators. */
  additionalUsers: z.number().int(),
  /** The company's invoices of the month retrieved by automation. */
  automatedUploads: z.number().int(),
  /** Assigned to the consultant in the month: the set-up fee per company applies. */
  isNew: z.boolean(),
  billingPlanName: z.string().nullable(),
  plansCost: money,
  additionalUsersCost: money,
  automatedUploadsCost: money,
  setUpCost: money,
  total: money,
});
export type ConsultantBillingRow = z.infer<typeof consultantBillingRowSchema>;

export const consultantBillingListSchema = z.object({
  month: z.string(),
  ...pagedAnswer(consultantBillingRowSchema, {
    totals: z.object({
      companies: z.number().int(),
      plans: z.number().int(),
      additionalUsers: z.number().int(),
      automatedUploads: z.number().int(),
      newCompanies: z.number().int(),
      total: money,
    }),
  }).shape,
});
export type ConsultantBillingList = z.infer<typeof consultantBillingListSchema>;

export const consultantBillingOptionsSchema = z.object({
  consultants: z.array(z.object({ id: z.number().int(), name: z.string(), businessId: z.string() })),
});
export type ConsultantBillingOptions = z.infer<typeof consultantBillingOptionsSchema>;
