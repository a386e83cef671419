import { and, asc, count, desc, eq, gt, gte, lte, max, sql, type SQL } from 'drizzle-orm';
import type {
  Alert,
  AlertAcknowledge,
  AlertCount,
  AlertExportQuery,
  AlertList,
  AlertListQuery,
  Lang,
} from '@kulu/shared';
import type { Db } from '../../db/client.js';
import { alerts, clients, subCompanies, users } from '../../db/schema/index.js';
import type { Scope } from '../../lib/scope.js';
import { alertText } from './alert-text.js';

/**
 * The caller's alerts: their clients, for a limited user their sub-companies and cost centers, and
 * the provider-side alerts (`audience = 'provider'`) only for the provider side. Every read of
 * alerts goes through this (the list, the export, acknowledging, the bell, the portfolio's counts).
 */
export const alertsInScope = (scope: Scope) =>
  scope.where({
    clientId: alerts.clientId,
    subCompanyId: alerts.subCompanyId,
    costCenterId: alerts.costCenterId,
    operatorId: alerts.operatorId,
    operatorUnknownPasses: true,
    audience: alerts.audience,
  });

async function filters(scope: Scope, q: AlertExportQuery): Promise<SQL | undefined> {
  if (q.clientId != null) await scope.assertClient(q.clientId);
  if (q.subCompanyId != null) await scope.assertSubCompany(q.subCompanyId);
  return and(
    alertsInScope(scope),
    q.clientId != null ? eq(alerts.clientId, q.clientId) : undefined,
    q.subCompanyId != null ? eq(alerts.subCompanyId, q.subCompanyId) : undefined,
    q.rule ? eq(alerts.rule, q.rule) : undefined,
    q.severity ? eq(alerts.severity, q.severity) : undefined,
    q.state ? eq(alerts.state, q.state) : undefined,
    q.from ? gte(alerts.month, `${q.from}-01`) : undefined,
    q.to ? lte(alerts.month, `${q.to}-01`) : undefined,
  );
}

const columns = {
  id: alerts.id,
  clientId: alerts.clientId,
  clientName: clients.companyName,
  subCompanyId: alerts.subCompanyId,
  subCompanyName: subCompanies.name,
  costCenterId: alerts.costCenterId,
  subscriptionId: alerts.subscriptionId,
  invoiceId: alerts.invoiceId,
  contractId: alerts.contractId,
  rule: alerts.rule,
  severity: alerts.severity,
  state: alerts.state,
  month: sql<string>`${alerts.month}::text`,
  figures: alerts.figures,
  createdAt: alerts.createdAt,
  acknowledgedAt: alerts.acknowledgedAt,
  acknowledgedBy: users.fullName,
  note: alerts.acknowledgedNote,
};

type Row = {
  [K in keyof typeof columns]: unknown;
} & {
  rule: Alert['rule'];
  figures: Record<string, unknown>;
  month: string;
  createdAt: Date;
  acknowledgedAt: Date | null;
};

const toAlert = (r: Row, lang: Lang): Alert =>
  ({
    ...r,
    text: alertText(r.rule, r.figures, r.month, lang),
    createdAt: r.createdAt.toISOString(),
    acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
  }) as Alert;

const NEWEST_FIRST = [desc(alerts.month), desc(alerts.createdAt), desc(alerts.id)];

function query(db: Db, where: SQL | undefined, order: SQL[] = NEWEST_FIRST) {
  return db
    .select(columns)
    .from(alerts)
    .innerJoin(clients, eq(clients.id, alerts.clientId))
    .leftJoin(subCompanies, eq(subCompanies.id, alerts.subCompanyId))
    .leftJoin(users, eq(users.id, alerts.acknowledgedBy))
    .where(where)
    .orderBy(...order);
}

/** One page of the caller's alerts, newest month first; open before acknowledged is the filter's job. */
export async function listAlerts(db: Db, scope: Scope, q: AlertListQuery, lang: Lang): Promise<AlertList> {
  const where = await filters(scope, q);
  const [rows, [{ total }]] = await Promise.all([
    query(db, where)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(alerts).where(where),
  ]);
  return { items: rows.map((r) => toAlert(r as Row, lang)), total, page: q.page, pageSize: q.pageSize };
}

/** Every alert matching the filters, in batches (the Excel export). */
export async function* alertBatches(
  db: Db,
  scope: Scope,
  q: AlertExportQuery,
  lang: Lang,
): AsyncGenerator<Alert[]> {
  const where = await filters(scope, q);
  const size = 1000;
  for (let offset = 0; ; offset += size) {
    const rows = await query(db, where).limit(size).offset(offset);
    if (rows.length) yield rows.map((r) => toAlert(r as Row, lang));
    if (rows.length < size) return;
  }
}

/**
 * Acknowledges the caller's open alerts, with the note: those among `ids` (ids outside the scope or
 * already acknowledged are left as they are), or every one matching the list's filters (`matching`:
 * a client or sub-company outside the scope answers 404). One statement, however many: returns how
 * many changed.
 */
export async function acknowledgeAlerts(
  db: Db,
  scope: Scope,
  body: AlertAcknowledge,
  now: Date,
): Promise<number> {
  const which = body.matching
    ? await filters(scope, body.matching)
    : and(sql`${alerts.id} = any (${`{${(body.ids ?? []).join(',')}}`}::int[])`, alertsInScope(scope));
  const done = await db
    .update(alerts)
    .set({
      state: 'acknowledged',
      acknowledgedAt: now,
      acknowledgedBy: scope.userId,
      acknowledgedNote: body.note || null,
    })
    .where(and(which, eq(alerts.state, 'open')))
    .returning({ id: alerts.id });
  return done.length;
}

/** Open alerts the caller sees (the header's bell), and how many of them are high. */
export async function countOpen(db: Db, scope: Scope, clientId?: number): Promise<AlertCount> {
  if (clientId != null) await scope.assertClient(clientId);
  const [r] = await db
    .select({
      open: count(),
      high: sql<number>`count(*) filter (where ${alerts.severity} = 'high')`.mapWith(Number),
    })
    .from(alerts)
    .where(
      and(
        alertsInScope(scope),
        eq(alerts.state, 'open'),
        clientId != null ? eq(alerts.clientId, clientId) : undefined,
      ),
    );
  return { open: r.open, high: r.high };
}

/**
 * What a digest mail lists for the scope's user (decision 0026): their open alerts above
 * `afterId`, the `limit` most severe first (then oldest first), how many open ones there are in
 * all, and the highest id above `afterId` they see in any state (the user's next mark). Two
 * queries, whatever the number of alerts.
 */
export async function digestAlerts(
  db: Db,
  scope: Scope,
  afterId: number,
  limit: number,
  lang: Lang,
): Promise<{ items: Alert[]; open: number; lastId: number | null }> {
  const newer = and(alertsInScope(scope), gt(alerts.id, afterId));
  const open = and(newer, eq(alerts.state, 'open'));
  const [rows, [sum]] = await Promise.all([
    query(db, open, [
      sql`case ${alerts.severity} when 'high' then 0 when 'medium' then 1 else 2 end`,
      asc(alerts.id),
    ]).limit(limit),
    db
      .select({
        open: sql<number>`count(*) filter (where ${alerts.state} = 'open')`.mapWith(Number),
        lastId: max(alerts.id),
      })
      .from(alerts)
      .where(newer),
  ]);
  return { items: rows.map((r) => toAlert(r as Row, lang)), open: sum.open, lastId: sum.lastId };
}
