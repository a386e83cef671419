/**
 * Finvoice (1.3, 2.0, 2.01, 3.0) bytes → the same reconciled `ParsedInvoice` as a parsed PDF.
 * See shared/invoice-formats/finvoice.md and docs/decisions/0020-finvoice.md.
 */
import { FinvoiceError, MalformedInvoiceError, ReconciliationError, XmlReadError } from '../errors.js';
import { scaledToNumber } from '../finnish.js';
import { checkTextBounds, TEXT_LIMITS, TextTooLongError } from '../limits.js';
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice, QuantityUnit } from '../types.js';
import { classifyLine, type Classification } from '../vocabulary.js';
import { isSectionEnd, numberAndName, numberAtStart } from './subscriptions.js';
import { readXml, type XmlReader } from './xml.js';

/** The row elements read (children of InvoiceRow). */
const ROW_FIELDS = new Set([
  'ArticleName',
  'DeliveredQuantity',
  'StartDate',
  'EndDate',
  'UnitPriceAmount',
  'RowAccountDimensionText',
  'RowFreeText',
  'RowVatRatePercent',
  'RowVatExcludedAmount',
  'RowVatAmount',
  'RowAmount',
]);

/** The header elements read (at most four levels deep). */
const HEADER_FIELDS = new Set([
  'SellerPartyIdentifier',
  'SellerOrganisationTaxCode',
  'SellerOrganisationName',
  'BuyerPartyIdentifier',
  'BuyerOrganisationName',
  'InvoiceTypeCode',
  'InvoiceNumber',
  'InvoiceDate',
  'SellersBuyerIdentifier',
  'InvoiceTotalVatExcludedAmount',
  'InvoiceTotalVatAmount',
  'InvoiceTotalVatIncludedAmount',
  'VatBaseAmount',
  'VatRatePercent',
  'VatRateAmount',
  'InvoiceDueDate',
  'EpiReference',
  'EpiRemittanceInfoIdentifier',
  'EpiDateOptionDate',
]);

export const FINVOICE_VERSIONS = ['1.3', '2.0', '2.01', '3.0'] as const;
export type FinvoiceVersion = (typeof FINVOICE_VERSIONS)[number];

/** The operators Kulu reads, by the seller's business id (Y-tunnus). */
export const OPERATOR_BUSINESS_IDS: Record<string, 'elisa' | 'telia' | 'dna'> = {
  '0116510-6': 'elisa',
  '1475607-9': 'telia',
  '0592509-6': 'dna',
};

/** More rows than this (InvoiceRow and SubInvoiceRow elements) are refused. */
export const MAX_FINVOICE_ROWS = 200_000;

/** Amounts are read at 5 decimals (the most Finvoice allows) and given rounded to the cent. */
const SCALE = 5;
const CENT = 10 ** (SCALE - 2);

interface Quantity {
  value: string;
  unit: string;
  unitUN: string;
}

/** One InvoiceRow as read (normal row, text row, or a SubInvoiceRow block). */
export interface FinvoiceRow {
  /** 1-based position among the InvoiceRow elements (for messages). */
  index: number;
  /** Made only of SubInvoiceRow elements: a subtotal or specification block. */
  subBlock: boolean;
  articleName: string;
  quantities: Quantity[];
  startDate: string | null;
  endDate: string | null;
  unitPrice: string | null;
  accountDimension: string | null;
  freeTexts: string[];
  vatRate: string | null;
  vatExcluded: string | null;
  vatAmount: string | null;
  amount: string | null;
}

interface Header {
  version: string | null;
  sellerId: string | null;
  sellerTaxCode: string | null;
  sellerName: string | null;
  buyerId: string | null;
  buyerName: string | null;
  typeCode: string | null;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  dueDate: string | null;
  epiDateOption: string | null;
  customerNumber: string | null;
  totalExcl: string | null;
  totalVat: string | null;
  totalIncl: string | null;
  currencies: Set<string>;
  vat: { base: string | null; rate: string | null; amount: string | null }[];
  reference: string | null;
  epiReference: string | null;
}

/** A row as the document starts it, before its elements are read. */
export function emptyRow(index: number): FinvoiceRow {
  return {
    index,
    subBlock: false,
    articleName: '',
    quantities: [],
    startDate: null,
    endDate: null,
    unitPrice: null,
    accountDimension: null,
    freeTexts: [],
    vatRate: null,
    vatExcluded: null,
    vatAmount: null,
    amount: null,
  };
}

/** Reads the elements Kulu needs; everything else in the document is passed over. */
function readDocument(bytes: Uint8Array, onRow: (row: FinvoiceRow, header: Header) => void): Header {
  const header: Header = {
    version: null,
    sellerId: null,
    sellerTaxCode: null,
    sellerName: null,
    buyerId: null,
    buyerName: null,
    typeCode: null,
    invoiceNumber: null,
    invoiceDate: null,
    dueDate: null,
    epiDateOption: null,
    customerNumber: null,
    totalExcl: null,
    totalVat: null,
    totalIncl: null,
    currencies: new Set(),
    vat: [],
    reference: null,
    epiReference: null,
  };
  let rowCount = 0;
  let rowIndex = 0;
  const path: string[] = [];
  let row: FinvoiceRow | null = null;
  let quantity: Quantity | null = null;

  readXml(bytes, 'Finvoice', {
    open(name, depth, reader) {
      if (depth === 1) {
        if (name !== 'Finvoice') throw notFinvoice(name, reader);
        const version = reader.attribute('Version') ?? null;
        if (!version || !(FINVOICE_VERSIONS as readonly string[]).includes(version.trim())) {
          throw new FinvoiceError(
            'finvoice_unsupported_version',
            version
              ? `unsupported Finvoice version "${version}" (Kulu reads ${FINVOICE_VERSIONS.join(', ')})`
              : `the Finvoice document has no Version (Kulu reads ${FINVOICE_VERSIONS.join(', ')})`,
          );
        }
        header.version = version.trim();
      }
      path.push(name);
      if (name.endsWith('Amount')) {
        const currency = reader.attribute('AmountCurrencyIdentifier');
        if (currency !== undefined) header.currencies.add(currency.trim());
      }
      if (depth === 2 && name === 'InvoiceRow') {
        if (++rowCount > MAX_FINVOICE_ROWS) throw tooManyRows();
        row = emptyRow(++rowIndex);
      } else if (row && depth === 3 && name === 'SubInvoiceRow') {
        if (++rowCount > MAX_FINVOICE_ROWS) throw tooManyRows();
        row.subBlock = true;
      } else if (row && depth === 3 && name === 'DeliveredQuantity') {
        quantity = {
          value: '',
          unit: reader.attribute('QuantityUnitCode')?.trim() ?? '',
          unitUN: reader.attribute('QuantityUnitCodeUN')?.trim() ?? '',
        };
      } else if (depth === 3 && name === 'VatSpecificationDetails' && path[1] === 'InvoiceDetails') {
        header.vat.push({ base: null, rate: null, amount: null });
      }
    },
    close(name, depth, reader) {
      path.pop();
      if (row) {
        if (depth === 2) {
          onRow(row, header);
          row = null;
          return;
        }
        if (depth !== 3 || !ROW_FIELDS.has(name)) return;
        const text = elementText(reader, `${name} of row ${row.index}`);
        switch (name) {
          case 'ArticleName':
            row.articleName = text;
            break;
          case 'DeliveredQuantity':
            if (quantity) row.quantities.push({ value: text, unit: quantity.unit, unitUN: quantity.unitUN });
            quantity = null;
            break;
          case 'StartDate':
            row.startDate = text;
            break;
          case 'EndDate':
            row.endDate = text;
            break;
          case 'UnitPriceAmount':
            row.unitPrice = text;
            break;
          case 'RowAccountDimensionText':
            row.accountDimension = text || null;
            break;
          case 'RowFreeText':
            if (text) row.freeTexts.push(text);
            break;
          case 'RowVatRatePercent':
            row.vatRate = text;
            break;
          case 'RowVatExcludedAmount':
            row.vatExcluded = text;
            break;
          case 'RowVatAmount':
            row.vatAmount = text;
            break;
          case 'RowAmount':
            row.amount = text;
            break;
        }
        return;
      }
      if (depth > 4 || !HEADER_FIELDS.has(name)) return;
      const text = elementText(reader, name);
      const parent = path[path.length - 1];
      const grand = path[path.length - 2];
      if (parent === 'SellerPartyDetails') {
        if (name === 'SellerPartyIdentifier') header.sellerId = text;
        else if (name === 'SellerOrganisationTaxCode') header.sellerTaxCode = text;
        else if (name === 'SellerOrganisationName') header.sellerName ??= text;
      } else if (parent === 'BuyerPartyDetails') {
        if (name === 'BuyerPartyIdentifier') header.buyerId = text;
        else if (name === 'BuyerOrganisationName') header.buyerName ??= text;
      } else if (parent === 'InvoiceDetails') {
        switch (name) {
          case 'InvoiceTypeCode':
            header.typeCode = text;
            break;
          case 'InvoiceNumber':
            header.invoiceNumber = text;
            break;
          case 'InvoiceDate':
            header.invoiceDate = text;
            break;
          case 'SellersBuyerIdentifier':
            header.customerNumber = text;
            break;
          case 'InvoiceTotalVatExcludedAmount':
            header.totalExcl = text;
            break;
          case 'InvoiceTotalVatAmount':
            header.totalVat = text;
            break;
          case 'InvoiceTotalVatIncludedAmount':
            header.totalIncl = text;
            break;
        }
      } else if (parent === 'VatSpecificationDetails' && grand === 'InvoiceDetails') {
        const spec = header.vat[header.vat.length - 1];
        if (name === 'VatBaseAmount') spec.base = text;
        else if (name === 'VatRatePercent') spec.rate = text;
        else if (name === 'VatRateAmount') spec.amount = text;
      } else if (parent === 'PaymentTermsDetails' && name === 'InvoiceDueDate') {
        header.dueDate ??= text;
      } else if (parent === 'EpiIdentificationDetails' && name === 'EpiReference') {
        header.epiReference = text;
      } else if (parent === 'EpiPaymentInstructionDetails') {
        if (name === 'EpiRemittanceInfoIdentifier') header.reference = text;
        else if (name === 'EpiDateOptionDate') header.epiDateOption = text;
      }
    },
  });
  return header;
}

/** An element's trimmed text, refused when longer than any field Kulu reads may be (limits.ts). */
function elementText(reader: XmlReader, field: string): string {
  const text = reader.text().trim();
  if (text.length > TEXT_LIMITS.element) throw new TextTooLongError(field, text.length, TEXT_LIMITS.element);
  return text;
}

function tooManyRows(): XmlReadError {
  return new XmlReadError(
    'xml_too_large',
    `the Finvoice file has more than ${MAX_FINVOICE_ROWS} invoice rows`,
  );
}

function notFinvoice(root: string, reader: XmlReader): FinvoiceError {
  const prefix = root.includes(':') ? root.slice(0, root.indexOf(':')) : null;
  const ns = (prefix ? reader.attribute(`xmlns:${prefix}`) : reader.attribute('xmlns')) ?? '';
  const local = prefix ? root.slice(prefix.length + 1) : root;
  let what = `its root element is <${root}>`;
  if (/oasis|ubl/i.test(ns) || local === 'Invoice' || local === 'CreditNote') {
    what = `it is a UBL / Peppol ${local} (root <${root}>${ns ? ` in ${ns}` : ''})`;
  } else if (/teapps/i.test(`${ns} ${root}`)) {
    what = `it is a TEAPPS document (root <${root}>)`;
  }
  return new FinvoiceError('not_finvoice', `not a Finvoice invoice: ${what}`);
}

// ---- values

/** A Finvoice amount (`-12,30`, `0,069`, `100`; decimal comma, 0–5 decimals) at 5 decimals. */
function amountOf(text: string | null, what: string): number {
  const value = text === null ? null : parseAmount(text);
  if (value === null) {
    throw new MalformedInvoiceError(
      text === null ? `the Finvoice invoice has no ${what}` : `${what} "${text}" is not a Finvoice amount`,
    );
  }
  return value;
}

/**
 * `read` remembered by `keyOf` of its argument, for at most `max` keys: what a document repeats
 * (amounts, units) is read once.
 */
function readOnce<A, V extends NonNullable<unknown> | null>(
  max: number,
  keyOf: (a: A) => string,
  read: (a: A) => V,
): (a: A) => V {
  const known = new Map<string, V>();
  return (a) => {
    const key = keyOf(a);
    let value = known.get(key);
    if (value === undefined) {
      value = read(a);
      if (known.size < max) known.set(key, value);
    }
    return value;
  };
}

/** Amounts repeat (prices, zero usage): each text is read once. */
export const parseAmount: (text: string) => number | null = readOnce(
  50_000,
  (text: string) => text,
  readAmount,
);

function readAmount(text: string): number | null {
  const m = /^(-)?(\d{1,15})(?:[,.](\d{1,5}))?$/.exec(text.trim());
  if (!m) return null;
  const value = Number(m[2]) * 10 ** SCALE + Number((m[3] ?? '').padEnd(SCALE, '0'));
  if (!Number.isSafeInteger(value)) return null;
  return m[1] && value !== 0 ? -value : value;
}

/** round(value / divisor), half away from zero, integers only. */
function roundDiv(value: number, divisor: number): number {
  const q = Math.floor((Math.abs(value) + divisor / 2) / divisor);
  return value < 0 && q !== 0 ? -q : q;
}

/** 5-decimal amount → euros rounded to the cent. */
function euros(value5: number): number {
  // an integer divided by a power of ten is the same double as its decimal text
  return roundDiv(value5, CENT) / 100;
}

/** `CCYYMMDD` → `yyyy-mm-dd`; null when not a valid date. */
export function parseFinvoiceDate(text: string | null): string | null {
  if (text === null) return null;
  let date = DATES.get(text);
  if (date === undefined) {
    date = readDate(text);
    if (DATES.size < 10_000) DATES.set(text, date);
  }
  return date;
}

/** Dates repeat on every row: each text is read once. */
const DATES = new Map<string, string | null>();

function readDate(text: string | null): string | null {
  const m = text ? /^(\d{4})(\d{2})(\d{2})$/.exec(text.trim()) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function dateOf(text: string | null, what: string): string {
  const date = parseFinvoiceDate(text);
  if (!date) {
    throw new MalformedInvoiceError(
      text === null ? `the Finvoice invoice has no ${what}` : `${what} "${text}" is not a CCYYMMDD date`,
    );
  }
  return date;
}

/** A business id as `1234567-8` (also from `12345678`, `FI12345678`); null when not one. */
export function normalizeBusinessId(text: string | null): string | null {
  if (!text) return null;
  const compact = text.trim().replace(/^FI/i, '').replace(/[\s-]/g, '');
  return /^\d{8}$/.test(compact) ? `${compact.slice(0, 7)}-${compact[7]}` : null;
}

/** Kulu's unit of a quantity: pieces, minutes (from seconds, hours), MB (from GB, kB); null: unknown. */
type UnitKind = 'pcs' | 'sec' | 'min' | 'hour' | 'kb' | 'mb' | 'gb';

const UN_UNITS: Record<string, UnitKind> = {
  C62: 'pcs',
  H87: 'pcs',
  EA: 'pcs',
  SEC: 'sec',
  MIN: 'min',
  HUR: 'hour',
  '2P': 'kb',
  '4L': 'mb',
  E34: 'gb',
};

const unitKind = readOnce(1000, (q: Quantity) => `${q.unitUN}|${q.unit}`, readUnitKind);

function readUnitKind(q: Quantity): UnitKind | null {
  const un = UN_UNITS[q.unitUN.toUpperCase()];
  if (un) return un;
  const u = q.unit.toLowerCase().replace(/\.$/, '');
  if (/^(kpl|kappale(tta)?|pcs|pc|st|kpl\/kk|krt|kerta(a)?|viesti(ä)?|kk)$/.test(u)) return 'pcs';
  if (/^(s|sek|sekunti(a)?|sec|seconds?)$/.test(u)) return 'sec';
  if (/^(min|minuutti(a)?|minutes?)$/.test(u)) return 'min';
  if (/^(h|t|tunti(a)?|hours?)$/.test(u)) return 'hour';
  if (/^(kb|kt|kilotavu(a)?)$/.test(u)) return 'kb';
  if (/^(mb|mt|megatavu(a)?|mib)$/.test(u)) return 'mb';
  if (/^(gb|gt|gigatavu(a)?|gib)$/.test(u)) return 'gb';
  return null;
}

interface Quantities {
  count: number | null;
  quantity: number | null;
  unit: QuantityUnit | null;
}

/**
 * A row's quantities in Kulu's units: a duration (minutes, two decimals, seconds / 60 rounded half
 * up) or a data volume (MB, one decimal, GB × 1024) is the quantity, and a piece quantity beside it
 * is the count (e.g. the number of calls); pieces alone are the quantity.
 */
function quantitiesOf(row: FinvoiceRow): Quantities {
  let pieces: number | null = null;
  let measured: { quantity: number; unit: QuantityUnit } | null = null;
  for (const q of row.quantities) {
    const kind = unitKind(q);
    const value = parseAmount(q.value); // 5 decimals
    if (value === null) {
      throw new MalformedInvoiceError(`row ${row.index}: quantity "${q.value}" is not a number`);
    }
    if (kind === null) {
      throw new MalformedInvoiceError(
        `row ${row.index}: unknown quantity unit "${q.unit || q.unitUN}" of "${row.articleName}"`,
      );
    }
    if (kind === 'pcs') {
      pieces ??= scaledToNumber(value, SCALE);
      continue;
    }
    if (measured) continue;
    if (kind === 'sec') measured = { quantity: minutes(value), unit: 'min' };
    else if (kind === 'min')
      measured = { quantity: scaledToNumber(roundDiv(value, 10 ** (SCALE - 2)), 2), unit: 'min' };
    else if (kind === 'hour')
      measured = { quantity: scaledToNumber(roundDiv(value * 60, 10 ** (SCALE - 2)), 2), unit: 'min' };
    else if (kind === 'kb')
      measured = { quantity: scaledToNumber(roundDiv(value, 1024 * 10 ** (SCALE - 1)), 1), unit: 'mb' };
    else if (kind === 'mb')
      measured = { quantity: scaledToNumber(roundDiv(value, 10 ** (SCALE - 1)), 1), unit: 'mb' };
    else measured = { quantity: scaledToNumber(roundDiv(value * 1024, 10 ** (SCALE - 1)), 1), unit: 'mb' };
  }
  if (measured) return { count: pieces, quantity: measured.quantity, unit: measured.unit };
  if (pieces !== null) return { count: null, quantity: pieces, unit: 'pcs' };
  return { count: null, quantity: null, unit: null };
}

/** Seconds (at 5 decimals) → minutes to two decimals, half up: as the PDF parser reads `h:mm:ss`. */
function minutes(seconds5: number): number {
  // seconds / 60 * 100 = seconds * 5 / 3
  return scaledToNumber(roundDiv(seconds5 * 5, 3 * 10 ** SCALE), 2);
}

// ---- rows → subscriptions

interface Assigned {
  phoneNumber: string | null;
  userName: string;
  costCenter: string | null;
  label: string;
}

/** A row's text: its free texts, or the article name of a row that has no free text. */
function headingText(row: FinvoiceRow): string {
  return [row.articleName, ...row.freeTexts].filter(Boolean).join(' ');
}

function isTextRow(row: FinvoiceRow): boolean {
  return row.vatExcluded === null && row.amount === null;
}

/**
 * Gives each charge row its subscription (or none: an invoice-level line), row by row in document
 * order. In order of preference: the number in the row's own free text, at the start of its article
 * name, or in the heading text row above it (which holds until the next heading, a SubInvoiceRow block
 * or an "other charges" heading). Text rows and SubInvoiceRow blocks give null.
 */
export class RowAssigner {
  private heading: { phoneNumber: string; userName: string; costCenter: string | null } | null = null;
  /** A subscription's free text repeats on each of its rows: each text is searched once. */
  private readonly found = new Map<string, ReturnType<typeof numberAndName>>();

  private numberIn(text: string): ReturnType<typeof numberAndName> {
    let result = this.found.get(text);
    if (result === undefined) {
      result = numberAndName(text);
      if (this.found.size < 100_000) this.found.set(text, result);
    }
    return result;
  }

  assign(row: FinvoiceRow): Assigned | null {
    if (row.subBlock) {
      this.heading = null;
      return null;
    }
    if (isTextRow(row)) {
      const text = headingText(row);
      const found = numberAndName(text);
      if (found) {
        this.heading = {
          phoneNumber: found.phoneNumber,
          userName: stripCostCenter(found.userName),
          costCenter: row.accountDimension ?? costCenterIn(text),
        };
      } else if (isSectionEnd(text)) this.heading = null;
      return null;
    }
    const cost = row.accountDimension;
    for (const free of row.freeTexts) {
      const match = this.numberIn(free);
      if (match)
        return {
          phoneNumber: match.phoneNumber,
          userName: match.userName,
          costCenter: cost,
          label: row.articleName,
        };
    }
    const start = numberAtStart(row.articleName);
    if (start) {
      const name = row.freeTexts.join(' ').trim();
      return { phoneNumber: start.phoneNumber, userName: name, costCenter: cost, label: start.label };
    }
    if (this.heading) {
      return {
        phoneNumber: this.heading.phoneNumber,
        userName: this.heading.userName,
        costCenter: cost ?? this.heading.costCenter,
        label: row.articleName,
      };
    }
    return { phoneNumber: null, userName: '', costCenter: cost, label: row.articleName };
  }
}

/** The subscription of each charge row of `rows` (see RowAssigner). */
export function assignRows(rows: FinvoiceRow[]): { row: FinvoiceRow; assigned: Assigned }[] {
  const assigner = new RowAssigner();
  return rows.flatMap((row) => {
    const assigned = assigner.assign(row);
    return assigned ? [{ row, assigned }] : [];
  });
}

function costCenterIn(text: string): string | null {
  const m = /kustannuspaikka:?\s+(\S+)/i.exec(text);
  return m ? m[1] : null;
}

function stripCostCenter(name: string): string {
  return name.replace(/[\s,/|\u2013-]*kustannuspaikka:?\s+\S+.*$/i, '').trim();
}

// ---- the invoice

/**
 * Finvoice bytes → a reconciled ParsedInvoice (synchronous). Throws an InvoiceError subclass on any
 * bad input: XmlReadError, FinvoiceError, MalformedInvoiceError or ReconciliationError.
 */
export function parseFinvoice(bytes: Uint8Array): ParsedInvoice {
  // Rows are mapped as they are read (InvoiceDetails, with the invoice date, comes before them in
  // every Finvoice version); rows before an invoice date wait for the end.
  const subscriptions = new Map<string, InvoiceSubscription & { sum: number }>();
  const otherLines: InvoiceLine[] = [];
  const rowRates = new Set<string>();
  const assigner = new RowAssigner();
  const classes = new Map<string | null, Map<string, Classification>>();
  let classified = 0;
  let rowsSum = 0;
  let invoiceMonth: string | null = null;
  const pending: FinvoiceRow[] = [];

  const mapRow = (row: FinvoiceRow, month: string) => {
    const assigned = assigner.assign(row);
    if (!assigned) return;
    if (row.vatRate !== null) rowRates.add(row.vatRate.trim());
    const amount =
      row.vatExcluded !== null
        ? amountOf(row.vatExcluded, `row ${row.index} RowVatExcludedAmount`)
        : amountOf(row.amount, `row ${row.index} RowAmount`) -
          (row.vatAmount === null ? 0 : amountOf(row.vatAmount, `row ${row.index} RowVatAmount`));
    rowsSum += amount;
    const start = row.startDate ? dateOf(row.startDate, `row ${row.index} StartDate`) : null;
    const end = row.endDate ? dateOf(row.endDate, `row ${row.index} EndDate`) : null;
    const periodStart = start ?? end;
    const periodEnd = end ?? start;
    const label = assigned.label || row.freeTexts.join(' ') || '';
    if (!label) throw new MalformedInvoiceError(`row ${row.index} has an amount but no ArticleName`);
    // by period start, then label: no key string to build per row
    let byLabel = classes.get(periodStart);
    if (!byLabel) {
      byLabel = new Map();
      classes.set(periodStart, byLabel);
    }
    let classification = byLabel.get(label);
    if (!classification) {
      classification = classifyLine(label, periodStart, month);
      if (classified++ < 100_000) byLabel.set(label, classification);
    }
    const unitPrice =
      row.unitPrice === null
        ? null
        : roundDiv(amountOf(row.unitPrice, `row ${row.index} UnitPriceAmount`), 10) / 10_000;
    const { count, quantity, unit } = quantitiesOf(row);
    const line: InvoiceLine = {
      label,
      category: classification.category,
      region: classification.region,
      periodStart,
      periodEnd,
      count,
      quantity,
      unit,
      unitPrice,
      amount: euros(amount),
    };
    if (!assigned.phoneNumber) {
      otherLines.push(line);
      return;
    }
    let sub = subscriptions.get(assigned.phoneNumber);
    if (!sub) {
      sub = {
        phoneNumber: assigned.phoneNumber,
        userName: assigned.userName,
        costCenter: assigned.costCenter,
        total: 0,
        lines: [],
        sum: 0,
      };
      subscriptions.set(assigned.phoneNumber, sub);
    }
    if (!sub.userName && assigned.userName) sub.userName = assigned.userName;
    sub.costCenter ??= assigned.costCenter;
    sub.lines.push(line);
    sub.sum += amount;
  };

  const header = readDocument(bytes, (row, { invoiceDate }) => {
    if (invoiceMonth === null && invoiceDate !== null) {
      invoiceMonth = parseFinvoiceDate(invoiceDate)?.slice(0, 7) ?? null;
    }
    if (invoiceMonth !== null && !pending.length) mapRow(row, invoiceMonth);
    else pending.push(row);
  });
  if (!header.version)
    throw new FinvoiceError('not_finvoice', 'not a Finvoice invoice: no Finvoice root element');

  const typeCode = header.typeCode?.trim() ?? null;
  if (typeCode === null) throw new MalformedInvoiceError('the Finvoice invoice has no InvoiceTypeCode');
  if (typeCode !== 'INV01' && typeCode !== 'INV02') {
    throw new FinvoiceError(
      'finvoice_unsupported_type',
      `unsupported Finvoice invoice type ${typeCode} (Kulu reads INV01 invoices and INV02 credit notes)`,
    );
  }
  const sellerId = normalizeBusinessId(header.sellerId) ?? normalizeBusinessId(header.sellerTaxCode);
  const operator = sellerId ? OPERATOR_BUSINESS_IDS[sellerId] : undefined;
  if (!operator) {
    throw new FinvoiceError(
      'finvoice_unknown_seller',
      `the seller ${header.sellerName ?? 'of the invoice'}${sellerId ? ` (${sellerId})` : ''} is not an operator Kulu reads ` +
        '(Elisa Oyj 0116510-6, Telia Finland Oyj 1475607-9, DNA Oyj 0592509-6)',
    );
  }
  const foreign = [...header.currencies].filter((c) => c !== 'EUR');
  if (foreign.length) {
    throw new MalformedInvoiceError(
      `the Finvoice invoice is in ${foreign.join(', ')}; Kulu reads EUR invoices`,
    );
  }
  const invoiceNumber = header.invoiceNumber?.trim();
  if (!invoiceNumber) throw new MalformedInvoiceError('the Finvoice invoice has no InvoiceNumber');
  const invoiceDate = dateOf(header.invoiceDate, 'InvoiceDate');
  const dueDate = header.dueDate
    ? dateOf(header.dueDate, 'InvoiceDueDate')
    : (parseFinvoiceDate(header.epiDateOption) ?? invoiceDate);
  for (const row of pending) mapRow(row, invoiceDate.slice(0, 7));
  // arithmetic (finvoice.md): rows = total excl. exactly; VAT per rate rounded once = VAT total;
  // incl. = excl. + VAT
  const totalExcl = amountOf(header.totalExcl, 'InvoiceTotalVatExcludedAmount');
  const totalVat = amountOf(header.totalVat, 'InvoiceTotalVatAmount');
  const totalIncl = amountOf(header.totalIncl, 'InvoiceTotalVatIncludedAmount');
  const fmt = (v: number) => (v / 10 ** SCALE).toFixed(2);
  const cents = (v: number) => roundDiv(v, CENT);
  /** Refuses the invoice when a sum (`summed` says what it adds) is not the total the invoice `states`. */
  const reconcile = (
    summed: string,
    sum: number,
    states: string,
    total: number,
    code: 'finvoice_rows_mismatch' | 'finvoice_vat_mismatch',
  ) => {
    if (sum === total) return;
    throw new ReconciliationError(
      `${summed} ${fmt(sum)} EUR but ${states} ${fmt(total)} EUR: off by ${fmt(total - sum)} EUR`,
      cents(total - sum),
      code,
    );
  };
  reconcile(
    'the invoice rows sum to',
    rowsSum,
    'the invoice total excluding VAT is',
    totalExcl,
    'finvoice_rows_mismatch',
  );
  const rates = header.vat.length
    ? header.vat.map((spec, i) => ({
        base: amountOf(spec.base, `VatBaseAmount of VAT rate ${i + 1}`),
        rate: percentTenThousandths(spec.rate, `VatRatePercent of VAT rate ${i + 1}`),
        stated: spec.amount === null ? null : amountOf(spec.amount, `VatRateAmount of VAT rate ${i + 1}`),
      }))
    : [{ base: totalExcl, rate: singleRowRate(rowRates), stated: null }];
  let vatSum = 0;
  let baseSum = 0;
  for (const r of rates) {
    // base × rate, rounded to the cent once per rate
    const computed = roundDiv(r.base * r.rate, 1_000_000 * CENT) * CENT;
    if (r.stated !== null && r.stated !== computed) {
      throw new ReconciliationError(
        `the VAT of ${formatRate(r.rate)} % on ${fmt(r.base)} EUR is ${fmt(computed)} EUR but the invoice states ` +
          `${fmt(r.stated)} EUR: off by ${fmt(r.stated - computed)} EUR`,
        cents(r.stated - computed),
        'finvoice_vat_mismatch',
      );
    }
    vatSum += computed;
    baseSum += r.base;
  }
  reconcile(
    'the VAT bases sum to',
    baseSum,
    'the invoice total excluding VAT is',
    totalExcl,
    'finvoice_vat_mismatch',
  );
  reconcile(
    'the VAT computed per rate is',
    vatSum,
    'the invoice VAT total is',
    totalVat,
    'finvoice_vat_mismatch',
  );
  if (totalExcl + totalVat !== totalIncl) {
    throw new ReconciliationError(
      `the invoice total including VAT is ${fmt(totalIncl)} EUR but ${fmt(totalExcl)} + ${fmt(totalVat)} EUR is ` +
        `${fmt(totalExcl + totalVat)} EUR: off by ${fmt(totalIncl - totalExcl - totalVat)} EUR`,
      cents(totalIncl - totalExcl - totalVat),
    );
  }
  // one rate per invoice in Kulu's model: the rate of the largest base
  const main = rates.reduce((a, b) => (Math.abs(b.base) > Math.abs(a.base) ? b : a));

  return checkTextBounds({
    operator,
    invoiceNumber,
    invoiceDate,
    dueDate,
    customerNumber: header.customerNumber?.trim() ?? '',
    customerName: header.buyerName?.trim() ?? '',
    businessId: normalizeBusinessId(header.buyerId) ?? (header.buyerId?.trim() || null),
    referenceNumber: (header.reference ?? header.epiReference ?? '').replace(/\s/g, ''),
    currency: 'EUR',
    vatRate: main.rate / 10_000,
    totalExclVat: euros(totalExcl),
    vatAmount: euros(totalVat),
    totalInclVat: euros(totalIncl),
    subscriptions: [...subscriptions.values()].map(({ sum, ...sub }) => ({ ...sub, total: euros(sum) })),
    otherLines,
  });
}

/** `25,5` → 255000 (percent at 4 decimals). */
function percentTenThousandths(text: string | null, what: string): number {
  const m = text === null ? null : /^(\d{1,3})(?:[,.](\d{1,4}))?$/.exec(text.trim());
  if (!m) {
    throw new MalformedInvoiceError(
      text === null ? `the Finvoice invoice has no ${what}` : `${what} "${text}" is not a percentage`,
    );
  }
  return Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
}

function formatRate(rate: number): string {
  return String(rate / 10_000).replace('.', ',');
}

/** Without VatSpecificationDetails: the rows' one VAT rate. */
function singleRowRate(rates: Set<string>): number {
  if (rates.size !== 1) {
    throw new MalformedInvoiceError(
      'the Finvoice invoice has no VatSpecificationDetails and its rows do not name one VAT rate',
    );
  }
  return percentTenThousandths([...rates][0], 'RowVatRatePercent');
}
