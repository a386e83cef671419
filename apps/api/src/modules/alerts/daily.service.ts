import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { ALERT_RULE_SEVERITY } from '@kulu/shared';
import type { Db } from '../../db/client.js';
import { clientContracts, clientOperators, clients, invoices, operators } from '../../db/schema/index.js';
import { evaluateInvoiceAlerts, storeAlerts, type NewAlert } from './evaluate.service.js';
import { ruleSettings } from './rules.service.js';

/**
 * The date-based rules, evaluated daily (issue 26, decision 0023) for every active client, each
 * alert once (the dedupe key):
 * - invoice missing: from day N of a month, no uploaded invoice of that billing month from an
 *   operator the client has a contract with (running today);
 * - contract ending: an operator contract whose end date is within N days, and the provider's
 *   client contract (the active one with the latest end: the portfolio's "contract ends") whose end
 *   date is within N days, for the provider side only (`audience = 'provider'`).
 * `day` is the Helsinki day (`YYYY-MM-DD`). Returns the alerts added.
 */
export async function evaluateDailyAlerts(db: Db, day: string): Promise<number> {
  const month = `${day.slice(0, 7)}-01`;
  const dayOfMonth = Number(day.slice(8, 10));
  const contracts = await db
    .select({
      id: clientOperators.id,
      clientId: clientOperators.clientId,
      operatorId: clientOperators.operatorId,
      operator: operators.name,
      start: clientOperators.contractStartDate,
      end: clientOperators.contractEndDate,
      invoiced: sql<boolean>`exists (select 1 from invoices i where i.client_id = ${clientOperators.clientId}
        and i.operator_id = ${clientOperators.operatorId} and i.upload_state = 'uploaded'
        and i.period_start = ${month}::date)`,
    })
    .from(clientOperators)
    .innerJoin(clients, eq(clients.id, clientOperators.clientId))
    .innerJoin(operators, eq(operators.id, clientOperators.operatorId))
    .where(and(eq(clients.profileStatus, 'active')));
  const byClient = new Map<number, typeof contracts>();
  for (const c of contracts) byClient.set(c.clientId, [...(byClient.get(c.clientId) ?? []), c]);
  const providerContracts = await db
    .selectDistinctOn([clientContracts.clientId], {
      id: clientContracts.id,
      clientId: clientContracts.clientId,
      name: clients.companyName,
      end: clientContracts.endDate,
    })
    .from(clientContracts)
    .innerJoin(clients, eq(clients.id, clientContracts.clientId))
    .where(and(eq(clients.profileStatus, 'active'), eq(clientContracts.status, 'active')))
    .orderBy(asc(clientContracts.clientId), desc(clientContracts.endDate), desc(clientContracts.id));
  const providerContractOf = new Map(providerContracts.map((c) => [c.clientId, c]));

  let added = 0;
  for (const clientId of new Set([...byClient.keys(), ...providerContractOf.keys()])) {
    const own = byClient.get(clientId) ?? [];
    const s = await ruleSettings(db, clientId);
    const rows: NewAlert[] = [];
    const running = (c: (typeof own)[number]) => (!c.start || c.start <= day) && (!c.end || c.end >= day);
    if (s.invoice_missing.enabled && dayOfMonth >= (s.invoice_missing.days ?? 20)) {
      for (const c of own) {
        if (!running(c) || c.invoiced) continue;
        rows.push({
          clientId,
          operatorId: c.operatorId,
          rule: 'invoice_missing',
          severity: ALERT_RULE_SEVERITY.invoice_missing,
          month,
          dedupeKey: `invoice_missing:${c.operatorId}:${month}`,
          figures: { operator: c.operator, day: s.invoice_missing.days ?? 20 },
        });
      }
    }
    if (s.contract_ending.enabled) {
      const ahead = s.contract_ending.days ?? 90;
      const provider = providerContractOf.get(clientId);
      // The provider's client contract is for the provider side's eyes only; operator contracts for all.
      const ending = [
        ...(provider
          ? [{ ...provider, kind: 'client' as const, operatorId: null, audience: 'provider' as const }]
          : []),
        ...own.map((c) => ({ ...c, name: c.operator, kind: 'operator' as const, audience: 'all' as const })),
      ];
      for (const c of ending) {
        if (!c.end || c.end < day) continue;
        const daysLeft = Math.round((Date.parse(c.end) - Date.parse(day)) / 86_400_000);
        if (daysLeft > ahead) continue;
        rows.push({
          clientId,
          operatorId: c.operatorId,
          rule: 'contract_ending',
          severity: ALERT_RULE_SEVERITY.contract_ending,
          audience: c.audience,
          contractId: c.id,
          month: `${c.end.slice(0, 7)}-01`,
          dedupeKey: `contract_ending:${c.kind}:${c.id}:${c.end}`,
          figures: { name: c.name, endDate: c.end, daysLeft, contractKind: c.kind },
        });
      }
    }
    added += await storeAlerts(db, rows);
  }
  return added;
}

/**
 * The import rules again for the invoices imported since `since`: the evaluate-alerts job is sent
 * after an import commits, not in its transaction, so a send that failed is made good by the next
 * daily run (evaluating again adds nothing that is stored). Returns the alerts added.
 */
export async function reevaluateRecentInvoices(db: Db, since: Date): Promise<number> {
  const recent = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.uploadState, 'uploaded'), gte(invoices.parsedAt, since)))
    .orderBy(asc(invoices.id));
  let added = 0;
  for (const inv of recent) added += await evaluateInvoiceAlerts(db, inv.id);
  return added;
}
