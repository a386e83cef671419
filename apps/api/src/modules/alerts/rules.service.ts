import { and, eq } from 'drizzle-orm';
import {
  ALERT_RULE_DEFAULTS,
  ALERT_RULE_THRESHOLDS,
  ALERT_RULES,
  type AlertRule,
  type AlertRuleRow,
  type AlertRules,
  type AlertRulesUpdate,
  type AlertRuleSettings,
} from '@kulu/shared';
import type { Db, Executor } from '../../db/client.js';
import { alertRules } from '../../db/schema/index.js';
import { AppError, forbidden } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';

export type RuleSettings = Record<AlertRule, AlertRuleSettings>;

const num = (v: string | null): number | null => (v == null ? null : Number(v));

/** A client's settings of every rule: its own rows over the shared defaults. */
export async function ruleSettings(db: Executor, clientId: number): Promise<RuleSettings> {
  const own = await db.select().from(alertRules).where(eq(alertRules.clientId, clientId));
  const out = { ...ALERT_RULE_DEFAULTS } as RuleSettings;
  for (const r of own) {
    const d = ALERT_RULE_DEFAULTS[r.rule];
    out[r.rule] = {
      enabled: r.enabled,
      factor: d.factor == null ? null : (num(r.factor) ?? d.factor),
      amount: d.amount == null ? null : (num(r.amount) ?? d.amount),
      days: d.days == null ? null : (r.days ?? d.days),
    };
  }
  return out;
}

/**
 * The client whose rules a request reads or changes: the caller's own for client-side users, the
 * `clientId` asked for (checked against the Scope) for provider users.
 */
export async function rulesClient(scope: Scope, clientId: number | undefined): Promise<number> {
  // A client named in the query is checked like every tenancy filter: another client's is a 404
  // (never the caller's own rules under another id).
  const id = clientId ?? scope.ownClientId;
  if (id == null) throw new AppError(400, 'validation', { clientId: 'required' });
  await scope.assertClient(id);
  return id;
}

/** A user limited to some sub-companies or cost centers does not decide for the whole company. */
const mayEdit = (scope: Scope): boolean => !scope.subCompanyIds && !scope.costCenterIds;

const asRows = (clientId: number, s: RuleSettings, editable: boolean): AlertRules => ({
  clientId,
  rules: ALERT_RULES.map((rule): AlertRuleRow => ({ rule, ...s[rule] })),
  editable,
});

export async function getRules(db: Db, scope: Scope, clientId: number | undefined): Promise<AlertRules> {
  const id = await rulesClient(scope, clientId);
  return asRows(id, await ruleSettings(db, id), mayEdit(scope));
}

/**
 * Saves rules of a client: each rule keeps only the thresholds it reads (the others stay null);
 * a threshold left out keeps its current value.
 */
export async function updateRules(
  db: Db,
  scope: Scope,
  body: AlertRulesUpdate,
  now: Date,
): Promise<AlertRules> {
  if (!mayEdit(scope)) throw forbidden();
  const id = await rulesClient(scope, body.clientId);
  return db.transaction(async (tx) => {
    const current = await ruleSettings(tx, id);
    for (const r of body.rules) {
      const keeps = ALERT_RULE_THRESHOLDS[r.rule];
      const pick = (k: 'factor' | 'amount' | 'days') =>
        keeps.includes(k) ? (r[k] ?? current[r.rule][k]) : null;
      const values = {
        enabled: r.enabled,
        factor: pick('factor')?.toString() ?? null,
        amount: pick('amount')?.toString() ?? null,
        days: pick('days'),
        updatedAt: now,
        updatedBy: scope.userId,
      };
      await tx
        .insert(alertRules)
        .values({ clientId: id, rule: r.rule, ...values })
        .onConflictDoUpdate({ target: [alertRules.clientId, alertRules.rule], set: values });
    }
    const saved = await ruleSettings(tx, id);
    return asRows(id, saved, true);
  });
}

/** For tests and the bench: a rule's row removed (back to the defaults). */
export async function resetRule(db: Executor, clientId: number, rule: AlertRule): Promise<void> {
  await db.delete(alertRules).where(and(eq(alertRules.clientId, clientId), eq(alertRules.rule, rule)));
}
