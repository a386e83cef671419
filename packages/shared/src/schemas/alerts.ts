import { z } from 'zod';
import { ID_MAX, idSchema, intIn, named, namedOrNull, pagedAnswer, pagingQuery, text } from './primitives.js';
import { monthSchema } from './dashboards.js';

/**
 * Alerts (issue 26): rules per client, evaluated after each import (and daily for the date-based
 * ones), each alert stored once with the figures that triggered it. The sentence of an alert is
 * built when it is read, in the reader's language. Decision: docs/decisions/0023-alerts.md.
 */
export const ALERT_RULES = [
  'cost_jump',
  'roaming',
  'service_numbers',
  'new_subscription',
  'subscription_gone',
  'invoice_missing',
  'contract_ending',
] as const;
export type AlertRule = (typeof ALERT_RULES)[number];

export const ALERT_SEVERITIES = ['high', 'medium', 'low'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_STATES = ['open', 'acknowledged'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/**
 * Who reads an alert: `all` (the client's users within their Scope, and the provider side) or
 * `provider` (the provider's admins and the consultants assigned to the client only: the
 * provider's own contract with the client). The Scope applies it (`ScopeColumns.audience`).
 */
export const ALERT_AUDIENCES = ['all', 'provider'] as const;
export type AlertAudience = (typeof ALERT_AUDIENCES)[number];

/**
 * A rule's settings: on or off, and its thresholds (the ones it reads; null elsewhere).
 * `factor`: cost jump's multiple of the usual month; `amount`: euros; `days`: a day of the month
 * (invoice missing) or days ahead (contract ending).
 */
export interface AlertRuleSettings {
  enabled: boolean;
  factor: number | null;
  amount: number | null;
  days: number | null;
}

/** Defaults of every client (a client's own row overrides them); why these: decision 0023. */
export const ALERT_RULE_DEFAULTS: Record<AlertRule, AlertRuleSettings> = {
  cost_jump: { enabled: true, factor: 3, amount: 30, days: null },
  roaming: { enabled: true, factor: null, amount: 20, days: null },
  service_numbers: { enabled: true, factor: null, amount: 10, days: null },
  new_subscription: { enabled: true, factor: null, amount: null, days: null },
  subscription_gone: { enabled: true, factor: null, amount: null, days: null },
  invoice_missing: { enabled: true, factor: null, amount: null, days: 20 },
  contract_ending: { enabled: true, factor: null, amount: null, days: 90 },
};

/** Which thresholds each rule reads (the settings form shows these, the API keeps only these). */
export const ALERT_RULE_THRESHOLDS: Record<AlertRule, readonly ('factor' | 'amount' | 'days')[]> = {
  cost_jump: ['factor', 'amount'],
  roaming: ['amount'],
  service_numbers: ['amount'],
  new_subscription: [],
  subscription_gone: [],
  invoice_missing: ['days'],
  contract_ending: ['days'],
};

/** The severity an alert of each rule gets. */
export const ALERT_RULE_SEVERITY: Record<AlertRule, AlertSeverity> = {
  cost_jump: 'high',
  roaming: 'high',
  service_numbers: 'medium',
  new_subscription: 'low',
  subscription_gone: 'low',
  invoice_missing: 'medium',
  contract_ending: 'medium',
};

export const ALERT_RULE_LABELS: Record<AlertRule, { en: string; fi: string }> = {
  cost_jump: { en: 'Cost jump', fi: 'Kustannushyppy' },
  roaming: { en: 'Roaming', fi: 'Verkkovierailu' },
  service_numbers: { en: 'Service numbers', fi: 'Palvelunumerot' },
  new_subscription: { en: 'New subscription', fi: 'Uusi liittymä' },
  subscription_gone: { en: 'Subscription gone', fi: 'Liittymä poistunut' },
  invoice_missing: { en: 'Invoice missing', fi: 'Lasku puuttuu' },
  contract_ending: { en: 'Contract ending', fi: 'Sopimus päättymässä' },
};

export const ALERT_SEVERITY_LABELS: Record<AlertSeverity, { en: string; fi: string }> = {
  high: { en: 'High', fi: 'Korkea' },
  medium: { en: 'Medium', fi: 'Keskitaso' },
  low: { en: 'Low', fi: 'Matala' },
};

export const ALERT_STATE_LABELS: Record<AlertState, { en: string; fi: string }> = {
  open: { en: 'Open', fi: 'Avoin' },
  acknowledged: { en: 'Acknowledged', fi: 'Kuitattu' },
};

const ruleSettingsSchema = z.object({
  rule: z.enum(ALERT_RULES),
  enabled: z.boolean(),
  factor: z.number().nullable(),
  amount: z.number().nullable(),
  days: z.number().int().nullable(),
});
export const alertRuleSettingsSchema = ruleSettingsSchema;
export type AlertRuleRow = z.infer<typeof ruleSettingsSchema>;

export const alertRulesSchema = z.object({
  clientId: z.number().int(),
  rules: z.array(ruleSettingsSchema),
  /** Whether the caller may change them (not a user limited to sub-companies or cost centers). */
  editable: z.boolean(),
});
export type AlertRules = z.infer<typeof alertRulesSchema>;

export const alertClientQuery = z.object({ clientId: idSchema.optional() });

/** A rule's threshold within [min, max] (else refused with `validation`), or null, or left out. */
const threshold = (min: number, max: number) =>
  z.number().min(min, { error: 'validation' }).max(max, { error: 'validation' }).nullable().optional();

/** One rule's change: thresholds within sane bounds (a factor 1.1–100, euros 0–100 000, days 1–365). */
export const alertRuleUpdateSchema = z.strictObject({
  rule: z.enum(ALERT_RULES),
  enabled: z.boolean(),
  factor: threshold(1.1, 100),
  amount: threshold(0, 100_000),
  days: intIn(1, 365).nullable().optional(),
});
export const alertRulesUpdateSchema = z.strictObject({
  clientId: idSchema.optional(),
  rules: z.array(alertRuleUpdateSchema).min(1).max(ALERT_RULES.length),
});
export type AlertRulesUpdate = z.infer<typeof alertRulesUpdateSchema>;

export const alertListQuerySchema = pagingQuery.extend({
  clientId: idSchema.optional(),
  rule: z.enum(ALERT_RULES).optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  state: z.enum(ALERT_STATES).optional(),
  subCompanyId: idSchema.optional(),
  /** Alert months from / to (YYYY-MM), both included. */
  from: monthSchema.optional(),
  to: monthSchema.optional(),
});
export type AlertListQuery = z.infer<typeof alertListQuerySchema>;
export const alertExportQuerySchema = alertListQuerySchema.omit({ page: true, pageSize: true });
export type AlertExportQuery = z.infer<typeof alertExportQuerySchema>;

export const alertSchema = z.object({
  id: z.number().int(),
  ...named('client'),
  ...namedOrNull('subCompany'),
  costCenterId: z.number().int().nullable(),
  subscriptionId: z.number().int().nullable(),
  invoiceId: z.number().int().nullable(),
  contractId: z.number().int().nullable(),
  rule: z.enum(ALERT_RULES),
  severity: z.enum(ALERT_SEVERITIES),
  state: z.enum(ALERT_STATES),
  /** First day of the month the alert is about. */
  month: z.string(),
  /** The sentence, in the caller's language. */
  text: z.string(),
  figures: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  note: z.string().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertListSchema = pagedAnswer(alertSchema);
export type AlertList = z.infer<typeof alertListSchema>;

/** How many alerts one acknowledgement may name by id (a page is at most 200; more: `matching`). */
export const ALERT_ACK_IDS_MAX = 10_000;

/**
 * Acknowledges open alerts with an optional note: the ones named (`ids`), or every one matching the
 * list's filters (`matching`: the Alerts page's "all matching", however many), not both.
 */
export const alertAcknowledgeSchema = z
  .strictObject({
    ids: z.array(idSchema).min(1).max(ALERT_ACK_IDS_MAX).optional(),
    matching: alertExportQuerySchema.optional(),
    note: text({ max: 500, multiline: true }).optional(),
  })
  .refine((b) => (b.ids === undefined) !== (b.matching === undefined), {
    path: ['ids'],
    error: 'alertsAcknowledgeWhich',
  });
export type AlertAcknowledge = z.infer<typeof alertAcknowledgeSchema>;
export const alertAcknowledgedSchema = z.object({ acknowledged: z.number().int() });

export const alertCountSchema = z.object({
  open: z.number().int(),
  high: z.number().int(),
});
export type AlertCount = z.infer<typeof alertCountSchema>;

/**
 * The bell's stream (`GET /api/alerts/events`): the counts the bell shows now; a `count` event comes
 * when the caller's differ (at once, then on every change). `open` is required: a plain GET of the
 * route is refused (400), never left open.
 */
export const alertEventsQuerySchema = z.object({
  open: intIn(0, ID_MAX),
  high: intIn(0, ID_MAX).optional(),
});
export type AlertEventsQuery = z.infer<typeof alertEventsQuerySchema>;
