import { z } from 'zod';
import { blankToUndefined, messageAnswer, savedAnswer } from './primitives.js';
import {
  decimalLike,
  DEFAULT_MESSAGES,
  defineMaster,
  labelledBy,
  optText,
  type MasterMessages,
} from './masters/common.js';
import { reqDay } from './clients.js';
import { billingPlanMaster } from './masters/resources.js';

/**
 * The money sections of a client in Client Management (issue 11; spec §3 Client billing plan,
 * Client payment, On-demand support; §5 "Payment amount greater than 0; payment date not in the
 * future", "On-demand support hours greater than 0; date within the current month and not after
 * today"; §8). One schema for the API's requests and answers and the web's forms.
 *
 * The day rules depend on today: the pure helpers below take today as `YYYY-MM-DD` (the business
 * day in Europe/Helsinki of the API's clock `deps.now()` or the browser's, `helsinkiDay`), so the
 * forms check the same rule and the API has the last word.
 */

// ---- day rules (pure) ----------------------------------------------------------------------------

/** Spec §5: a payment date is not in the future (today is allowed). */
export const isNotAfterToday = (day: string, today: string): boolean => day <= today;

/** The first day of the month of `today` (`YYYY-MM-01`). */
export const firstOfMonth = (today: string): string => `${today.slice(0, 7)}-01`;

/**
 * Spec §5: an on-demand support day lies within the current month and not after today, i.e.
 * between the first of today's month and today, both included.
 */
export const isInCurrentMonthUpToToday = (day: string, today: string): boolean =>
  day >= firstOfMonth(today) && day <= today;

// ---- field schemas -------------------------------------------------------------------------------

/**
 * A required positive decimal with `int` digits and two decimals (a number or a string, "12,50"
 * too). Not a number: "invalid"; zero or less: the message code `positive` (the API answers the
 * spec's wording for it, the field is "invalid").
 */
const positiveDecimal = (int: number, positive: 'paymentAmountPositive' | 'supportHoursPositive') =>
  z.preprocess(
    (v) => blankToUndefined(decimalLike(v)),
    z
      .string()
      .regex(new RegExp(`^-?\\d{1,${int}}(\\.\\d{1,2})?$`))
      .refine((s) => !/^-?\d+(\.\d+)?$/.test(s) || Number(s) > 0, { message: positive }),
  );

// ---- billing management -------------------------------------------------------------------------

/** A Client Billing Plan and its fees (the master's row, decimal strings; support fee per hour). */
export const billingPlanFeesSchema = billingPlanMaster.entity;
export type BillingPlanFees = z.infer<typeof billingPlanFeesSchema>;

/** The client's billing plan (null: none chosen) and every plan it may be put on. */
export const clientBillingSchema = z.object({
  clientId: z.number().int(),
  billingPlanId: z.number().int().nullable(),
  plan: billingPlanFeesSchema.nullable(),
  plans: z.array(billingPlanFeesSchema),
});
export type ClientBilling = z.infer<typeof clientBillingSchema>;

/** Choose the client's billing plan (null: none). */
export const clientBillingUpdateSchema = z.strictObject({
  // Named every time (null: no plan): an empty body must not take the client off its plan.
  billingPlanId: z.preprocess(
    (v) => (v === '' ? null : v),
    z.number().int().min(1).max(2_147_483_647).nullable(),
  ),
});
export type ClientBillingUpdate = z.infer<typeof clientBillingUpdateSchema>;

export const clientBillingSavedSchema = savedAnswer('billing', clientBillingSchema);

// ---- the two money sections: client payments and on-demand support -------------------------------

/**
 * A money section of a client: rows of a day, a description and an amount (`day` and `amount` name
 * them), nested under the client, newest first, with the section's totals beside the page. Client
 * payments and on-demand support hours are the one declaration with other nouns.
 */
function moneySection<
  const D extends string,
  const A extends string,
  const P extends 'paymentAmountPositive' | 'supportHoursPositive',
  T extends z.ZodRawShape,
>(section: {
  key: string;
  path: string;
  /** Translation prefix of the day and amount labels (`<labels>.<day>`, `<labels>.<amount>`). */
  labels: string;
  day: D;
  amount: A;
  /** Whole-number digits of the amount, and the message code of an amount of zero or less. */
  digits: number;
  positive: P;
  messages: Pick<MasterMessages, 'created' | 'updated' | 'deleted'>;
  totals: T;
  savedAs: string;
}) {
  const { day, amount } = section;
  const own = labelledBy(section.labels);
  const description = 'clients.money.description';
  const input = z.object({
    ...({ [day]: reqDay() } as Record<D, ReturnType<typeof reqDay>>),
    description: optText(500, true),
    ...({ [amount]: positiveDecimal(section.digits, section.positive) } as Record<
      A,
      ReturnType<typeof positiveDecimal>
    >),
  });
  const row = z.object({
    id: z.number().int(),
    clientId: z.number().int(),
    ...({ [day]: z.string() } as Record<D, z.ZodString>),
    description: z.string().nullable(),
    ...({ [amount]: z.string() } as Record<A, z.ZodString>),
    createdAt: z.string(),
  });
  const resource = defineMaster({
    key: section.key,
    path: section.path,
    permission: 'clients.manage',
    searchable: [],
    sortable: [day, amount, 'id'] as const,
    defaultSort: day,
    defaultOrder: 'desc',
    filters: {},
    columns: [
      own.col(day, 'date'),
      own.col('description', 'text', { labelKey: description }),
      own.col(amount, 'money'),
    ],
    fields: [
      own.field(day, 'text', { required: true }),
      own.field('description', 'text', { labelKey: description, maxLength: 500 }),
      own.field(amount, 'money', { required: true, decimals: 2 }),
    ],
    // No unique names, nothing refers to a row.
    messages: { ...DEFAULT_MESSAGES, ...section.messages },
    totals: section.totals,
    savedAs: section.savedAs,
    entity: row,
    create: input,
  });
  return { input, row, resource, saved: savedAnswer(section.savedAs, row) };
}

// ---- client payments --------------------------------------------------------------------------

/**
 * Client payments as a resource nested under their client (`/api/clients/:clientId/payments`, the
 * API's generic resource mechanism): a date (not in the future: checked against today), a
 * description and an amount > 0; newest first, with the sum of every payment of the client.
 */
export const paymentSection = moneySection({
  key: 'payments',
  path: 'payments',
  labels: 'clients.payments',
  day: 'paymentDate',
  amount: 'amount',
  digits: 12,
  positive: 'paymentAmountPositive',
  messages: { created: 'paymentAdded', updated: 'paymentUpdated', deleted: 'paymentDeleted' },
  /** The sum of every payment of the client (not only the page). */
  totals: { totalAmount: z.string() },
  savedAs: 'payment',
});

export const paymentResource = paymentSection.resource;
/** A page of payments and the sum of every payment of the client (not only the page). */
export type PaymentList = z.infer<typeof paymentResource.list>;

// ---- on-demand support ------------------------------------------------------------------------

/**
 * On-demand support hours as a resource nested under their client
 * (`/api/clients/:clientId/support-hours`): a day of the current month up to today (checked against
 * today) and hours > 0; newest first, with the current month's total hours and their cost at the
 * client's billing plan's on-demand support fee per hour (null without a plan).
 */
export const supportSection = moneySection({
  key: 'supportHours',
  path: 'support-hours',
  labels: 'clients.support',
  day: 'supportDate',
  amount: 'hours',
  digits: 4,
  positive: 'supportHoursPositive',
  messages: { created: 'supportHoursAdded', updated: 'supportHoursUpdated', deleted: 'supportHoursDeleted' },
  totals: {
    month: z.string(),
    monthHours: z.string(),
    hourlyFee: z.string().nullable(),
    monthCost: z.string().nullable(),
  },
  savedAs: 'support',
});

export const supportHoursResource = supportSection.resource;
/** A page of support entries and the current month's totals. */
export type SupportHoursList = z.infer<typeof supportHoursResource.list>;

/** The answer of a delete: the spec's message. */
export const moneyDeletedSchema = messageAnswer;

// ---- exact sums ---------------------------------------------------------------------------------

/** hours × fee, both decimal strings with at most two decimals, exactly, rounded to the cent. */
export function supportCost(hours: string, fee: string): string {
  const cents = (s: string) => {
    const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s.trim());
    if (!m) throw new Error(`not a decimal: ${s}`);
    return BigInt(m[1]) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
  };
  const product = cents(hours) * cents(fee); // ten-thousandths
  const c = (product + 50n) / 100n; // half up (both non-negative)
  return `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
}
