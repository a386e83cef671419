/**
 * A table-layout invoice engine shared by the operator modules. An operator describes its labels (header
 * keys, summary rows, table columns, headings and closers) and how to read a table row; the engine
 * reads the header and summary by label, walks the specification line by line (headings, "(jatkuu)"
 * continuations across pages, table headers, rows, closers) and reconciles every total exactly in
 * integer cents. Nothing here depends on x/y positions except the assignment of row cells to the
 * columns of the row's own table header.
 */
import { MalformedInvoiceError, ReconciliationError } from '../errors.js';
import {
  parseCents,
  parseDurationHundredths,
  parseFinnishDate,
  parsePercentTenths,
  parsePeriod,
  parseScaled,
  PERIOD_PATTERN,
  scaledToNumber,
  toE164,
} from '../finnish.js';
import { assignToColumns, sameLabel, normalizeSpaces, type Column } from '../text/layout.js';
import type {
  InvoiceLine,
  InvoiceSubscription,
  LineCategory,
  LineRegion,
  ParsedInvoice,
  QuantityUnit,
  TextDocument,
  TextLine,
} from '../types.js';
import { classifyLine } from '../vocabulary.js';
import type { OperatorParser } from './types.js';

export type ColumnRole = 'label' | 'period' | 'count' | 'quantity' | 'unit' | 'unitPrice' | 'amount';

export type HeaderKey =
  'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'customerNumber' | 'referenceNumber' | 'businessId';

interface SubscriptionHeading {
  phoneNumber: string;
  userName: string;
  /** undefined: the heading does not say (a later line or the group may). */
  costCenter: string | undefined;
  continued: boolean;
}

export interface CostCenterHeading {
  /** Matched after a trailing `(jatkuu)` is stripped; group 1 is the cost center's code. */
  pattern: RegExp;
  /** `group`: applies to the subscriptions that follow (Telia); `subscription`: to the current one (DNA). */
  scope: 'group' | 'subscription';
}

/** What a table row says besides its label and period, exact. */
export interface RowValues {
  count: number | null;
  quantity: Quantity | null;
  unitPriceCents: number | null;
  amountCents: number;
}

export interface Quantity {
  /** value / 10^scale in `unit`. */
  value: number;
  scale: number;
  unit: QuantityUnit;
}

export interface LayoutConfig {
  id: string;
  name: string;
  /** The operator's legal name printed at the top of page 1 and in page headers/footers (`Elisa Oyj`). */
  legalName: string;
  /** The document title (`LASKU`). */
  title: string;
  headerKeys: Record<HeaderKey, string>;
  summaryHeading: string;
  summaryTotalExclVat: string;
  /** The VAT row label before its rate (`Arvonlisävero` in `Arvonlisävero 25,5 %`). */
  summaryVat: string;
  summaryTotalInclVat: string;
  /** Header label of each column the layout prints; `label` and `amount` are required. */
  columns: Partial<Record<ColumnRole, string>>;
  /** Further texts whose presence supports detection (e.g. the specification heading). */
  markers: string[];
  subscriptionTotal: string;
  groupTotal?: string;
  otherHeading: string;
  otherTotal: string;
  /**
   * A subscription's heading, matched after a trailing `(jatkuu)` is stripped: group 1 is the phone
   * number, group 2 the user's name and group 3, where the pattern has one, the cost center (when it
   * does not match, the subscription takes the cost center group's, if any).
   */
  subscriptionHeading: RegExp;
  costCenterHeading?: CostCenterHeading;
  /** Reads a row's cells (by column role, blank cells absent); null/throw when unreadable. */
  readRow(cells: Map<ColumnRole, string>, label: string): RowValues;
}

// ---------------------------------------------------------------------------------------------
// Helpers for operator modules

const CONTINUED = /\s*\(jatkuu\)\s*$/i;

/** Strips a trailing `(jatkuu)`; tells whether it was there. */
function stripContinued(text: string): { text: string; continued: boolean } {
  return CONTINUED.test(text)
    ? { text: text.replace(CONTINUED, ''), continued: true }
    : { text, continued: false };
}

function requirePhone(text: string): string {
  const phone = toE164(text);
  if (!phone) throw new MalformedInvoiceError(`unreadable phone number "${text}"`);
  return phone;
}

/** A subscription's heading read with the layout's `subscriptionHeading`; null when the line is none. */
function readSubscriptionHeading(pattern: RegExp, text: string): SubscriptionHeading | null {
  const { text: t, continued } = stripContinued(text);
  const m = pattern.exec(t);
  if (!m) return null;
  return { phoneNumber: requirePhone(m[1]), userName: m[2].trim(), costCenter: m[3], continued };
}

/** A cost center's heading read with the layout's `costCenterHeading`; null when the line is none. */
function readCostCenterHeading(
  heading: CostCenterHeading | undefined,
  text: string,
): { code: string; scope: CostCenterHeading['scope']; continued: boolean } | null {
  if (!heading) return null;
  const { text: t, continued } = stripContinued(text);
  const m = heading.pattern.exec(t);
  return m ? { code: m[1], scope: heading.scope, continued } : null;
}

export function requireCents(text: string | undefined, what: string): number {
  const cents = text === undefined ? null : parseCents(text);
  if (cents === null) throw new MalformedInvoiceError(`unreadable ${what} "${text ?? ''}"`);
  return cents;
}

export function requireCount(text: string, what: string): number {
  const n = parseScaled(text, 0);
  if (n === null) throw new MalformedInvoiceError(`unreadable ${what} "${text}"`);
  return n;
}

const UNIT_ALIASES: Record<string, { unit: QuantityUnit; factor: number; scale: number }> = {
  kpl: { unit: 'pcs', factor: 1, scale: 0 },
  min: { unit: 'min', factor: 1, scale: 2 },
  mb: { unit: 'mb', factor: 1, scale: 1 },
  mt: { unit: 'mb', factor: 1, scale: 1 },
  gb: { unit: 'mb', factor: 1024, scale: 1 },
  gt: { unit: 'mb', factor: 1024, scale: 1 },
};

/**
 * A quantity from a number and a unit (`1 234,5` + `MB`, `12,3 Gt`, `45 kpl`, `123,25 min`) or a call
 * duration `h:mm:ss`. Minutes keep two decimals, MB one (GB × 1024), pieces none.
 */
export function parseQuantity(text: string, unitText?: string): Quantity {
  const t = normalizeSpaces(text);
  const duration = parseDurationHundredths(t);
  if (duration !== null && !unitText) return { value: duration, scale: 2, unit: 'min' };
  let numberText = t;
  let unitWord = unitText ? normalizeSpaces(unitText) : '';
  if (!unitWord) {
    const m = /^(.*\d)\s*([A-Za-zäö]+)$/.exec(t);
    if (!m) throw new MalformedInvoiceError(`unreadable quantity "${text}"`);
    numberText = m[1];
    unitWord = m[2];
  }
  const alias = UNIT_ALIASES[unitWord.toLowerCase()];
  if (!alias) throw new MalformedInvoiceError(`unknown unit "${unitWord}" in quantity "${text}"`);
  const value = parseScaled(numberText, alias.scale);
  if (value === null) throw new MalformedInvoiceError(`unreadable quantity "${text}"`);
  return { value: value * alias.factor, scale: alias.scale, unit: alias.unit };
}

export const ONE_PIECE: Quantity = { value: 1, scale: 0, unit: 'pcs' };

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
}

const labelAmountPatterns = new Map<string, RegExp>();

/** `<label> <amount>` on one line (label and amount as separate cells or one). */
function matchLabelAmount(line: TextLine, label: string): number | null {
  let pattern = labelAmountPatterns.get(label);
  if (!pattern) {
    pattern = new RegExp(`^${escapeRegExp(label)}\\s+(\\S.*)$`, 'i');
    labelAmountPatterns.set(label, pattern);
  }
  const m = pattern.exec(line.text);
  if (!m) return null;
  return parseCents(m[1]);
}

// ---------------------------------------------------------------------------------------------
// The engine

interface ExactLine {
  label: string;
  category: LineCategory;
  region: LineRegion | null;
  periodStart: string | null;
  periodEnd: string | null;
  values: RowValues;
}

interface ExactSubscription {
  phoneNumber: string;
  userName: string;
  costCenter: string | null;
  printedTotal: number | null;
  lines: ExactLine[];
  where: string;
}

function where(line: TextLine): string {
  return `page ${line.page}, "${line.text.length > 80 ? `${line.text.slice(0, 77)}...` : line.text}"`;
}

function isPageFurniture(line: TextLine, legalName: string): boolean {
  if (/\bSivu\s+\d+\s*\/\s*\d+\b/i.test(line.text)) return true;
  return line.text === legalName || line.text.startsWith(`${legalName} `);
}

function euros(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')} EUR`;
}

function toLine(line: ExactLine): InvoiceLine {
  const { values } = line;
  return {
    label: line.label,
    category: line.category,
    region: line.region,
    periodStart: line.periodStart,
    periodEnd: line.periodEnd,
    count: values.count,
    quantity: values.quantity ? scaledToNumber(values.quantity.value, values.quantity.scale) : null,
    unit: values.quantity ? values.quantity.unit : null,
    unitPrice: values.unitPriceCents === null ? null : scaledToNumber(values.unitPriceCents, 2),
    amount: scaledToNumber(values.amountCents, 2),
  };
}

const sumCents = (lines: ExactLine[]) => lines.reduce((s, l) => s + l.values.amountCents, 0);

export function createLayoutParser(config: LayoutConfig): OperatorParser {
  const headerLabels = Object.entries(config.columns) as [ColumnRole, string][];

  function headerRegion(doc: TextDocument): { lines: TextLine[]; summaryIndex: number } {
    const lines = doc.pages[0]?.lines ?? [];
    const summaryIndex = lines.findIndex((l) => sameLabel(l.text, config.summaryHeading));
    return { lines, summaryIndex };
  }

  function readHeaderValues(lines: TextLine[]): {
    values: Partial<Record<HeaderKey, string>>;
    used: Set<string>;
  } {
    const values: Partial<Record<HeaderKey, string>> = {};
    const used = new Set<string>();
    for (const line of lines) {
      line.cells.forEach((cell, i) => {
        for (const [key, label] of Object.entries(config.headerKeys) as [HeaderKey, string][]) {
          if (values[key] !== undefined) continue;
          if (sameLabel(cell.text, label) && line.cells[i + 1]) {
            values[key] = line.cells[i + 1].text;
            used.add(`${line.y}:${i}`).add(`${line.y}:${i + 1}`);
          } else if (new RegExp(`^${escapeRegExp(label)}\\s+(\\S+)$`, 'i').test(cell.text)) {
            values[key] = cell.text.slice(label.length).trim();
            used.add(`${line.y}:${i}`);
          }
        }
      });
    }
    return { values, used };
  }

  function isTableHeader(line: TextLine): Column<ColumnRole>[] | null {
    if (line.cells.length < 2) return null;
    const cols: Column<ColumnRole>[] = [];
    for (const cell of line.cells) {
      const hit = headerLabels.find(([, label]) => sameLabel(cell.text, label));
      if (!hit) return null;
      cols.push({ role: hit[0], x0: cell.x0, x1: cell.x1 });
    }
    const roles = new Set(cols.map((c) => c.role));
    return roles.has('label') && roles.has('amount') ? cols : null;
  }

  function detect(doc: TextDocument): number {
    const first = doc.pages[0];
    if (!first) return 0;
    let score = 0;
    const top = first.lines.slice(0, 12);
    if (top.some((l) => l.cells.some((c) => sameLabel(c.text, config.legalName)))) score += 0.4;
    if (top.some((l) => l.cells.some((c) => sameLabel(c.text, config.title)))) score += 0.05;
    const { lines, summaryIndex } = headerRegion(doc);
    const { values } = readHeaderValues(summaryIndex >= 0 ? lines.slice(0, summaryIndex) : lines);
    score += 0.3 * (Object.keys(values).length / Object.keys(config.headerKeys).length);
    if (summaryIndex >= 0) score += 0.1;
    const allLines = doc.pages.flatMap((p) => p.lines);
    if (allLines.some((l) => isTableHeader(l))) score += 0.1;
    if (config.markers.some((m) => allLines.some((l) => sameLabel(l.text, m)))) score += 0.05;
    return Math.min(1, score);
  }

  function parse(doc: TextDocument): ParsedInvoice {
    // ---- header
    const { lines: page1, summaryIndex } = headerRegion(doc);
    if (summaryIndex < 0)
      throw new MalformedInvoiceError(`the summary "${config.summaryHeading}" is missing`);
    const headerLines = page1.slice(0, summaryIndex);
    const { values, used } = readHeaderValues(headerLines);
    const need = (key: HeaderKey): string => {
      const v = values[key];
      if (!v) throw new MalformedInvoiceError(`"${config.headerKeys[key]}" is missing`);
      return v;
    };
    const date = (key: HeaderKey): string => {
      const iso = parseFinnishDate(need(key));
      if (!iso) throw new MalformedInvoiceError(`"${config.headerKeys[key]}" is not a date: "${need(key)}"`);
      return iso;
    };
    const invoiceNumber = need('invoiceNumber').replace(/\s/g, '');
    const invoiceDate = date('invoiceDate');
    const dueDate = date('dueDate');
    const customerNumber = need('customerNumber').replace(/\s/g, '');
    const referenceNumber = need('referenceNumber').replace(/\s/g, '');
    // The buyer's business id is optional: an invoice without one is read (the import says so).
    const businessId = values.businessId?.replace(/\s/g, '') || null;
    if (businessId !== null && !/^\d{7}-\d$/.test(businessId))
      throw new MalformedInvoiceError(`unreadable business id "${businessId}"`);
    let customerName: string | undefined;
    for (const line of headerLines) {
      line.cells.forEach((cell, i) => {
        if (customerName !== undefined || used.has(`${line.y}:${i}`)) return;
        if (sameLabel(cell.text, config.legalName) || sameLabel(cell.text, config.title)) return;
        customerName = cell.text;
      });
      if (customerName !== undefined) break;
    }
    if (!customerName) throw new MalformedInvoiceError('the customer name is missing');

    // ---- summary (page 1, below its heading)
    let totalExcl: number | null = null;
    let totalIncl: number | null = null;
    let vatCents: number | null = null;
    let vatTenths: number | null = null;
    let specStart = -1;
    const vatPattern = new RegExp(
      `^${escapeRegExp(config.summaryVat)}\\s+(\\d{1,2}(?:,\\d)?\\s*%)\\s+(\\S.*)$`,
      'i',
    );
    for (let i = summaryIndex + 1; i < page1.length; i++) {
      const line = page1[i];
      const vat = vatPattern.exec(line.text);
      if (vat && vatCents === null) {
        vatTenths = parsePercentTenths(vat[1]);
        vatCents = parseCents(vat[2]);
        continue;
      }
      totalExcl ??= matchLabelAmount(line, config.summaryTotalExclVat);
      const incl = matchLabelAmount(line, config.summaryTotalInclVat);
      if (incl !== null && totalIncl === null) {
        totalIncl = incl;
        specStart = i + 1;
        break;
      }
    }
    if (totalExcl === null) throw new MalformedInvoiceError(`"${config.summaryTotalExclVat}" is missing`);
    if (vatCents === null || vatTenths === null)
      throw new MalformedInvoiceError(`"${config.summaryVat}" is missing`);
    if (totalIncl === null) throw new MalformedInvoiceError(`"${config.summaryTotalInclVat}" is missing`);

    // ---- specification
    const specLines: TextLine[] = [
      ...page1.slice(specStart),
      ...doc.pages.slice(1).flatMap((p) => p.lines),
    ].filter((l) => !isPageFurniture(l, config.legalName));

    const subscriptions: ExactSubscription[] = [];
    const groups: { code: string; members: ExactSubscription[]; where: string }[] = [];
    const other: ExactLine[] = [];
    let otherPrinted: number | null = null;
    let current: ExactSubscription | null = null;
    let section: 'none' | 'subscription' | 'other' = 'none';
    let groupCostCenter: string | null = null;
    let columns: Column<ColumnRole>[] | null = null;
    let inTable = false;
    const invoiceMonth = invoiceDate.slice(0, 7);

    for (const line of specLines) {
      const text = line.text;
      // closers first: they are the most specific
      const subTotal = matchLabelAmount(line, config.subscriptionTotal);
      if (subTotal !== null && section === 'subscription' && current) {
        current.printedTotal = subTotal;
        inTable = false;
        continue;
      }
      if (config.groupTotal) {
        const groupTotal = matchLabelAmount(line, config.groupTotal);
        if (groupTotal !== null) {
          const group = groups[groups.length - 1];
          if (!group)
            throw new MalformedInvoiceError(`${where(line)}: a cost center total without a cost center`);
          const sum = group.members.reduce((s, m) => s + (m.printedTotal ?? 0), 0);
          if (sum !== groupTotal) {
            throw new ReconciliationError(
              `cost center ${group.code}: its subscriptions sum to ${euros(sum)} but its printed total is ${euros(groupTotal)} (off by ${euros(groupTotal - sum)})`,
              groupTotal - sum,
            );
          }
          inTable = false;
          section = 'none';
          continue;
        }
      }
      const otherTotal = matchLabelAmount(line, config.otherTotal);
      if (otherTotal !== null && section === 'other') {
        otherPrinted = otherTotal;
        inTable = false;
        continue;
      }
      if (sameLabel(stripContinued(text).text, config.otherHeading)) {
        section = 'other';
        current = null;
        inTable = false;
        continue;
      }
      const heading = readSubscriptionHeading(config.subscriptionHeading, text);
      if (heading) {
        const previous: ExactSubscription | null = current;
        // The open subscription's heading again before its total: its continuation on a new page.
        // "(jatkuu)" may end the heading's line or a line of its own under it (a long user name
        // wraps the heading), so the number decides, not the marker.
        if (
          previous &&
          section === 'subscription' &&
          previous.phoneNumber === heading.phoneNumber &&
          previous.printedTotal === null
        ) {
          inTable = false;
          continue;
        }
        current = {
          phoneNumber: heading.phoneNumber,
          userName: heading.userName,
          costCenter: heading.costCenter === undefined ? groupCostCenter : heading.costCenter,
          printedTotal: null,
          lines: [],
          where: where(line),
        };
        subscriptions.push(current);
        groups[groups.length - 1]?.members.push(current);
        section = 'subscription';
        inTable = false;
        continue;
      }
      const cc = readCostCenterHeading(config.costCenterHeading, text);
      if (cc) {
        if (cc.scope === 'group') {
          if (!cc.continued || groups[groups.length - 1]?.code !== cc.code) {
            groups.push({ code: cc.code, members: [], where: where(line) });
          }
          groupCostCenter = cc.code;
          if (!cc.continued) {
            current = null;
            section = 'none';
          }
        } else if (current) {
          current.costCenter = cc.code;
        }
        inTable = false;
        continue;
      }
      const header = isTableHeader(line);
      if (header) {
        columns = header;
        inTable = true;
        continue;
      }
      if (!inTable || !columns || section === 'none') continue;

      // ---- a table row
      const cells = line.cells.filter(
        (c) => !(PERIOD_PATTERN.test(c.text) && parsePeriod(c.text) && isOnlyPeriod(c.text)),
      );
      const periodCell = line.cells.find((c) => PERIOD_PATTERN.test(c.text));
      const byRole = assignToColumns(cells, columns);
      let label = byRole.get('label') ?? '';
      let period = periodCell ? parsePeriod(periodCell.text) : null;
      const inLabel = PERIOD_PATTERN.exec(label);
      if (inLabel) {
        period ??= parsePeriod(inLabel[0]);
        label = label.replace(PERIOD_PATTERN, '').trim();
      }
      byRole.delete('period');
      if (!label) throw new MalformedInvoiceError(`${where(line)}: a row without a label`);
      let values: RowValues;
      try {
        values = config.readRow(byRole, label);
      } catch (err) {
        if (err instanceof MalformedInvoiceError)
          throw new MalformedInvoiceError(`${where(line)}: ${err.message}`);
        throw err;
      }
      const { category, region } = classifyLine(label, period?.start ?? null, invoiceMonth);
      const exact: ExactLine = {
        label,
        category,
        region,
        periodStart: period?.start ?? null,
        periodEnd: period?.end ?? null,
        values,
      };
      if (section === 'other') other.push(exact);
      else if (current) current.lines.push(exact);
    }

    // ---- reconciliation, exact in cents
    for (const sub of subscriptions) {
      if (sub.printedTotal === null) {
        throw new MalformedInvoiceError(
          `subscription ${sub.phoneNumber} (${sub.where}) has no "${config.subscriptionTotal}"`,
        );
      }
      const sum = sumCents(sub.lines);
      if (sum !== sub.printedTotal) {
        throw new ReconciliationError(
          `subscription ${sub.phoneNumber}: its lines sum to ${euros(sum)} but its printed total is ${euros(sub.printedTotal)} (off by ${euros(sub.printedTotal - sum)})`,
          sub.printedTotal - sum,
        );
      }
    }
    if (other.length && otherPrinted !== null && sumCents(other) !== otherPrinted) {
      const sum = sumCents(other);
      throw new ReconciliationError(
        `"${config.otherHeading}": its lines sum to ${euros(sum)} but its printed total is ${euros(otherPrinted)} (off by ${euros(otherPrinted - sum)})`,
        otherPrinted - sum,
      );
    }
    if (subscriptions.length === 0 && other.length === 0) {
      throw new MalformedInvoiceError('the invoice has no subscriptions and no lines');
    }
    const linesSum = subscriptions.reduce((s, sub) => s + sumCents(sub.lines), 0) + sumCents(other);
    if (linesSum !== totalExcl) {
      throw new ReconciliationError(
        `the invoice lines sum to ${euros(linesSum)} but the invoice total excluding VAT is ${euros(totalExcl)}: off by ${euros(totalExcl - linesSum)}`,
        totalExcl - linesSum,
      );
    }
    // VAT = round(total × rate, 2), half away from zero; rate in tenths of a percent.
    const expectedVat = Math.sign(totalExcl) * Math.floor((Math.abs(totalExcl) * vatTenths + 500) / 1000);
    if (expectedVat !== vatCents) {
      throw new ReconciliationError(
        `VAT ${vatTenths / 10} % of ${euros(totalExcl)} is ${euros(expectedVat)} but the invoice says ${euros(vatCents)} (off by ${euros(vatCents - expectedVat)})`,
        vatCents - expectedVat,
      );
    }
    if (totalExcl + vatCents !== totalIncl) {
      throw new ReconciliationError(
        `the total including VAT ${euros(totalIncl)} is not ${euros(totalExcl)} + VAT ${euros(vatCents)} (off by ${euros(totalIncl - totalExcl - vatCents)})`,
        totalIncl - totalExcl - vatCents,
      );
    }

    const outSubs: InvoiceSubscription[] = subscriptions.map((s) => ({
      phoneNumber: s.phoneNumber,
      userName: s.userName,
      costCenter: s.costCenter,
      total: scaledToNumber(s.printedTotal ?? 0, 2),
      lines: s.lines.map(toLine),
    }));
    return {
      operator: config.name,
      invoiceNumber,
      invoiceDate,
      dueDate,
      customerNumber,
      customerName,
      businessId,
      referenceNumber,
      currency: 'EUR',
      vatRate: scaledToNumber(vatTenths, 1),
      totalExclVat: scaledToNumber(totalExcl, 2),
      vatAmount: scaledToNumber(vatCents, 2),
      totalInclVat: scaledToNumber(totalIncl, 2),
      subscriptions: outSubs,
      otherLines: other.map(toLine),
    };
  }

  return { id: config.id, name: config.name, detect, parse };
}

function isOnlyPeriod(text: string): boolean {
  return text.replace(PERIOD_PATTERN, '').trim() === '';
}
