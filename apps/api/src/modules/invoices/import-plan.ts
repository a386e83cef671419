/**
 * The import as a pure plan (issue 38, docs/decisions/0031-invoice-pipeline.md): given the parsed
 * invoice and a snapshot of what the database holds for it (the `ImportCatalogue`: the client's
 * skipped numbers, cost elements, plans, categories, cost centers and subscriptions), the rows to
 * write — new cost elements and cost centers, subscriptions created, refreshed or backdated, the
 * lines, the monthly facts and the invoice's header values. No I/O here: the writer
 * (import.service.ts) reads the snapshot, applies the plan in one transaction and replaces the
 * planned ids of the rows it creates (negative numbers) with the database's.
 */
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice } from '@kulu/invoices';
import type { MessageCode } from '@kulu/shared';
import { reconciliationColumns } from './reconciliation.js';
import type {
  costElements,
  invoiceLines,
  invoices,
  monthlyFacts,
  subscriptions,
} from '../../db/schema/index.js';

/** A deterministic refusal of an import (the invoice is marked failed, nothing else is written). */
export class ImportRefusal extends Error {
  constructor(
    readonly code: MessageCode,
    detail: string,
    /** Whom the refused invoice was addressed to (kept on the failed invoice, shown on its page). */
    readonly buyer?: InvoiceBuyer,
    /** What else the failed invoice keeps: the operator (no contract), the number a copy or cancellation names. */
    readonly known?: RefusedInvoiceFacts,
  ) {
    super(detail);
    this.name = 'ImportRefusal';
  }
}

export interface InvoiceBuyer {
  name: string;
  businessId: string | null;
}

/** What a refusal records on the failed invoice beside its reason (invoices.service.ts markFailed). */
export interface RefusedInvoiceFacts {
  /** The operator the client has no contract with: the way forward adds one (item 7). */
  operatorId?: number;
  /** The invoice a copy or a cancellation names (its message names it). */
  invoiceNumber?: string;
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
 * e-invoice (any format but `pdf`) names its buyer's id in a field of its own, so one without it
 * is refused.
 */
export function checkBuyer(
  client: ClientNames,
  parsed: ParsedInvoice,
  format = 'pdf',
  confirmed = false,
): void {
  if (parsed.businessId == null) {
    // An e-invoice names its buyer in a field of its own, so one without it is not known to be
    // the client's (docs/decisions/0020-finvoice.md).
    if (format !== 'pdf') {
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

/** What the writer read about who the invoice is for, before anything of its body. */
export interface ImportParties {
  client: ClientNames;
  /** The invoice row's format (`pdf`, `finvoice`, …). */
  format: string;
  /** A company admin confirmed a PDF's printed buyer (issue 37, item 11). */
  buyerConfirmed: boolean;
  /** The operator named by the invoice, null where Kulu has none of that name. */
  operatorId: number | null;
  /** The client has an operator contract with it. */
  hasContract: boolean;
  /** The client already has this operator's invoice of this number uploaded. */
  duplicate: boolean;
  /**
   * For a copy or a cancellation (issue 38 item 5): the client already has this operator's invoice
   * of the number it names (`originalInvoiceNumber`, else its own number) uploaded.
   */
  originalKnown?: boolean;
}

/** The number a copy or a cancellation names: the original's where stated, else its own. */
export const referencedNumber = (parsed: ParsedInvoice) =>
  parsed.originalInvoiceNumber || parsed.invoiceNumber;

/**
 * What the document is (issue 38 item 5): a cancellation is never added as a cost (refused, naming
 * the invoice it cancels and whether Kulu has it: the user deletes that one, never Kulu); a copy of
 * an invoice Kulu has is refused, naming it; a copy of one Kulu does not have is the only record
 * of it and is imported (once: a second copy finds it).
 */
function checkOrigin(parsed: ParsedInvoice, parties: ImportParties, operatorId: number): void {
  if (!parsed.origin || parsed.origin === 'original') return;
  const known = { operatorId, invoiceNumber: referencedNumber(parsed) };
  if (parsed.origin === 'cancel') {
    throw new ImportRefusal(
      parties.originalKnown ? 'invoiceCancelsKnown' : 'invoiceCancelsUnknown',
      `the document cancels invoice ${known.invoiceNumber} of ${parsed.operator}`,
      undefined,
      known,
    );
  }
  if (parties.duplicate || parties.originalKnown) {
    throw new ImportRefusal(
      'invoiceCopyAlreadyImported',
      `the document is a copy of invoice ${known.invoiceNumber} of ${parsed.operator}, already imported`,
      undefined,
      known,
    );
  }
}

/**
 * The refusals, in order: whom the invoice is for (buyer), who sent it (operator, contract), then
 * whether it is new. Refusals of what the document is (a copy or a cancellation, issue 38 item 5)
 * belong here too, after the duplicate check. Returns the operator's id.
 */
export function checkImport(parsed: ParsedInvoice, parties: ImportParties): number {
  checkBuyer(parties.client, parsed, parties.format, parties.buyerConfirmed);
  if (parties.operatorId == null) {
    throw new ImportRefusal('invoiceUnknownOperator', `operator ${parsed.operator} is not in use`);
  }
  // Only invoices of operators the client has a contract with (operator contracts, spec §3).
  if (!parties.hasContract) {
    throw new ImportRefusal(
      'invoiceOperatorNoContract',
      `the client has no operator contract with ${parsed.operator}`,
      undefined,
      // The way forward adds a contract with it and reads the invoice again (item 7).
      { operatorId: parties.operatorId },
    );
  }
  checkOrigin(parsed, parties, parties.operatorId);
  if (parties.duplicate) {
    throw new ImportRefusal(
      'invoiceAlreadyParsed',
      `invoice ${parsed.invoiceNumber} of ${parsed.operator} was already parsed`,
    );
  }
  return parties.operatorId;
}

/** The element of a client's lines whose new names passed CLIENT_COST_ELEMENTS_MAX. */
export const OTHER_ELEMENT_NAME = 'Muut maksut / Other charges';

export interface ElementRef {
  id: number;
  categoryId: number | null;
}
export interface SubscriptionRef {
  id: number;
  subCompanyId: number | null;
  costCenterId: number | null;
}
export type CategoryRow = {
  id: number;
  name: string;
  operatorId: number | null;
  usageType: string;
  zone: string;
};
export type PlanRow = {
  id: number;
  name: string;
  clientId: number | null;
  groupCategoryId: number | null;
  groupAuto: boolean | null;
};
export type CenterRow = { id: number; name: string; subCompanyId: number | null };
export type KnownSubscription = Pick<
  typeof subscriptions.$inferSelect,
  'id' | 'firstSeenMonth' | 'lastSeenMonth' | 'subCompanyId' | 'costCenterId' | 'currentPlanId'
>;

/** The invoice row being imported, as the plan needs it. */
export interface ImportHead {
  id: number;
  clientId: number;
  subCompanyId: number | null;
  source: 'upload' | 'automation' | 'demo';
}

/** What the database holds that the invoice's rows are planned against (read by the writer). */
export interface ImportCatalogue {
  operatorId: number;
  /** Numbers skipped for the client (its own and everyone's), spaces and dashes removed. */
  skipped: Set<string>;
  /** The operator's cost elements of the invoice's labels by lower-cased name: a shared one over the client's own. */
  elements: Map<string, ElementRef>;
  /** Read only when a company's upload brings new names: how many elements of its own the client has… */
  clientElements: number;
  /** …and its "Other charges" of the operator, where it exists. */
  otherElement: ElementRef | null;
  /** Read only when there are new names: every cost category, for the category rule. */
  categories: CategoryRow[];
  /** The operator's plans, shared and the client's own, with their plan group's rule. */
  plans: PlanRow[];
  /** The client's cost centers. */
  centers: CenterRow[];
  /** The client's subscriptions of the invoice's numbers, by number. */
  subscriptions: Map<string, KnownSubscription>;
}

export interface ImportOptions {
  head: ImportHead;
  now: Date;
  /** CLIENT_COST_ELEMENTS_MAX: the most cost elements of its own a client's uploads may add. */
  clientElementsMax: number;
}

type NewElement = typeof costElements.$inferInsert & { ref: number };
type NewCenter = { ref: number; clientId: number; subCompanyId: number | null; name: string };
type NewSubscription = typeof subscriptions.$inferInsert & { ref: number; phoneNumber: string };

/** The rows an import writes. Ids below zero are rows the plan creates (the writer swaps them). */
export interface ImportPlan {
  operatorId: number;
  month: string;
  elements: {
    /** New cost elements (auto-categorized where a plan group or a category rule matches). */
    create: NewElement[];
    /** The client's "Other charges" to create (its planned id), when names passed the limit. */
    createOther: number | null;
    /** Names past the client's limit, sent to "Other charges" (the activity log says why). */
    limited: { limit: number; names: number; firstNames: string[] } | null;
  };
  centers: NewCenter[];
  subscriptions: {
    create: NewSubscription[];
    /** Known numbers of this month or later: refreshed in full. */
    refresh: Array<Partial<typeof subscriptions.$inferInsert> & { id: number }>;
    /** Known numbers of a later month: only their first month. */
    backdate: Array<{ id: number; firstSeenMonth: string }>;
  };
  lines: Array<typeof invoiceLines.$inferInsert>;
  facts: Array<typeof monthlyFacts.$inferInsert>;
  /** The invoice row's values once imported (stored fields of the parsed invoice go here too). */
  header: Partial<typeof invoices.$inferInsert>;
  counts: { subscriptions: number; lines: number; lineSubscriptions: number; skipped: number };
}

export const cents = (n: number): number => Math.round(n * 100);
export const fromCents = (c: number): string => {
  const sign = c < 0 ? '-' : '';
  const a = Math.abs(c);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
};
const monthOf = (isoDate: string) => `${isoDate.slice(0, 7)}-01`;
const monthEnd = (isoDate: string) => {
  const [y, m] = isoDate.split('-').map(Number);
  return `${isoDate.slice(0, 7)}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

/** A phone number as skipped numbers are compared: spaces and dashes removed. */
export const skippedKey = (phone: string) => phone.replace(/[\s-]/g, '');

/** The invoice's subscriptions but the skipped numbers. */
export function keptSubscriptions(parsed: ParsedInvoice, skipped: Set<string>): InvoiceSubscription[] {
  return parsed.subscriptions.filter((s) => !skipped.has(s.phoneNumber));
}

/** The labels of the lines an import keeps, by lower-cased name (the first line of each). */
export function invoiceLabels(parsed: ParsedInvoice, kept: InvoiceSubscription[]): Map<string, InvoiceLine> {
  const labels = new Map<string, InvoiceLine>();
  for (const s of kept)
    for (const l of s.lines) if (!labels.has(l.label.toLowerCase())) labels.set(l.label.toLowerCase(), l);
  for (const l of parsed.otherLines)
    if (!labels.has(l.label.toLowerCase())) labels.set(l.label.toLowerCase(), l);
  return labels;
}

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

/** Planned ids of created rows: -1, -2, … (never a database id). */
class Ids {
  private last = 0;
  next = () => --this.last;
}

/** The operator's plans by lower-cased name, the client's own contract rows over the shared ones. */
function plansByName(plans: PlanRow[]): Map<string, PlanRow> {
  const planOf = new Map<string, PlanRow>();
  for (const p of [...plans].sort((a, b) => (a.clientId ?? 0) - (b.clientId ?? 0)))
    planOf.set(p.name.toLowerCase(), p);
  return planOf;
}

/**
 * Cost elements: one per operator and label (case-insensitive), the shared one (client_id null)
 * before the client's own. A name a company's own upload brings that neither has is kept as the
 * client's own (never another client's, never on the provider's shared list), at most
 * `clientElementsMax` of them; the lines of further new names go to the client's "Other charges"
 * of the operator, and the activity log says why (issue 37 item 7). The demo and the operator
 * portals' automation bring the operators' own names: shared.
 */
function planElements(
  labels: Map<string, InvoiceLine>,
  catalogue: ImportCatalogue,
  planOf: Map<string, PlanRow>,
  options: ImportOptions,
  ids: Ids,
) {
  const { head, now, clientElementsMax } = options;
  const elementOf = new Map(catalogue.elements);
  const ownNames = head.source === 'upload';
  let fresh = [...labels].filter(([k]) => !elementOf.has(k)).map(([, l]) => l);
  let overLimit: InvoiceLine[] = [];
  if (ownNames && fresh.length) {
    const room = Math.max(0, clientElementsMax - catalogue.clientElements);
    overLimit = fresh.slice(room);
    fresh = fresh.slice(0, room);
  }
  const create: NewElement[] = fresh.map((l) => {
    const plan = planOf.get(l.label.toLowerCase());
    const costCategoryId =
      plan?.groupAuto && plan.groupCategoryId
        ? plan.groupCategoryId
        : categoryByHint(l, catalogue.categories, catalogue.operatorId);
    const ref = ids.next();
    elementOf.set(l.label.toLowerCase(), { id: ref, categoryId: costCategoryId });
    return {
      ref,
      name: l.label,
      operatorId: catalogue.operatorId,
      clientId: ownNames ? head.clientId : null,
      costCategoryId,
      status: costCategoryId ? ('auto_categorized' as const) : ('uncategorized' as const),
      createdAt: now,
      updatedAt: now,
    };
  });
  let createOther: number | null = null;
  if (overLimit.length) {
    let other = catalogue.otherElement;
    if (!other) {
      createOther = ids.next();
      other = { id: createOther, categoryId: null };
    }
    for (const l of overLimit) elementOf.set(l.label.toLowerCase(), other);
  }
  const limited = overLimit.length
    ? {
        limit: clientElementsMax,
        names: overLimit.length,
        firstNames: overLimit.slice(0, 10).map((l) => l.label.slice(0, 100)),
      }
    : null;
  return { elementOf, plan: { create, createOther, limited } };
}

/**
 * Cost centers by the printed code: an existing one named by the code (or "code name"), else a new
 * one (a code differing only by case from an earlier one is that center: one per lower-cased name).
 */
function planCenters(kept: InvoiceSubscription[], catalogue: ImportCatalogue, head: ImportHead, ids: Ids) {
  const findCenter = (code: string) =>
    catalogue.centers.find((c) => c.name.toLowerCase() === code.toLowerCase()) ??
    catalogue.centers.find((c) => c.name.toLowerCase().startsWith(`${code.toLowerCase()} `));
  const codes = [...new Set(kept.map((s) => s.costCenter).filter((c): c is string => !!c))];
  const create = new Map<string, NewCenter>();
  const centerOf = new Map<string, { id: number; subCompanyId: number | null }>();
  for (const code of codes) {
    const found = findCenter(code);
    if (found) {
      centerOf.set(code, { id: found.id, subCompanyId: found.subCompanyId });
      continue;
    }
    const key = code.toLowerCase();
    if (!create.has(key)) {
      create.set(key, {
        ref: ids.next(),
        clientId: head.clientId,
        subCompanyId: head.subCompanyId,
        name: code,
      });
    }
    const made = create.get(key)!;
    centerOf.set(code, { id: made.ref, subCompanyId: made.subCompanyId });
  }
  return { centerOf, create: [...create.values()] };
}

/** Subscriptions: created on first sight, refreshed by the newest invoice. */
function planSubscriptions(
  kept: InvoiceSubscription[],
  catalogue: ImportCatalogue,
  centerOf: Map<string, { id: number; subCompanyId: number | null }>,
  planOf: Map<string, PlanRow>,
  month: string,
  options: ImportOptions,
  ids: Ids,
) {
  const { head, now } = options;
  const subOf = new Map<string, SubscriptionRef>();
  const create: NewSubscription[] = [];
  // Known subscriptions by id (a number twice on one invoice: its last sighting, as row by row did):
  // those of the newest month refreshed in full, those of an older month only their first month.
  const refresh = new Map<number, Partial<typeof subscriptions.$inferInsert> & { id: number }>();
  const backdate = new Map<number, { id: number; firstSeenMonth: string }>();
  for (const s of kept) {
    const center = s.costCenter ? centerOf.get(s.costCenter) : undefined;
    const fee = s.lines.find((l) => l.category === 'monthly_fee' && planOf.has(l.label.toLowerCase()));
    const planId = fee ? planOf.get(fee.label.toLowerCase())!.id : null;
    const subCompanyId = center?.subCompanyId ?? head.subCompanyId ?? null;
    const old = catalogue.subscriptions.get(s.phoneNumber);
    if (!old) {
      const ref = ids.next();
      const row = {
        ref,
        clientId: head.clientId,
        phoneNumber: s.phoneNumber,
        userName: s.userName,
        operatorId: catalogue.operatorId,
        subCompanyId,
        costCenterId: center?.id ?? null,
        currentPlanId: planId,
        firstSeenMonth: month,
        lastSeenMonth: month,
        createdAt: now,
        updatedAt: now,
      };
      create.push(row);
      subOf.set(s.phoneNumber, { id: ref, subCompanyId, costCenterId: row.costCenterId });
      continue;
    }
    const firstSeenMonth = month < old.firstSeenMonth ? month : old.firstSeenMonth;
    if (month >= old.lastSeenMonth) {
      const row = {
        id: old.id,
        firstSeenMonth,
        lastSeenMonth: month,
        userName: s.userName,
        operatorId: catalogue.operatorId,
        subCompanyId: subCompanyId ?? old.subCompanyId,
        costCenterId: center?.id ?? old.costCenterId,
        currentPlanId: planId ?? old.currentPlanId,
        updatedAt: now,
      };
      refresh.set(old.id, row);
      backdate.delete(old.id);
      subOf.set(s.phoneNumber, {
        id: old.id,
        subCompanyId: row.subCompanyId,
        costCenterId: row.costCenterId,
      });
    } else {
      backdate.set(old.id, { id: old.id, firstSeenMonth });
      refresh.delete(old.id);
      subOf.set(s.phoneNumber, {
        id: old.id,
        subCompanyId: old.subCompanyId,
        costCenterId: old.costCenterId,
      });
    }
  }
  return { subOf, plan: { create, refresh: [...refresh.values()], backdate: [...backdate.values()] } };
}

/** Lines in document order and the monthly facts (summed in integer cents / hundredths). */
function planLinesAndFacts(
  parsed: ParsedInvoice,
  kept: InvoiceSubscription[],
  elementOf: Map<string, ElementRef>,
  subOf: Map<string, SubscriptionRef>,
  month: string,
  head: ImportHead,
  operatorId: number,
) {
  const lines: ImportPlan['lines'] = [];
  const facts = new Map<
    string,
    {
      sub: SubscriptionRef | null;
      element: ElementRef;
      cents: number;
      qty: number | null;
      unit: InvoiceLine['unit'];
      mixed: boolean;
    }
  >();
  const addLine = (sub: SubscriptionRef | null, l: InvoiceLine) => {
    const element = elementOf.get(l.label.toLowerCase());
    if (!element) throw new Error(`no cost element for label "${l.label}"`);
    lines.push({
      invoiceId: head.id,
      clientId: head.clientId,
      subscriptionId: sub?.id ?? null,
      position: lines.length,
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
      // A unit Kulu does not convert keeps the invoice's own (issue 38).
      unitCode: l.unit === 'other' ? (l.unitCode ?? '') : null,
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
  for (const s of kept) for (const l of s.lines) addLine(subOf.get(s.phoneNumber)!, l);
  for (const l of parsed.otherLines) addLine(null, l);
  const factRows = [...facts.values()].map((f) => ({
    clientId: head.clientId,
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
  }));
  return { lines, facts: factRows };
}

/** The invoice row's values once its body is written. */
function planHeader(parsed: ParsedInvoice, operatorId: number, month: string, now: Date) {
  return {
    operatorId,
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
    // VAT per rate, the differences its own figures show and the lines' sums as read (issue 38).
    ...reconciliationColumns(parsed),
    uploadState: 'uploaded' as const,
    parsingStatus: 'completed' as const,
    errorCode: null,
    errorMessage: null,
    parsedAt: now,
  } satisfies Partial<typeof invoices.$inferInsert>;
}

/** The whole import of `parsed` against `catalogue`: what to create, change and add (no I/O). */
export function planImport(
  parsed: ParsedInvoice,
  catalogue: ImportCatalogue,
  options: ImportOptions,
): ImportPlan {
  const { head } = options;
  const ids = new Ids();
  const month = monthOf(parsed.invoiceDate);
  const kept = keptSubscriptions(parsed, catalogue.skipped);
  const planOf = plansByName(catalogue.plans);
  const elements = planElements(invoiceLabels(parsed, kept), catalogue, planOf, options, ids);
  const centers = planCenters(kept, catalogue, head, ids);
  const subs = planSubscriptions(kept, catalogue, centers.centerOf, planOf, month, options, ids);
  const { lines, facts } = planLinesAndFacts(
    parsed,
    kept,
    elements.elementOf,
    subs.subOf,
    month,
    head,
    catalogue.operatorId,
  );
  const lineSubscriptions = new Set(
    lines.flatMap((r) => (r.subscriptionId == null ? [] : [r.subscriptionId])),
  ).size;
  return {
    operatorId: catalogue.operatorId,
    month,
    elements: elements.plan,
    centers: centers.create,
    subscriptions: subs.plan,
    lines,
    facts,
    header: {
      ...planHeader(parsed, catalogue.operatorId, month, options.now),
      lineCount: lines.length,
      subscriptionCount: lineSubscriptions,
    },
    counts: {
      subscriptions: kept.length,
      lines: lines.length,
      /** Subscriptions with at least one line (the invoice list's count). */
      lineSubscriptions,
      skipped: parsed.subscriptions.length - kept.length,
    },
  };
}
