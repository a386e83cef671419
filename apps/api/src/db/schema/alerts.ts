import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ALERT_AUDIENCES, ALERT_RULES, ALERT_SEVERITIES, ALERT_STATES } from '@kulu/shared';
import { createdAt, moment, updatedAt } from './columns.js';
import { byUser, clientRef, costCenters, operators, subCompanies } from './core.js';
import { invoices, subscriptions } from './invoices.js';

/**
 * Alerts (issue 26, docs/decisions/0023-alerts.md): a client's rule settings (no row: the shared
 * defaults) and the alerts the rules raised, each once per client and dedupe key.
 */

/** A client's own settings of one rule; a rule without a row runs with the defaults. */
export const alertRules = pgTable(
  'alert_rules',
  {
    clientId: clientRef('cascade'),
    rule: text('rule', { enum: ALERT_RULES }).notNull(),
    enabled: boolean('enabled').notNull(),
    factor: numeric('factor', { precision: 6, scale: 2 }),
    amount: numeric('amount', { precision: 12, scale: 2 }),
    days: integer('days'),
    updatedAt: updatedAt(),
    updatedBy: byUser('updated_by'),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.rule] })],
);

/**
 * One alert: what it is about (subscription, invoice or contract), the figures that triggered it
 * (cents, counts, names as they were), and its state. The sentence is built when it is read.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef('cascade'),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id, { onDelete: 'set null' }),
    costCenterId: integer('cost_center_id').references(() => costCenters.id, { onDelete: 'set null' }),
    operatorId: integer('operator_id').references(() => operators.id),
    /** Null once the subscription is gone (its last invoice deleted); the dedupe key names its number. */
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    /**
     * The invoice that raised it (the import rules; none for the daily ones). An alert belongs to
     * its invoice: deleting the invoice deletes it (issue 37), so the bell never counts what no
     * invoice shows any more; importing the invoice again raises it again.
     */
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'cascade' }),
    /** A client contract (`figures.contractKind` = 'client') or an operator contract ('operator'). */
    contractId: integer('contract_id'),
    rule: text('rule', { enum: ALERT_RULES }).notNull(),
    severity: text('severity', { enum: ALERT_SEVERITIES }).notNull(),
    state: text('state', { enum: ALERT_STATES }).notNull().default('open'),
    /** `provider`: the provider side only (its contract with the client); the Scope filters it. */
    audience: text('audience', { enum: ALERT_AUDIENCES }).notNull().default('all'),
    /**
     * Unique per client: the same finding is stored once however often it is evaluated. Built from
     * the rule, the phone number (not the subscription id, which a deleted and re-imported invoice
     * changes), and the month.
     */
    dedupeKey: text('dedupe_key').notNull(),
    /** First day of the month the alert is about. */
    month: date('month').notNull(),
    figures: jsonb('figures').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    acknowledgedAt: moment('acknowledged_at'),
    acknowledgedBy: byUser('acknowledged_by'),
    acknowledgedNote: text('acknowledged_note'),
  },
  (t) => [
    uniqueIndex('alerts_client_dedupe_uq').on(t.clientId, t.dedupeKey),
    index('alerts_client_state_idx').on(t.clientId, t.state, t.month),
    index('alerts_subscription_idx').on(t.subscriptionId),
    index('alerts_invoice_idx').on(t.invoiceId),
    check('alerts_severity_ck', sql`${t.severity} in ('high', 'medium', 'low')`),
    check('alerts_state_ck', sql`${t.state} in ('open', 'acknowledged')`),
    check('alerts_audience_ck', sql`${t.audience} in ('all', 'provider')`),
  ],
);
