import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { InvoiceLine, ParsedInvoice } from '@kulu/invoices';
import type { MessageCode } from '@kulu/shared';
import {
  clientOperators,
  clients,
  costCategories,
  costCenters,
  costElements,
  invoiceLines,
  invoices,
  monthlyFacts,
  operators,
  planGroups,
  plans,
  skippedPhoneNumbers,
  subCompanies,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db, Tx } from '../../db/client.js';
import { insertRows, updateRows } from '../../db/bulk.js';
import { logActivity } from '../../lib/activity-log.js';
import type { PhaseClock } from '../../lib/phases.js';

/** A deterministic refusal of an import (the invoice is marked failed, nothing else is written). */
export class ImportRefusal extends Error {
  constructor(
    readonly code: MessageCode,
    detail: string,
    /** Whom the refused invoice was addressed to (kept on the failed invoice, shown on its page). */
    readonly buyer?: InvoiceBuyer,
  ) {
    super(detail);
    this.name = 'ImportRefusal';
  }
}

export interface InvoiceBuyer {
  name: string;
  businessId: string | null;
}

const normalBusinessId = (id: string) => id.replace(/\s/g, '');

/** Legal forms and their words, left out when two company names are compared. */
const LEGAL_FORMS = new Set([
  'oy',
  'oyj',
  'ab',
  'abp',
  'ky',
  'ay',
  'tmi',
  'osakeyhtiö',
  'julkinen',
  'aktiebolag',
  'ltd',
  'limited',
  'inc',
  'gmbh',
  'as',
  'ry',
]);

/** A company name compared by its words: case, punctuation and the legal form do not matter. */
export function companyNameKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLocaleLowerCase('fi')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !LEGAL_FORMS.has(w))
    .join(' ');
}

/** The names an invoice of the client may be addressed to: the company's and its sub-companies'. */
export interface ClientNames {
  businessId: string;
  names: string[];
}

/**
 * The buyer printed on the invoice against the client: a business id must be the client's (any
 * other refuses the import; the reason names only the printed id, never whether or which other
 * client has it). A PDF that prints no business id must name the client or one of its sub-companies
 * as the buyer (issue 37, item 11: case, punctuation and legal form aside), unless a company admin
 * `confirmed` it; else it is refused as `invoiceBuyerUnknown`, keeping the printed name. An
 * e-invoice names its buyer's id in a field of its own, so one without it is refused.
 */
export function checkBuyer(
  client: ClientNames,
  parsed: ParsedInvoice,
  format: 'pdf' | 'finvoice' = 'pdf',
  confirmed = false,
): void {
  if (parsed.businessId == null) {
    // An e-invoice names its buyer in a field of its own, so one without it is not known to be
    // the client's (docs/decisions/0020-finvoice.md).
    if (format === 'finvoice') {
      throw new ImportRefusal('invoiceNoBuyer', 'the e-invoice names no buyer business id', {
        name: parsed.customerName,
        businessId: null,
      });
    }
    const printed = companyNameKey(parsed.customerName);
    if (confirmed || (printed && client.names.some((n) => companyNameKey(n) === printed))) return;
    throw new ImportRefusal(
      'invoiceBuyerUnknown',
      `the invoice prints no business id and its buyer "${parsed.customerName}" is not the client's name`,
      { name: parsed.customerName, businessId: null },
    );
  }
  if (normalBusinessId(parsed.businessId) === normalBusinessId(client.businessId)) return;
  throw new ImportRefusal(
    'invoiceOtherBuyer',
    `the invoice is addressed to business id ${parsed.businessId}, not to the client's`,
    { name: parsed.customerName, businessId: parsed.businessId },
  );
}

/** Test seam: called inside the import transaction after the lines are written (to fail midway). */
export const importTestHooks: { afterLines?: (invoiceId: number, tx: Tx) => void | Promise<void> } = {};

const cents = (n: number): number => Math.round(n * 100);
const fromCents = (c: number): string => {
  const sign = c < 0 ? '-' : '';
  const a = Math.abs(c);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
};
const monthOf = (isoDate: string) => `${isoDate.slice(0, 7)}-01`;
const monthEnd = (isoDate: string) => {
  const [y, m] = isoDate.split('-').map(Number);
  return `${isoDate.slice(0, 7)}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};
const CHUNK = 500;
async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

type CategoryRow = { id: number; name: string; operatorId: number | null; usageType: string; zone: string };

/**
 * The cost category rule for a label nobody has categorized yet: the parser's category hint and
 * roaming region against the cost categories' usage type and zone (the operator's own categories
 * first). Service numbers go to a category named so; other voice to the rest.
 */
function categoryByHint(line: InvoiceLine, categories: CategoryRow[], operatorId: number): number | null {
  const usage =
    line.category === 'service_number' ? 'voice' : line.category === 'other' ? null : line.category;
  if (!usage) return null;
  const zone = line.region ?? 'domestic';
  const candidates = categories
    .filter((c) => c.usageType === usage && c.zone === zone)
    .filter((c) => c.operatorId === null || c.operatorId === operatorId)
    .filter((c) => (line.category === 'service_number') === /service/i.test(c.name))
    .sort((a, b) => (b.operatorId ?? 0) - (a.operatorId ?? 0));
  return candidates[0]?.id ?? null;
}

/**
 * Writes a parsed invoice in ONE transaction: the header, subscriptions (created on first sight),
 * cost elements for new labels (auto-categorized where a plan group or a category rule matches),
 * lines and monthly facts. The client row is locked first, so imports of one client run one at a
 * time; the invoice row is re-checked, so a job that runs twice writes once. Throws ImportRefusal
 * for an invoice that must not be imported (addressed to another company, already parsed, unknown
 * operator, an operator the client has no contract with); any error rolls
 * everything back. `clock` (measurement) gets a lap per step, named `import.*`.
 */
export async function importParsedInvoice(
  db: Db,
  invoiceId: number,
  parsed: ParsedInvoice,
  now: Date,
  clock?: PhaseClock,
  /** CLIENT_COST_ELEMENTS_MAX: the most cost elements of its own a client's uploads may add. */
  clientElementsMax = Infinity,
) {
  return db.transaction(async (tx) => {
    const [head] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update');
    if (!head || head.uploadState !== 'in_progress') return { imported: false as const };
    const [client] = await tx
      .select({ id: clients.id, businessId: clients.businessId, name: clients.companyName })
      .from(clients)
      .where(eq(clients.id, head.clientId))
      .for('update');
    const names =
      parsed.businessId == null
        ? [
            client.name,
            ...(
              await tx
                .select({ name: subCompanies.name })
                .from(subCompanies)
                .where(eq(subCompanies.clientId, head.clientId))
            ).map((r) => r.name),
          ]
        : [];
    checkBuyer({ businessId: client.businessId, names }, parsed, head.format, head.buyerConfirmedAt !== null);

    const [operator] = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(sql`lower(${operators.name}) = lower(${parsed.operator})`);
    if (!operator) {
      throw new ImportRefusal('invoiceUnknownOperator', `operator ${parsed.operator} is not in use`);
    }
    // Only invoices of operators the client has a contract with (operator contracts, spec §3).
    const [contract] = await tx
      .select({ id: clientOperators.id })
      .from(clientOperators)
      .where(and(eq(clientOperators.clientId, head.clientId), eq(clientOperators.operatorId, operator.id)));
    if (!contract) {
      throw new ImportRefusal(
        'invoiceOperatorNoContract',
        `the client has no operator contract with ${parsed.operator}`,
      );
    }
    const [dup] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(
        and(
          eq(invoices.clientId, head.clientId),
          eq(invoices.operatorId, operator.id),
          eq(invoices.invoiceNumber, parsed.invoiceNumber),
          eq(invoices.uploadState, 'uploaded'),
        ),
      );
    if (dup) {
      throw new ImportRefusal(
        'invoiceAlreadyParsed',
        `invoice ${parsed.invoiceNumber} of ${parsed.operator} was already parsed`,
      );
    }
    const month = monthOf(parsed.invoiceDate);
    clock?.lap('import.checks');
    const counts = await writeBody(tx, head, operator.id, parsed, month, now, clock, clientElementsMax);
    if (importTestHooks.afterLines) await importTestHooks.afterLines(invoiceId, tx);

    await tx
      .update(invoices)
      .set({
        operatorId: operator.id,
        invoiceNumber: parsed.invoiceNumber,
        invoiceDate: parsed.invoiceDate,
        dueDate: parsed.dueDate,
        periodStart: month,
        periodEnd: monthEnd(parsed.invoiceDate),
        customerName: parsed.customerName,
        businessId: parsed.businessId,
        currency: parsed.currency,
        vatRate: parsed.vatRate.toFixed(2),
        totalExclVat: fromCents(cents(parsed.totalExclVat)),
        vatAmount: fromCents(cents(parsed.vatAmount)),
        totalInclVat: fromCents(cents(parsed.totalInclVat)),
        uploadState: 'uploaded',
        parsingStatus: 'completed',
        errorCode: null,
        errorMessage: null,
        parsedAt: now,
        lineCount: counts.lines,
        subscriptionCount: counts.lineSubscriptions,
      })
      .where(eq(invoices.id, invoiceId));
    clock?.lap('import.header');
    return { imported: true as const, clientId: head.clientId, ...counts };
  });
}

/** The element of a client's lines whose new names passed CLIENT_COST_ELEMENTS_MAX. */
export const OTHER_ELEMENT_NAME = 'Muut maksut / Other charges';

/** The client's own "Other charges" of the operator (created at its first need). */
async function otherElement(tx: Tx, clientId: number, operatorId: number, now: Date) {
  const key = and(
    eq(costElements.operatorId, operatorId),
    eq(costElements.clientId, clientId),
    sql`lower(${costElements.name}) = lower(${OTHER_ELEMENT_NAME})`,
  );
  const pick = { id: costElements.id, categoryId: costElements.costCategoryId };
  const [found] = await tx.select(pick).from(costElements).where(key);
  if (found) return found;
  const [made] = await tx
    .insert(costElements)
    .values({ name: OTHER_ELEMENT_NAME, operatorId, clientId, createdAt: now, updatedAt: now })
    .returning(pick);
  return made;
}

async function writeBody(
  tx: Tx,
  head: typeof invoices.$inferSelect,
  operatorId: number,
  parsed: ParsedInvoice,
  month: string,
  now: Date,
  clock?: PhaseClock,
  clientElementsMax = Infinity,
) {
  const clientId = head.clientId;
  const skipped = new Set(
    (
      await tx
        .select({ phone: skippedPhoneNumbers.phoneNumber })
        .from(skippedPhoneNumbers)
        .where(or(isNull(skippedPhoneNumbers.clientId), eq(skippedPhoneNumbers.clientId, clientId)))
    ).map((r) => r.phone.replace(/[\s-]/g, '')),
  );
  const subs = parsed.subscriptions.filter((s) => !skipped.has(s.phoneNumber));

  // Cost elements: one per operator and label (case-insensitive), the shared one (client_id null)
  // before the client's own. A name a company's own upload brings that neither has is kept as the
  // client's own (never another client's, never on the provider's shared list), at most
  // `clientElementsMax` of them; the lines of further new names go to the client's "Other charges"
  // of the operator, and the activity log says why (issue 37 item 7). The demo and the operator
  // portals' automation bring the operators' own names: shared.
  const allLines = [...subs.flatMap((s) => s.lines), ...parsed.otherLines];
  const labels = new Map<string, InvoiceLine>();
  for (const l of allLines) if (!labels.has(l.label.toLowerCase())) labels.set(l.label.toLowerCase(), l);
  const elementOf = new Map<string, { id: number; categoryId: number | null }>();
  const ownNames = head.source === 'upload';
  const loadElements = async (names: string[]) => {
    const rows = await tx
      .select({
        id: costElements.id,
        name: costElements.name,
        categoryId: costElements.costCategoryId,
        clientId: costElements.clientId,
      })
      .from(costElements)
      .where(
        and(
          eq(costElements.operatorId, operatorId),
          inArray(sql`lower(${costElements.name})`, names),
          or(isNull(costElements.clientId), eq(costElements.clientId, clientId)),
        ),
      )
      .orderBy(sql`${costElements.clientId} is null`);
    // The client's own first, then the shared ones over them.
    for (const r of rows) elementOf.set(r.name.toLowerCase(), { id: r.id, categoryId: r.categoryId });
  };
  if (labels.size) await loadElements([...labels.keys()]);
  let fresh = [...labels].filter(([k]) => !elementOf.has(k)).map(([, l]) => l);
  let overLimit: InvoiceLine[] = [];
  if (ownNames && fresh.length) {
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(costElements)
      .where(eq(costElements.clientId, clientId));
    const room = Math.max(0, clientElementsMax - n);
    overLimit = fresh.slice(room);
    fresh = fresh.slice(0, room);
  }

  // Plans of the operator (the client's own contract rows first), with their plan group's rule.
  const planRows = await tx
    .select({
      id: plans.id,
      name: plans.name,
      clientId: plans.clientId,
      groupCategoryId: planGroups.costCategoryId,
      groupAuto: planGroups.automaticCategorization,
    })
    .from(plans)
    .leftJoin(planGroups, eq(planGroups.id, plans.planGroupId))
    .where(and(eq(plans.operatorId, operatorId), or(isNull(plans.clientId), eq(plans.clientId, clientId))));
  const planOf = new Map<string, (typeof planRows)[number]>();
  for (const p of planRows.sort((a, b) => (a.clientId ?? 0) - (b.clientId ?? 0))) {
    planOf.set(p.name.toLowerCase(), p);
  }

  if (fresh.length) {
    const categories = await tx
      .select({
        id: costCategories.id,
        name: costCategories.name,
        operatorId: costCategories.operatorId,
        usageType: costCategories.usageType,
        zone: costCategories.zone,
      })
      .from(costCategories);
    const values = fresh.map((l) => {
      const plan = planOf.get(l.label.toLowerCase());
      const categoryId =
        plan?.groupAuto && plan.groupCategoryId
          ? plan.groupCategoryId
          : categoryByHint(l, categories, operatorId);
      return {
        name: l.label,
        operatorId,
        clientId: ownNames ? clientId : null,
        costCategoryId: categoryId,
        status: categoryId ? ('auto_categorized' as const) : ('uncategorized' as const),
        createdAt: now,
        updatedAt: now,
      };
    });
    await insertChunked(values, (chunk) => tx.insert(costElements).values(chunk).onConflictDoNothing());
    await loadElements(fresh.map((l) => l.label.toLowerCase()));
  }
  if (overLimit.length) {
    const other = await otherElement(tx, clientId, operatorId, now);
    for (const l of overLimit) elementOf.set(l.label.toLowerCase(), other);
    await logActivity(tx, {
      userId: null,
      clientId,
      area: 'invoices',
      action: 'import',
      entity: 'invoice',
      entityId: head.id,
      after: {
        reason: 'costElementsLimited',
        limit: clientElementsMax,
        names: overLimit.length,
        costElement: OTHER_ELEMENT_NAME,
        firstNames: overLimit.slice(0, 10).map((l) => l.label.slice(0, 100)),
      },
    });
  }

  clock?.lap('import.elements');
  // Cost centers by the printed code: an existing one named by the code (or "code name"), else a new one.
  const centerRows = await tx
    .select({ id: costCenters.id, name: costCenters.name, subCompanyId: costCenters.subCompanyId })
    .from(costCenters)
    .where(eq(costCenters.clientId, clientId));
  const centerOf = new Map<string, { id: number; subCompanyId: number | null }>();
  const findCenter = (code: string) =>
    centerRows.find((c) => c.name.toLowerCase() === code.toLowerCase()) ??
    centerRows.find((c) => c.name.toLowerCase().startsWith(`${code.toLowerCase()} `));
  const codes = [...new Set(subs.map((s) => s.costCenter).filter((c): c is string => !!c))];
  // The codes no center has yet: created in one statement (a code differing only by case from an
  // earlier one is that center: one per lower-cased name), then read back by name.
  const missing = new Map<string, string>();
  for (const code of codes) {
    if (!findCenter(code) && !missing.has(code.toLowerCase())) missing.set(code.toLowerCase(), code);
  }
  const created = new Map<string, { id: number; subCompanyId: number | null }>();
  if (missing.size) {
    await tx
      .insert(costCenters)
      .values([...missing.values()].map((name) => ({ clientId, subCompanyId: head.subCompanyId, name })))
      .onConflictDoNothing();
    const rows = await tx
      .select({ id: costCenters.id, name: costCenters.name, subCompanyId: costCenters.subCompanyId })
      .from(costCenters)
      .where(
        and(
          eq(costCenters.clientId, clientId),
          inArray(sql`lower(${costCenters.name})`, [...missing.keys()]),
        ),
      );
    for (const r of rows) created.set(r.name.toLowerCase(), r);
  }
  for (const code of codes) {
    const center = findCenter(code) ?? created.get(code.toLowerCase())!;
    centerOf.set(code, { id: center.id, subCompanyId: center.subCompanyId });
  }

  clock?.lap('import.centers');
  // Subscriptions: created on first sight, refreshed by the newest invoice.
  const existing = new Map(
    (
      await tx
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.clientId, clientId),
            sql`${subscriptions.phoneNumber} = any(${sql.param(subs.map((s) => s.phoneNumber))}::text[])`,
          ),
        )
    ).map((s) => [s.phoneNumber, s]),
  );
  const subIdOf = new Map<string, { id: number; subCompanyId: number | null; costCenterId: number | null }>();
  const fresher: Array<typeof subscriptions.$inferInsert> = [];
  // Known subscriptions by id (a number twice on one invoice: its last sighting, as row by row did):
  // those of the newest month refreshed in full, those of an older month only their first month.
  const refreshed = new Map<number, Partial<typeof subscriptions.$inferInsert>>();
  const backdated = new Map<number, { id: number; firstSeenMonth: string }>();
  for (const s of subs) {
    const center = s.costCenter ? centerOf.get(s.costCenter) : undefined;
    const fee = s.lines.find((l) => l.category === 'monthly_fee' && planOf.has(l.label.toLowerCase()));
    const planId = fee ? planOf.get(fee.label.toLowerCase())!.id : null;
    const subCompanyId = center?.subCompanyId ?? head.subCompanyId ?? null;
    const old = existing.get(s.phoneNumber);
    if (!old) {
      fresher.push({
        clientId,
        phoneNumber: s.phoneNumber,
        userName: s.userName,
        operatorId,
        subCompanyId,
        costCenterId: center?.id ?? null,
        currentPlanId: planId,
        firstSeenMonth: month,
        lastSeenMonth: month,
        createdAt: now,
        updatedAt: now,
      });
      continue;
    }
    const firstSeenMonth = month < old.firstSeenMonth ? month : old.firstSeenMonth;
    if (month >= old.lastSeenMonth) {
      refreshed.set(old.id, {
        id: old.id,
        firstSeenMonth,
        lastSeenMonth: month,
        userName: s.userName,
        operatorId,
        subCompanyId: subCompanyId ?? old.subCompanyId,
        costCenterId: center?.id ?? old.costCenterId,
        currentPlanId: planId ?? old.currentPlanId,
        updatedAt: now,
      });
      backdated.delete(old.id);
    } else {
      backdated.set(old.id, { id: old.id, firstSeenMonth });
      refreshed.delete(old.id);
    }
  }
  // One statement per kind (db/bulk.ts), the rows as written read back (the lines and facts carry them).
  type Written = {
    id: number;
    phoneNumber: string;
    subCompanyId: number | null;
    costCenterId: number | null;
  };
  const written = sql`${subscriptions.id}, ${subscriptions.phoneNumber} as "phoneNumber", ${subscriptions.subCompanyId} as "subCompanyId", ${subscriptions.costCenterId} as "costCenterId"`;
  const keep = (rows: Written[]) => {
    for (const r of rows) {
      subIdOf.set(r.phoneNumber, { id: r.id, subCompanyId: r.subCompanyId, costCenterId: r.costCenterId });
    }
  };
  keep(
    await updateRows<typeof subscriptions, Written>(
      tx,
      subscriptions,
      [
        'id',
        'firstSeenMonth',
        'lastSeenMonth',
        'userName',
        'operatorId',
        'subCompanyId',
        'costCenterId',
        'currentPlanId',
        'updatedAt',
      ],
      [...refreshed.values()],
      written,
    ),
  );
  keep(
    await updateRows<typeof subscriptions, Written>(
      tx,
      subscriptions,
      ['id', 'firstSeenMonth'],
      [...backdated.values()],
      written,
    ),
  );
  keep(
    await insertRows<typeof subscriptions, Written>(
      tx,
      subscriptions,
      [
        'clientId',
        'phoneNumber',
        'userName',
        'operatorId',
        'subCompanyId',
        'costCenterId',
        'currentPlanId',
        'firstSeenMonth',
        'lastSeenMonth',
        'createdAt',
        'updatedAt',
      ],
      fresher,
      written,
    ),
  );

  clock?.lap('import.subscriptions');
  // Lines and facts (facts summed in integer cents / hundredths).
  const lineRows: Array<typeof invoiceLines.$inferInsert> = [];
  const facts = new Map<
    string,
    {
      sub: { id: number; subCompanyId: number | null; costCenterId: number | null } | null;
      element: { id: number; categoryId: number | null };
      cents: number;
      qty: number | null;
      unit: InvoiceLine['unit'];
      mixed: boolean;
    }
  >();
  let position = 0;
  const addLine = (
    sub: { id: number; subCompanyId: number | null; costCenterId: number | null } | null,
    l: InvoiceLine,
  ) => {
    const element = elementOf.get(l.label.toLowerCase());
    if (!element) throw new Error(`no cost element for label "${l.label}"`);
    lineRows.push({
      invoiceId: head.id,
      clientId,
      subscriptionId: sub?.id ?? null,
      position: position++,
      label: l.label,
      costElementId: element.id,
      category: l.category,
      region: l.region,
      periodStart: l.periodStart,
      periodEnd: l.periodEnd,
      count: l.count,
      quantity: l.quantity == null ? null : fromCents(cents(l.quantity)),
      unit: l.unit,
      unitPrice: l.unitPrice == null ? null : l.unitPrice.toFixed(4),
      amount: fromCents(cents(l.amount)),
    });
    const key = `${sub?.id ?? 0}:${element.id}`;
    const f = facts.get(key) ?? { sub, element, cents: 0, qty: null, unit: l.unit, mixed: false };
    f.cents += cents(l.amount);
    if (l.quantity != null) {
      if (f.unit !== l.unit) f.mixed = true;
      f.qty = (f.qty ?? 0) + cents(l.quantity);
    }
    facts.set(key, f);
  };
  for (const s of subs) {
    const sub = subIdOf.get(s.phoneNumber)!;
    for (const l of s.lines) addLine(sub, l);
  }
  for (const l of parsed.otherLines) addLine(null, l);
  await insertRows(
    tx,
    invoiceLines,
    [
      'invoiceId',
      'clientId',
      'subscriptionId',
      'position',
      'label',
      'costElementId',
      'category',
      'region',
      'periodStart',
      'periodEnd',
      'count',
      'quantity',
      'unit',
      'unitPrice',
      'amount',
    ],
    lineRows,
  );
  clock?.lap('import.lines');
  // One statement: monthly_facts' statement trigger (migration 0007) folds them into the summaries once.
  await insertRows(
    tx,
    monthlyFacts,
    [
      'clientId',
      'invoiceId',
      'operatorId',
      'subscriptionId',
      'subCompanyId',
      'costCenterId',
      'month',
      'costElementId',
      'costCategoryId',
      'amount',
      'quantity',
      'unit',
    ],
    [...facts.values()].map((f) => ({
      clientId,
      invoiceId: head.id,
      operatorId,
      subscriptionId: f.sub?.id ?? null,
      subCompanyId: f.sub ? f.sub.subCompanyId : head.subCompanyId,
      costCenterId: f.sub?.costCenterId ?? null,
      month,
      costElementId: f.element.id,
      costCategoryId: f.element.categoryId,
      amount: fromCents(f.cents),
      quantity: f.qty == null || f.mixed ? null : fromCents(f.qty),
      unit: f.qty == null || f.mixed ? null : f.unit,
    })),
  );
  clock?.lap('import.facts');
  return {
    subscriptions: subs.length,
    lines: lineRows.length,
    /** Subscriptions with at least one line (the invoice list's count). */
    lineSubscriptions: new Set(lineRows.flatMap((r) => (r.subscriptionId == null ? [] : [r.subscriptionId])))
      .size,
    skipped: parsed.subscriptions.length - subs.length,
  };
}
