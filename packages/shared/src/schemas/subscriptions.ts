import { z } from 'zod';
import { named } from './primitives.js';
import { monthSchema, periodError, periodRule, placeInClient, usedQuantities } from './dashboards.js';
import { categoryCostSchema } from './invoices.js';
import { OPTIMIZATION_TABS, optimizationItemSchema } from './optimization.js';

/**
 * Subscription detail (issue 10). Money travels as decimal strings in euros
 * ("12.90"), usage as numbers (minutes, pieces, megabytes), as in the dashboards.
 */

const money = z.string();

/** `from`/`to` (YYYY-MM) limit the cost by category; without them: every month it was billed. */
export const subscriptionDetailQuerySchema = z
  .object({ from: monthSchema.optional(), to: monthSchema.optional() })
  .refine(periodRule, periodError);
export type SubscriptionDetailQuery = z.infer<typeof subscriptionDetailQuerySchema>;

export const subscriptionMonthSchema = z.object({
  /** `YYYY-MM`, every billed month, oldest first. */
  month: z.string(),
  cost: money,
  ...usedQuantities,
  /** Used outside Finland (cost categories of zone Nordic/Baltic, EU, world). */
  roamingVoiceMinutes: z.number(),
  roamingDataMb: z.number(),
  roamingCost: money,
});
export type SubscriptionMonth = z.infer<typeof subscriptionMonthSchema>;

export const subscriptionInvoiceSchema = z.object({
  invoiceId: z.number().int(),
  invoiceNumber: z.string().nullable(),
  invoiceDate: z.string().nullable(),
  /** `YYYY-MM`: the billing month. */
  month: z.string().nullable(),
  operatorName: z.string().nullable(),
  /** This subscription's share of the invoice (the sum of its lines). */
  amount: money,
});

/** The subscription's current optimization result (null: not optimized yet). */
export const subscriptionFindingSchema = optimizationItemSchema.extend({
  kind: z.enum(OPTIMIZATION_TABS),
  /** Months of use the finding is based on. */
  monthsUsed: z.number().int(),
  optimizedAt: z.string(),
});
export type SubscriptionFinding = z.infer<typeof subscriptionFindingSchema>;

export const subscriptionDetailSchema = z.object({
  id: z.number().int(),
  ...named('client'),
  phoneNumber: z.string(),
  userName: z.string().nullable(),
  ...named('operator'),
  ...placeInClient,
  /** The plan of the newest invoice and its monthly fee (the client's contract price where set). */
  currentPlan: z
    .object({
      id: z.number().int(),
      name: z.string(),
      monthlyFee: money,
      contractPrice: z.boolean(),
    })
    .nullable(),
  firstSeenMonth: z.string(),
  lastSeenMonth: z.string(),
  months: z.array(subscriptionMonthSchema),
  /** The period of `byCategory` (YYYY-MM; equal to the first and last month when not asked). */
  from: z.string(),
  to: z.string(),
  byCategory: z.array(categoryCostSchema),
  totalCost: money,
  /** Newest first. */
  invoices: z.array(subscriptionInvoiceSchema),
  /** Null when not optimized yet, or when the caller may not view optimization. */
  finding: subscriptionFindingSchema.nullable(),
});
export type SubscriptionDetail = z.infer<typeof subscriptionDetailSchema>;
