import { z } from 'zod';
import { pagedAnswer, pagingQuery, searchText, sortQuery } from './primitives.js';
import { monthSchema } from './dashboards.js';
import { optimizationRunSchema } from './optimization.js';

/**
 * The provider's portfolio (issue 26): the landing page of provider admins and consultants, one row
 * per client company the caller may see (the request's Scope: a consultant's assigned companies).
 * Decision: docs/decisions/0025-portfolio.md.
 */
export const PORTFOLIO_SORTABLE = [
  'companyName',
  'costThisMonth',
  'costLastMonth',
  'costChange',
  'potentialSaving',
  'realisedSaving',
  'missingInvoices',
  'contractEndDate',
  'operatorContractEndDate',
  'lastRun',
  'openAlerts',
] as const;
export type PortfolioSort = (typeof PORTFOLIO_SORTABLE)[number];

const flag = z
  .enum(['true', 'false'], { error: 'validation' })
  .transform((v) => v === 'true')
  .optional();

/** The filters of the list and of its export. */
export const portfolioExportQuerySchema = z.object({
  ...sortQuery(PORTFOLIO_SORTABLE).shape,
  /** The month called "this month", `YYYY-MM`; default the current month (Helsinki). */
  month: monthSchema.optional(),
  /** Company name or business id (contains, case-insensitive). */
  q: searchText.optional(),
  /** `true`: only clients with an operator contract whose invoice of the month has not come in. */
  missingInvoices: flag,
});
export type PortfolioExportQuery = z.infer<typeof portfolioExportQuerySchema>;

export const portfolioQuerySchema = pagingQuery.extend(portfolioExportQuerySchema.shape);
export type PortfolioQuery = z.infer<typeof portfolioQuerySchema>;

const money = z.string();
const alertCountsSchema = z.object({
  high: z.number().int(),
  medium: z.number().int(),
  low: z.number().int(),
});

export const portfolioRowSchema = z.object({
  clientId: z.number().int(),
  companyName: z.string(),
  businessId: z.string(),
  /** The invoiced cost of the month and of the month before (euros, "1234.50"). */
  costThisMonth: money,
  costLastMonth: money,
  /** This month against last month in per cent (one decimal); null when last month had no cost. */
  costChange: z.number().nullable(),
  /** A month: open recommendations and unused subscriptions not yet realised (as on Savings). */
  potentialSaving: money,
  /** A month: realised marks counting in this month (as on Savings, its realised saving of the month). */
  realisedSaving: money,
  /** Operators under contract in the month whose invoice of the month has not come in. */
  missingInvoices: z.number().int(),
  missingOperators: z.array(z.string()),
  /** The end date of the client's contract with the provider (the active one, else the latest). */
  contractEndDate: z.string().nullable(),
  /** The nearest end date of the client's operator contracts from today on. */
  operatorContractEndDate: z.string().nullable(),
  lastRun: optimizationRunSchema.nullable(),
  /** The client's open (not acknowledged) alerts by severity, as its Alerts page counts them. */
  openAlerts: alertCountsSchema,
});
export type PortfolioRow = z.infer<typeof portfolioRowSchema>;

export const portfolioListSchema = z.object({
  month: z.string(),
  lastMonth: z.string(),
  ...pagedAnswer(portfolioRowSchema, {
    /** Over every row matching the filters (not only the page). */
    totals: z.object({
      costThisMonth: money,
      costLastMonth: money,
      potentialSaving: money,
      realisedSaving: money,
      missingInvoices: z.number().int(),
      openAlerts: alertCountsSchema,
    }),
  }).shape,
});
export type PortfolioList = z.infer<typeof portfolioListSchema>;
