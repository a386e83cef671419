import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  costElements,
  files,
  invoiceLines,
  invoices,
  monthlyFacts,
  subscriptions,
} from '../../db/schema/index.js';

/**
 * Test and bench data of the alert rules: an uploaded invoice written as an import writes it
 * (header, subscriptions, lines, monthly facts), with exactly the amounts a case needs.
 */
export interface TestLine {
  label: string;
  category: string;
  region?: string | null;
  /** Euros. */
  amount: number;
}
export interface TestSub {
  phone: string;
  userName?: string;
  subCompanyId?: number | null;
  costCenterId?: number | null;
  /** A monthly fee of this many euros, or the lines given. */
  fee?: number;
  lines?: TestLine[];
}

const money = (n: number) => n.toFixed(2);
const monthEnd = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

const elementIds = new Map<string, number>();

async function elementOf(db: Executor, operatorId: number, label: string): Promise<number> {
  const key = `${operatorId}:${label.toLowerCase()}`;
  const known = elementIds.get(key);
  if (known) {
    const [still] = await db
      .select({ id: costElements.id })
      .from(costElements)
      .where(eq(costElements.id, known));
    if (still) return known;
  }
  const [found] = await db
    .select({ id: costElements.id })
    .from(costElements)
    .where(and(eq(costElements.operatorId, operatorId), sql`lower(${costElements.name}) = lower(${label})`));
  const id =
    found?.id ??
    (await db.insert(costElements).values({ name: label, operatorId }).returning({ id: costElements.id }))[0]
      .id;
  elementIds.set(key, id);
  return id;
}

/** Writes an uploaded invoice of `month` (YYYY-MM-01); returns its id. */
export async function writeTestInvoice(
  db: Executor,
  opts: {
    clientId: number;
    operatorId: number;
    month: string;
    subCompanyId?: number | null;
    subs: TestSub[];
  },
): Promise<number> {
  const { clientId, operatorId, month } = opts;
  const [file] = await db
    .insert(files)
    .values({
      clientId,
      kind: 'invoice',
      name: 'test.pdf',
      mime: 'application/pdf',
      size: 0,
      data: Buffer.alloc(0),
    })
    .returning({ id: files.id });
  const [inv] = await db
    .insert(invoices)
    .values({
      clientId,
      operatorId,
      subCompanyId: opts.subCompanyId ?? null,
      fileId: file.id,
      fileName: `test-${month}.pdf`,
      fileSha256: `${clientId}-${operatorId}-${month}-${Math.random()}`,
      batchId: 'test',
      invoiceNumber: `T${month}${Math.floor(Math.random() * 1e9)}`,
      invoiceDate: month,
      periodStart: month,
      periodEnd: monthEnd(month),
      uploadState: 'uploaded',
      parsingStatus: 'completed',
    })
    .returning({ id: invoices.id });
  const lines: (typeof invoiceLines.$inferInsert)[] = [];
  const facts = new Map<string, typeof monthlyFacts.$inferInsert>();
  for (const s of opts.subs) {
    const [sub] = await db
      .insert(subscriptions)
      .values({
        clientId,
        phoneNumber: s.phone,
        userName: s.userName ?? 'Test User',
        operatorId,
        subCompanyId: s.subCompanyId ?? null,
        costCenterId: s.costCenterId ?? null,
        firstSeenMonth: month,
        lastSeenMonth: month,
      })
      .onConflictDoUpdate({
        target: [subscriptions.clientId, subscriptions.phoneNumber],
        set: {
          firstSeenMonth: sql`least(${subscriptions.firstSeenMonth}, excluded.first_seen_month)`,
          lastSeenMonth: sql`greatest(${subscriptions.lastSeenMonth}, excluded.last_seen_month)`,
        },
      })
      .returning({
        id: subscriptions.id,
        subCompanyId: subscriptions.subCompanyId,
        costCenterId: subscriptions.costCenterId,
      });
    const own = s.lines ?? [{ label: 'Test plan', category: 'monthly_fee', amount: s.fee ?? 20 }];
    for (const l of own) {
      const costElementId = await elementOf(db, operatorId, l.label);
      lines.push({
        invoiceId: inv.id,
        clientId,
        subscriptionId: sub.id,
        position: lines.length + 1,
        label: l.label,
        costElementId,
        category: l.category,
        region: l.region ?? null,
        amount: money(l.amount),
      });
      const key = `${sub.id}:${costElementId}`;
      const f = facts.get(key);
      if (f) f.amount = money(Number(f.amount) + l.amount);
      else
        facts.set(key, {
          clientId,
          invoiceId: inv.id,
          operatorId,
          subscriptionId: sub.id,
          subCompanyId: sub.subCompanyId,
          costCenterId: sub.costCenterId,
          month,
          costElementId,
          amount: money(l.amount),
        });
    }
  }
  for (let i = 0; i < lines.length; i += 1000) await db.insert(invoiceLines).values(lines.slice(i, i + 1000));
  const all = [...facts.values()];
  for (let i = 0; i < all.length; i += 1000) await db.insert(monthlyFacts).values(all.slice(i, i + 1000));
  return inv.id;
}
