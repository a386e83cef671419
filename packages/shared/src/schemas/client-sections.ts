import { z } from 'zod';
import { namedOrNull, savedAnswer } from './primitives.js';
import { optDay, reqDay } from './clients.js';
import {
  DEFAULT_MESSAGES,
  defineMaster,
  labelledBy,
  optId,
  optText,
  reqEnum,
  reqInt,
} from './masters/common.js';

/**
 * The sections of a client in Client Management (issue 11, second part; spec §3 Client contract,
 * Client billing plan, Sub-company, Client user, Client payment, On-demand support, Operator
 * contract details; §4; §5; §8). One schema for the API's requests and answers and the web's forms.
 */

// ---- contracts ---------------------------------------------------------------------------------

export const CONTRACT_STATUSES = ['draft', 'active', 'inactive', 'terminated'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export const BILLING_CYCLES = ['monthly', 'quarterly', 'half_yearly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** Contract units (spec §5, §9): 0 or 1. */
const units = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.union([z.literal(0), z.literal(1)]),
);

const contractFields = {
  term: optText(50),
  startDate: reqDay(),
  endDate: reqDay(),
  /** The billing plan the contract is priced by; left out: the client's billing plan. */
  billingPlanId: optId(),
  billingCycle: reqEnum(BILLING_CYCLES),
  numberOfPlans: reqInt(0, 1_000_000),
  units,
};

/** The end is not before the start (a field issue on endDate). */
const datesInOrder = (v: { startDate: string; endDate: string }, ctx: z.RefinementCtx) => {
  if (v.startDate > v.endDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'invalid' });
};

/**
 * Add a contract (`status` active) or save it as a draft (`status` draft); spec §8 has a message
 * for each.
 */
export const contractCreateSchema = z
  .object({ ...contractFields, status: z.enum(['draft', 'active']).default('active') })
  .superRefine(datesInOrder);
export type ContractCreate = z.infer<typeof contractCreateSchema>;

/**
 * Update a draft or active contract: a draft may be activated; an active contract may be made
 * inactive (on `inactiveDate`, today when left out). Terminating has its own call.
 */
export const contractUpdateSchema = z
  .object({
    ...contractFields,
    status: z.enum(['draft', 'active', 'inactive']),
    inactiveDate: optDay(),
  })
  .superRefine(datesInOrder);
export type ContractUpdate = z.infer<typeof contractUpdateSchema>;

/** Terminate a contract: the termination date falls between its start and end (spec §4, §5). */
export const contractTerminateSchema = z.object({ terminationDate: reqDay() });
export type ContractTerminate = z.infer<typeof contractTerminateSchema>;

export const contractSchema = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  status: z.enum(CONTRACT_STATUSES),
  term: z.string().nullable(),
  startDate: z.string(),
  endDate: z.string(),
  inactiveDate: z.string().nullable(),
  terminationDate: z.string().nullable(),
  ...namedOrNull('billingPlan'),
  billingCycle: z.enum(BILLING_CYCLES),
  numberOfPlans: z.number().int(),
  units: z.number().int(),
  costPerUnit: z.string().nullable(),
  monthlyCost: z.string().nullable(),
  yearlyCost: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Contract = z.infer<typeof contractSchema>;

type ContractDays = Pick<Contract, 'status' | 'startDate' | 'endDate' | 'terminationDate' | 'inactiveDate'>;

/**
 * Whether a contract of the list opens the client's data on `day` (a Helsinki business day): the
 * rule of the API's lock-out (`lib/contract-access.ts`) for the screens' warnings. Active within
 * its start..end, or terminated (only an active one can be) before its termination date.
 */
export function contractInForce(c: ContractDays, day: string): boolean {
  if (c.startDate > day || c.endDate < day) return false;
  if (c.status === 'active') return true;
  return (
    c.status === 'terminated' &&
    c.terminationDate != null &&
    c.terminationDate > day &&
    c.inactiveDate == null
  );
}

/**
 * Whether activating a contract starting on `startDate` leaves the client locked out until then:
 * it starts after `day` and no other contract of the client is in force on `day`.
 */
export function activationLeavesLockedOut(
  startDate: string,
  others: readonly ContractDays[],
  day: string,
): boolean {
  return startDate > day && !others.some((c) => contractInForce(c, day));
}

const contract = labelledBy('clients.contracts');

/**
 * A client's contracts as a resource nested under their client
 * (`/api/clients/:clientId/contracts`, the API's generic resource mechanism): listed whole, oldest
 * first; added active or as a draft, updated by a schema of its own (a draft activated, an active
 * one made inactive); never deleted. Terminating is a workflow beside it.
 */
const contractDeclaration = defineMaster({
  key: 'contracts',
  path: 'contracts',
  permission: 'clients.manage',
  searchable: [],
  sortable: ['startDate'],
  defaultSort: 'startDate',
  filters: {},
  columns: [
    contract.col('status', 'enum', {
      options: CONTRACT_STATUSES.map((v) => ({ value: v, labelKey: contract.labelKey(`statuses.${v}`) })),
    }),
    contract.col('term'),
    contract.col('startDate', 'date'),
    contract.col('endDate', 'date'),
    contract.col('billingPlanName', 'text', { labelKey: contract.labelKey('billingPlanId') }),
    contract.col('numberOfPlans', 'integer'),
    contract.col('monthlyCost', 'money'),
    contract.col('yearlyCost', 'money'),
  ],
  fields: [
    contract.field('term', 'text', { maxLength: 50 }),
    contract.field('startDate', 'text', { required: true }),
    contract.field('endDate', 'text', { required: true }),
    contract.field('billingPlanId', 'ref'),
    contract.field('billingCycle', 'enum', {
      required: true,
      options: BILLING_CYCLES.map((v) => ({ value: v, labelKey: contract.labelKey(`cycles.${v}`) })),
    }),
    contract.field('numberOfPlans', 'integer', { required: true }),
    contract.field('units', 'integer', { required: true }),
  ],
  // Never deleted (no delete route), never a duplicate: the defaults stand in.
  messages: { ...DEFAULT_MESSAGES, created: 'contractAdded', updated: 'contractUpdated' },
  savedAs: 'contract',
  entity: contractSchema,
  create: contractCreateSchema,
});
export const contractResource = { ...contractDeclaration, update: contractUpdateSchema };

export const contractListSchema = z.object({ items: z.array(contractSchema) });
export const contractSavedSchema = savedAnswer('contract', contractSchema);

/** The fees of a billing plan a contract's cost is computed from (decimal strings). */
export interface ContractFees {
  costPerPlan: string;
  adminFee: string;
  advancePaymentDiscountPercent: string;
}

/** A decimal string as a whole number of 1/10 000 (the fees have at most four decimals). */
const tenThousandths = (s: string): bigint => {
  const m = /^(-?)(\d+)(?:\.(\d{1,4}))?\d*$/.exec(s.trim());
  if (!m) throw new Error(`not a decimal: ${s}`);
  const v = BigInt(m[2]) * 10_000n + BigInt((m[3] ?? '').padEnd(4, '0'));
  return m[1] ? -v : v;
};
/** Rounds n / d half away from zero. */
const divRound = (n: bigint, d: bigint) => (n >= 0n ? (2n * n + d) / (2n * d) : -((2n * -n + d) / (2n * d)));
const centsString = (cents: bigint) => {
  const neg = cents < 0n;
  const a = neg ? -cents : cents;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};

/**
 * A contract's cost, exactly (docs/decisions/0009-client-sections.md):
 * - cost per unit = the billing plan's cost per plan;
 * - monthly cost = units × (number of plans × cost per plan + admin fee);
 * - yearly cost = 12 × monthly cost, less the plan's advance-payment discount when the billing
 *   cycle is yearly (a year paid in advance).
 * Units 0 is a contract without charge: both costs are 0. Amounts are rounded to the cent.
 */
export function contractCosts(
  c: { units: number; numberOfPlans: number; billingCycle: BillingCycle },
  fees: ContractFees,
): { costPerUnit: string; monthlyCost: string; yearlyCost: string } {
  const perPlan = tenThousandths(fees.costPerPlan);
  const monthly = BigInt(c.units) * (BigInt(c.numberOfPlans) * perPlan + tenThousandths(fees.adminFee));
  let yearly = monthly * 12n;
  if (c.billingCycle === 'yearly') {
    // discount percent has two decimals: × (10 000 − p·100) / 10 000
    const p = tenThousandths(fees.advancePaymentDiscountPercent) / 100n;
    yearly = divRound(yearly * (10_000n - p), 10_000n);
  }
  return {
    costPerUnit: centsString(divRound(perPlan, 100n)),
    monthlyCost: centsString(divRound(monthly, 100n)),
    yearlyCost: centsString(divRound(yearly, 100n)),
  };
}
