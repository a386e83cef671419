import { and, eq, inArray, sql } from 'drizzle-orm';
import { ALERT_RULE_SEVERITY, type AlertRule } from '@kulu/shared';
import type { Db, Executor } from '../../db/client.js';
import { alerts, invoices } from '../../db/schema/index.js';
import { ruleSettings, type RuleSettings } from './rules.service.js';

/**
 * Rule evaluation after an import (issue 26, docs/decisions/0023-alerts.md). Reads the invoice's
 * subscriptions, their previous six months and the invoice's lines in one transaction, and
 * stores each finding once: the dedupe key is unique per client, so evaluating the same invoice
 * again (a retried job, a re-import of the same month) adds nothing.
 */

/** Months of history the usual month is taken from, and how many of them must have a cost. */
export const USUAL_MONTHS = 6;
export const USUAL_MIN_MONTHS = 3;

export type NewAlert = typeof alerts.$inferInsert;

const cents = (v: string | number | null | undefined): number => Math.round(Number(v ?? 0) * 100);

/** `YYYY-MM-01` plus `n` months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 10);
}

/**
 * How far around an invoice's month a service-number charge's run of unchanged months is looked for
 * (the alert that already told of it, decision 0023 "Service numbers: a change or a new charge").
 */
export const SERVICE_RUN_MONTHS = 12;

/**
 * Was this service-number charge already alerted, unchanged since? True when the number has a
 * service-number alert in a month from which every month up to this one (both included, either
 * direction: invoices may be imported out of order) billed the same amount. A month without the
 * charge, with another amount, or outside what was read breaks the run: a change or a new charge
 * is alerted.
 */
export function alertedUnchanged(
  month: string,
  cents: number,
  /** The subscription's service-number cents per month (months with a charge only). */
  byMonth: Map<string, number> | undefined,
  /** The months of the number's stored service-number alerts. */
  alerted: string[] | undefined,
): boolean {
  if (!byMonth || !alerted) return false;
  return alerted.some((m) => {
    const step = m < month ? 1 : -1;
    for (let at = m; ; at = addMonths(at, step)) {
      if (at !== month && byMonth.get(at) !== cents) return false;
      if (at === month) return true;
    }
  });
}

/** The median of the values (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : Math.round((s[mid - 1] + s[mid]) / 2);
}

interface SubRow {
  id: number;
  phone: string;
  userName: string;
  subCompanyId: number | null;
  costCenterId: number | null;
  firstSeen: string;
}

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

const serviceOverThreshold = (s: RuleSettings, service: number): boolean =>
  s.service_numbers.enabled && service > 0 && service >= cents(s.service_numbers.amount ?? 10);

/**
 * The pure part: the findings of one invoice's month from what was read. Exported for the edge
 * tests of each threshold.
 */
export function findings(input: {
  clientId: number;
  invoiceId: number;
  operatorId: number;
  month: string;
  settings: RuleSettings;
  subs: Map<number, SubRow>;
  /** Cents per subscription and month (this month and the six before; the gone ones' too). */
  monthCosts: Map<number, Map<string, number>>;
  /** Per subscription on this invoice: roaming, roaming outside the EU/EEA and Nordic-Baltic, service numbers (cents). */
  usage: Map<number, { roaming: number; outside: number; service: number }>;
  /** Subscriptions new on this invoice, when the client had an earlier invoice of the operator. */
  newSubs: number[];
  /** Subscriptions on last month's invoice of the operator and not on this month's. */
  goneSubs: SubRow[];
  /**
   * The service-number cents per month around this one of the subscriptions whose charge is over
   * the threshold, and the months each of their numbers was alerted for it (none given: no such
   * alerts, every charge over the threshold is new).
   */
  serviceHistory?: { byMonth: Map<number, Map<string, number>>; alerted: Map<string, string[]> };
}): NewAlert[] {
  const { settings: s, month } = input;
  const out: NewAlert[] = [];
  const base = (rule: AlertRule, sub: SubRow, key: string, figures: Record<string, unknown>): NewAlert => ({
    clientId: input.clientId,
    subCompanyId: sub.subCompanyId,
    costCenterId: sub.costCenterId,
    operatorId: input.operatorId,
    subscriptionId: sub.id,
    invoiceId: input.invoiceId,
    rule,
    severity: ALERT_RULE_SEVERITY[rule],
    dedupeKey: key,
    month,
    figures: { phone: sub.phone, userName: sub.userName, ...figures },
  });

  if (s.cost_jump.enabled) {
    const factor = s.cost_jump.factor ?? 3;
    const more = cents(s.cost_jump.amount ?? 30);
    // The subscriptions on this invoice (the gone ones have history here too, no month).
    for (const subId of input.usage.keys()) {
      const sub = input.subs.get(subId);
      const byMonth = input.monthCosts.get(subId);
      const cost = byMonth?.get(month);
      if (!sub || !byMonth || cost == null) continue;
      const history: number[] = [];
      for (let i = 1; i <= USUAL_MONTHS; i++) {
        const c = byMonth.get(addMonths(month, -i));
        if (c != null) history.push(c);
      }
      if (history.length < USUAL_MIN_MONTHS) continue;
      const usual = median(history);
      if (cost >= factor * usual && cost - usual >= more) {
        const u = input.usage.get(subId);
        out.push(
          base('cost_jump', sub, `cost_jump:${sub.phone}:${month}`, {
            costCents: cost,
            usualCents: usual,
            months: history.length,
            roamingCents: u?.roaming ?? 0,
          }),
        );
      }
    }
  }
  for (const [subId, u] of input.usage) {
    const sub = input.subs.get(subId);
    if (!sub) continue;
    if (
      s.roaming.enabled &&
      (u.outside > 0 || (u.roaming > 0 && u.roaming >= cents(s.roaming.amount ?? 20)))
    ) {
      out.push(
        base('roaming', sub, `roaming:${sub.phone}:${month}`, {
          roamingCents: u.roaming,
          outsideCents: u.outside,
        }),
      );
    }
    if (
      serviceOverThreshold(s, u.service) &&
      // The same monthly charge, already alerted: not again every month (issue 37).
      !alertedUnchanged(
        month,
        u.service,
        input.serviceHistory?.byMonth.get(subId),
        input.serviceHistory?.alerted.get(sub.phone),
      )
    ) {
      out.push(
        base('service_numbers', sub, `service_numbers:${sub.phone}:${month}`, { serviceCents: u.service }),
      );
    }
  }
  if (s.new_subscription.enabled) {
    for (const subId of input.newSubs) {
      const sub = input.subs.get(subId);
      if (sub) {
        out.push(
          base('new_subscription', sub, `new_subscription:${sub.phone}`, {
            costCents: input.monthCosts.get(subId)?.get(month) ?? 0,
          }),
        );
      }
    }
  }
  if (s.subscription_gone.enabled) {
    for (const sub of input.goneSubs) {
      out.push(
        base('subscription_gone', sub, `subscription_gone:${sub.phone}:${month}`, {
          lastCents: input.monthCosts.get(sub.id)?.get(addMonths(month, -1)) ?? 0,
        }),
      );
    }
  }
  return out;
}

/**
 * Stores alerts once per client and dedupe key; returns how many are new. A stored one keeps its
 * state and figures; it only gets back the subscription it lost when that was deleted (a gone
 * number's last invoice deleted and imported again). Its invoice it never loses: deleting the
 * invoice deletes the alert (migration 0023).
 */
export async function storeAlerts(db: Executor, rows: NewAlert[]): Promise<number> {
  if (rows.length === 0) return 0;
  const clientId = rows[0].clientId;
  const stored = await db
    .select({
      id: alerts.id,
      key: alerts.dedupeKey,
      subscriptionId: alerts.subscriptionId,
    })
    .from(alerts)
    .where(
      and(
        eq(alerts.clientId, clientId),
        sql`${alerts.dedupeKey} = any (${`{${rows.map((r) => JSON.stringify(r.dedupeKey)).join(',')}}`}::text[])`,
      ),
    );
  const known = new Map(stored.map((r) => [r.key, r]));
  for (const r of rows) {
    const old = known.get(r.dedupeKey);
    if (!old) continue;
    if (old.subscriptionId == null && r.subscriptionId != null)
      await db.update(alerts).set({ subscriptionId: r.subscriptionId }).where(eq(alerts.id, old.id));
  }
  const fresh = rows.filter((r) => !known.has(r.dedupeKey));
  let added = 0;
  for (let i = 0; i < fresh.length; i += 500) {
    // A concurrent evaluation of the same finding: the unique key keeps one.
    const done = await db
      .insert(alerts)
      .values(fresh.slice(i, i + 500))
      .onConflictDoNothing({ target: [alerts.clientId, alerts.dedupeKey] })
      .returning({ id: alerts.id });
    added += done.length;
  }
  return added;
}

/** The advisory lock's first key: a client's alert evaluations (the second is the client's id). */
const EVALUATE_LOCK = 20261202;

/**
 * Evaluates the import rules for one uploaded invoice in one transaction; returns the alerts
 * added (0 for an invoice not uploaded, or evaluated before).
 */
export async function evaluateInvoiceAlerts(db: Db, invoiceId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const [inv] = await tx
      .select({
        clientId: invoices.clientId,
        operatorId: invoices.operatorId,
        subCompanyId: invoices.subCompanyId,
        month: invoices.periodStart,
        state: invoices.uploadState,
      })
      .from(invoices)
      .where(eq(invoices.id, invoiceId))
      // A delete of the invoice waits for this evaluation (and then deletes its alerts), or came
      // first and there is nothing to evaluate.
      .for('key share');
    if (!inv || inv.state !== 'uploaded' || inv.operatorId == null || !inv.month) return 0;
    const month = `${inv.month.slice(0, 7)}-01`;
    const { clientId, operatorId } = inv;
    // One evaluation of a client at a time (the follow-up worker's job, the daily run, another
    // instance): each reads the alerts the others stored, so an unchanged charge of months
    // evaluated side by side is alerted once, not once each (issue 37 item 12).
    await tx.execute(sql`select pg_advisory_xact_lock(${EVALUATE_LOCK}, ${clientId})`);
    const settings = await ruleSettings(tx, clientId);
    if (!Object.values(settings).some((r) => r.enabled)) return 0;
    const from = addMonths(month, -USUAL_MONTHS);
    const prev = addMonths(month, -1);
    // Invoices of the same operator and invoicing sub-company (an operator may bill each sub-company
    // on its own invoice): last month's is what "gone" compares with.
    const sameAccount = sql`i.client_id = ${clientId} and i.operator_id = ${operatorId}
      and i.upload_state = 'uploaded' and i.sub_company_id is not distinct from ${inv.subCompanyId}`;

    // The invoice's own lines first (by its index): roaming, service numbers and which
    // subscriptions it bills; the other reads take those ids as one array parameter.
    const usageRes = await tx.execute(sql`
      select l.subscription_id as id,
        coalesce(sum(l.amount) filter (where l.region in ('eu', 'nordic_baltic', 'world')
          and l.label not ilike 'ulkomaanpuhelut%'), 0)::text as roaming,
        coalesce(sum(l.amount) filter (where l.region = 'world'
          and l.label not ilike 'ulkomaanpuhelut%'), 0)::text as outside,
        coalesce(sum(l.amount) filter (where l.category = 'service_number'), 0)::text as service
      from invoice_lines l
      where l.invoice_id = ${invoiceId} and l.subscription_id is not null
      group by 1`);
    const usage = new Map(
      rowsOf<{ id: number; roaming: string; outside: string; service: string }>(usageRes).map((r) => [
        r.id,
        { roaming: cents(r.roaming), outside: cents(r.outside), service: cents(r.service) },
      ]),
    );
    const onInvoice = [...usage.keys()];
    const ids = sql`${`{${onInvoice.join(',')}}`}::int[]`;

    // Subscriptions on last month's invoice of the account and not on any of this month's.
    const goneRes = await tx.execute(sql`
      select distinct f.subscription_id as id from monthly_facts f join invoices i on i.id = f.invoice_id
      where ${sameAccount} and f.month = ${prev}::date and f.subscription_id is not null
        and f.subscription_id <> all (${ids})
        and not exists (select 1 from monthly_facts g join invoices j on j.id = g.invoice_id
          where g.subscription_id = f.subscription_id and g.month = ${month}::date
            and j.client_id = ${clientId} and j.operator_id = ${operatorId} and j.upload_state = 'uploaded')`);
    const goneIds = rowsOf<{ id: number }>(goneRes).map((r) => r.id);
    const all = sql`${`{${[...onInvoice, ...goneIds].join(',')}}`}::int[]`;

    const subsRes = await tx.execute(sql`
      select s.id, s.phone_number as phone, s.user_name as "userName", s.sub_company_id as "subCompanyId",
             s.cost_center_id as "costCenterId", s.first_seen_month::text as "firstSeen"
      from subscriptions s where s.id = any (${all})`);
    const subs = new Map(rowsOf<SubRow>(subsRes).map((r) => [r.id, r]));
    if (subs.size === 0) return 0;

    // Month costs of the invoice's subscriptions (this month and the six before), and last
    // month's of the gone ones (for their sentence).
    // The dashboards' per-subscription month sums in cents (kept by the facts' trigger in this
    // same transaction's view; migration 0007), not the facts themselves: a row per month.
    const costsRes = await tx.execute(sql`
      select c.subscription_id as id, c.month::text as month, sum(c.cents)::bigint as cents
      from subscription_month_cost c
      where c.client_id = ${clientId} and c.month between ${from}::date and ${month}::date
        and c.subscription_id = any (${all})
      group by 1, 2`);
    const monthCosts = new Map<number, Map<string, number>>();
    for (const r of rowsOf<{ id: number; month: string; cents: string | number }>(costsRes)) {
      let m = monthCosts.get(r.id);
      if (!m) monthCosts.set(r.id, (m = new Map()));
      m.set(r.month, Number(r.cents));
    }

    const [{ earlier }] = rowsOf<{ earlier: boolean }>(
      await tx.execute(sql`select exists (select 1 from invoices i where ${sameAccount}
        and i.period_start < ${month}::date) as earlier`),
    );
    const newSubs = earlier ? onInvoice.filter((id) => subs.get(id)?.firstSeen === month) : [];

    const goneSubs = goneIds.map((id) => subs.get(id)).filter((s): s is SubRow => !!s);

    // The service-number charges over the threshold: their months around this one, and the months
    // their numbers were alerted for one (an unchanged charge already alerted is not again).
    const charged = [...usage].filter(([, u]) => serviceOverThreshold(settings, u.service)).map(([id]) => id);
    const serviceHistory = {
      byMonth: new Map<number, Map<string, number>>(),
      alerted: new Map<string, string[]>(),
    };
    if (charged.length) {
      const chargedIds = sql`${`{${charged.join(',')}}`}::int[]`;
      const historyRes = await tx.execute(sql`
        select l.subscription_id as id, to_char(i.period_start, 'YYYY-MM-01') as month,
          sum(l.amount)::text as service
        from invoice_lines l join invoices i on i.id = l.invoice_id
        where l.subscription_id = any (${chargedIds}) and l.category = 'service_number'
          and i.client_id = ${clientId} and i.upload_state = 'uploaded'
          and i.period_start >= ${addMonths(month, -SERVICE_RUN_MONTHS)}::date
          and i.period_start < ${addMonths(month, SERVICE_RUN_MONTHS + 1)}::date
        group by 1, 2`);
      for (const r of rowsOf<{ id: number; month: string; service: string }>(historyRes)) {
        let m = serviceHistory.byMonth.get(r.id);
        if (!m) serviceHistory.byMonth.set(r.id, (m = new Map()));
        m.set(r.month, cents(r.service));
      }
      const phones = charged.map((id) => subs.get(id)?.phone).filter((p): p is string => !!p);
      const alertedRes = await tx.execute(sql`
        select a.figures->>'phone' as phone, a.month::text as month from alerts a
        where a.client_id = ${clientId} and a.rule = 'service_numbers'
          and a.figures->>'phone' = any (${`{${phones.map((p) => JSON.stringify(p)).join(',')}}`}::text[])`);
      for (const r of rowsOf<{ phone: string; month: string }>(alertedRes)) {
        serviceHistory.alerted.set(r.phone, [...(serviceHistory.alerted.get(r.phone) ?? []), r.month]);
      }
    }

    const rows = findings({
      clientId,
      invoiceId,
      operatorId,
      month,
      settings,
      subs,
      monthCosts,
      usage,
      newSubs,
      goneSubs,
      serviceHistory,
    });
    const added = await storeAlerts(tx, rows);
    if (charged.length) await dropLaterAlertsOfARun(tx, clientId, charged, subs, serviceHistory.byMonth);
    return added;
  });
}

/**
 * Months imported out of order can leave two alerts on one unchanged charge: January and March
 * alerted before February arrived, then February's same amount joins them into one run. The
 * later alerts of such a run, still open, go: one alert a charge, whatever the order of the
 * imports (issue 37 item 12). An acknowledged alert stays (the user has seen it).
 */
async function dropLaterAlertsOfARun(
  tx: Executor,
  clientId: number,
  charged: number[],
  subs: Map<number, SubRow>,
  byMonth: Map<number, Map<string, number>>,
): Promise<void> {
  const subOf = new Map(charged.map((id) => [subs.get(id)?.phone, id] as const));
  const phones = [...subOf.keys()].filter((p): p is string => !!p);
  const stored = await tx.execute(sql`
    select a.id, a.figures->>'phone' as phone, a.month::text as month, a.state from alerts a
    where a.client_id = ${clientId} and a.rule = 'service_numbers'
      and a.figures->>'phone' = any (${`{${phones.map((p) => JSON.stringify(p)).join(',')}}`}::text[])
    order by a.month`);
  const all = rowsOf<{ id: number; phone: string; month: string; state: string }>(stored);
  const drop: number[] = [];
  for (const a of all) {
    const months = byMonth.get(subOf.get(a.phone)!);
    const cents = months?.get(a.month);
    if (a.state !== 'open' || cents === undefined) continue;
    const earlier = all.filter((b) => b.phone === a.phone && b.month < a.month && !drop.includes(b.id));
    if (
      alertedUnchanged(
        a.month,
        cents,
        months,
        earlier.map((b) => b.month),
      )
    )
      drop.push(a.id);
  }
  if (drop.length) await tx.delete(alerts).where(inArray(alerts.id, drop));
}

/** The alerts of an invoice (tests). */
export async function alertsOfInvoice(db: Executor, invoiceId: number) {
  return db
    .select()
    .from(alerts)
    .where(and(eq(alerts.invoiceId, invoiceId)));
}
