/**
 * The format-neutral e-invoice builder: rows (model.ts) are mapped to invoice lines as the reader
 * reads them — a 28 MB file is never held as row objects — and `finish(header)` gives the reconciled
 * ParsedInvoice. Dates: the reader hands the builder its format's texts and a `readDate` (model.ts
 * EInvoiceFormat) that gives ISO `yyyy-mm-dd`.
 *
 * Order of judgement: the reader makes its identity checks (format, version, type, seller,
 * currency) before calling `finish`; a row the builder could not read is remembered, not thrown, and
 * `finish` throws it only then — a file that is not an operator's invoice is refused for that, never
 * for a row.
 */
import { InvoiceError, MalformedInvoiceError } from '../errors.js';
import { checkTextBounds } from '../limits.js';
import type { InvoiceDifference, InvoiceLine, InvoiceSubscription, ParsedInvoice } from '../types.js';
import { classifyLine, type Classification } from '../vocabulary.js';
import {
  amountOf,
  CENT,
  euros,
  percentOf,
  percentTenThousandths,
  readOnce,
  readPercent,
  roundDiv,
  parseAmount,
} from './amounts.js';
import { RowAssigner } from './assign.js';
import type { EInvoiceCharge, EInvoiceFormat, EInvoiceHeader, EInvoiceRow } from './model.js';
import { quantitiesOf } from './units.js';

export class EInvoiceBuilder {
  private readonly subscriptions = new Map<string, InvoiceSubscription & { sum: number }>();
  private readonly otherLines: InvoiceLine[] = [];
  private readonly rowRates = new Set<string>();
  private readonly assigner = new RowAssigner();
  private readonly classes = new Map<string | null, Map<string, Classification & { label: string }>>();
  private classified = 0;
  private rowsSum = 0;
  private invoiceMonth: string | null = null;
  /** Rows read before the invoice date (none in Finvoice or UBL as written): mapped by `finish`. */
  private readonly pending: EInvoiceRow[] = [];
  /** The first row that could not be read: thrown by `finish` after the reader's identity checks. */
  private rowError: InvoiceError | null = null;

  constructor(private readonly format: EInvoiceFormat) {}

  /** The invoice date as the document states it, as soon as it is read (rows are then mapped at once). */
  invoiceDate(text: string | null): void {
    if (this.invoiceMonth === null && text !== null) {
      this.invoiceMonth = this.format.readDate(text)?.slice(0, 7) ?? null;
    }
  }

  /** One row, in document order. */
  add(row: EInvoiceRow): void {
    if (this.rowError) return;
    if (this.invoiceMonth === null || this.pending.length) {
      this.pending.push(row);
      return;
    }
    try {
      this.map(row, this.invoiceMonth);
    } catch (err) {
      if (!(err instanceof InvoiceError)) throw err;
      this.rowError = err;
    }
  }

  private amount(text: string | null, what: string): number {
    return amountOf(text, what, this.format.name);
  }

  private percent(text: string, what: string): number {
    return ratePercent(text) ?? percentTenThousandths(text, what, this.format.name);
  }

  // A row's figures: the message naming the row and the element is built only when one is refused.

  private rowAmount(row: EInvoiceRow, text: string | null, field: keyof EInvoiceFormat['names']): number {
    return (
      (text === null ? null : parseAmount(text)) ??
      this.amount(text, `row ${row.index} ${this.format.names[field]}`)
    );
  }

  private rowDate(row: EInvoiceRow, text: string, field: 'rowStart' | 'rowEnd'): string {
    return this.format.readDate(text) ?? this.date(text, `row ${row.index} ${this.format.names[field]}`);
  }

  private date(text: string | null, what: string): string {
    const date = text === null ? null : this.format.readDate(text);
    if (!date) {
      throw new MalformedInvoiceError(
        text === null
          ? `the ${this.format.name} invoice has no ${what}`
          : `${what} "${text}" is not a ${this.format.dateForm} date`,
      );
    }
    return date;
  }

  /**
   * A label's category and region, and the label itself as first read: the same label on thousands
   * of rows is then one string, not one per line (memory of a 28 MB file).
   */
  private classify(
    label: string,
    periodStart: string | null,
    month: string,
  ): Classification & { label: string } {
    // by period start, then label: no key string to build per row
    let byLabel = this.classes.get(periodStart);
    if (!byLabel) {
      byLabel = new Map();
      this.classes.set(periodStart, byLabel);
    }
    let classification = byLabel.get(label);
    if (!classification) {
      classification = { ...classifyLine(label, periodStart, month), label };
      if (this.classified++ < 100_000) byLabel.set(label, classification);
    }
    return classification;
  }

  private map(row: EInvoiceRow, month: string): void {
    const assigned = this.assigner.assign(row);
    if (!assigned) return;
    const rate =
      row.vatRate === null
        ? null
        : (ratePercent(row.vatRate) ??
          this.percent(row.vatRate, `row ${row.index} ${this.format.names.rowVatRate}`));
    if (row.vatRate !== null) this.rowRates.add(row.vatRate.trim());
    let amount: number;
    if (row.vatExcluded !== null) amount = this.rowAmount(row, row.vatExcluded, 'rowVatExcluded');
    else {
      amount = this.rowAmount(row, row.amount, 'rowAmount');
      if (row.vatAmount !== null) amount -= this.rowAmount(row, row.vatAmount, 'rowVatAmount');
      // only an amount including VAT: less its VAT at the row's rate, to the cent
      else if (rate) amount -= roundDiv(amount * rate, (1_000_000 + rate) * CENT) * CENT;
    }
    this.rowsSum += amount;
    const start = row.startDate ? this.rowDate(row, row.startDate, 'rowStart') : null;
    const end = row.endDate ? this.rowDate(row, row.endDate, 'rowEnd') : null;
    const periodStart = start ?? end;
    const periodEnd = end ?? start;
    const read = assigned.label || row.freeTexts.join(' ') || '';
    if (!read) {
      throw new MalformedInvoiceError(
        `row ${row.index} has an amount but no ${this.format.names.articleName}`,
      );
    }
    const { category, region, label } = this.classify(read, periodStart, month);
    const unitPrice =
      row.unitPrice === null ? null : roundDiv(this.rowAmount(row, row.unitPrice, 'unitPrice'), 10) / 10_000;
    const { count, quantity, unit, unitCode } = quantitiesOf(row, category);
    // one literal per shape: every line of a kind shares its hidden class (memory of a 28 MB file)
    const line: InvoiceLine =
      rate === null
        ? {
            label,
            category,
            region,
            periodStart,
            periodEnd,
            count,
            quantity,
            unit,
            unitPrice,
            amount: euros(amount),
          }
        : {
            label,
            category,
            region,
            periodStart,
            periodEnd,
            count,
            quantity,
            unit,
            unitPrice,
            amount: euros(amount),
            vatRate: percentOf(rate),
          };
    if (unitCode !== undefined) line.unitCode = unitCode;
    if (!assigned.phoneNumber) {
      this.otherLines.push(line);
      return;
    }
    let sub = this.subscriptions.get(assigned.phoneNumber);
    if (!sub) {
      sub = {
        phoneNumber: assigned.phoneNumber,
        userName: assigned.userName,
        costCenter: assigned.costCenter,
        total: 0,
        lines: [],
        sum: 0,
      };
      this.subscriptions.set(assigned.phoneNumber, sub);
    }
    if (!sub.userName && assigned.userName) sub.userName = assigned.userName;
    sub.costCenter ??= assigned.costCenter;
    sub.lines.push(line);
    sub.sum += amount;
  }

  /** The reconciled invoice; call after the reader's identity checks. */
  finish(header: EInvoiceHeader): ParsedInvoice {
    if (this.rowError) throw this.rowError;
    const { name: format, names: n } = this.format;
    const invoiceNumber = header.invoiceNumber?.trim();
    if (!invoiceNumber) throw new MalformedInvoiceError(`the ${format} invoice has no ${n.invoiceNumber}`);
    const invoiceDate = this.date(header.invoiceDate, n.invoiceDate);
    const dueDate = header.dueDate
      ? this.date(header.dueDate, n.dueDate)
      : ((header.dueDateFallback === null ? null : this.format.readDate(header.dueDateFallback)) ??
        invoiceDate);
    for (const row of this.pending) this.map(row, invoiceDate.slice(0, 7));
    for (const charge of header.charges) this.addCharge(charge);
    const totalExcl = this.amount(header.totalExcl, n.totalExcl);
    const totalVat = this.amount(header.totalVat, n.totalVat);
    const totalIncl = this.amount(header.totalIncl, n.totalIncl);
    const rates = header.vat.length
      ? header.vat.map((spec, i) => ({
          base: this.amount(spec.base, `${n.vatBase} of VAT rate ${i + 1}`),
          rate: percentTenThousandths(spec.rate, `${n.vatRate} of VAT rate ${i + 1}`, format),
          stated:
            spec.amount === null ? null : this.amount(spec.amount, `${n.vatAmount} of VAT rate ${i + 1}`),
        }))
      : [{ base: totalExcl, rate: this.singleRowRate(), stated: null }];
    const differences = reconcile(this.rowsSum, totalExcl, totalVat, totalIncl, rates);
    // one rate per invoice in Kulu's model: the rate of the largest base
    const main = rates.reduce((a, b) => (Math.abs(b.base) > Math.abs(a.base) ? b : a));

    const invoice: ParsedInvoice = {
      operator: header.operator,
      invoiceNumber,
      invoiceDate,
      dueDate,
      customerNumber: header.customerNumber,
      customerName: header.customerName,
      businessId: header.businessId,
      referenceNumber: header.referenceNumber,
      currency: 'EUR',
      vatRate: percentOf(main.rate),
      totalExclVat: euros(totalExcl),
      vatAmount: euros(totalVat),
      totalInclVat: euros(totalIncl),
      subscriptions: [...this.subscriptions.values()].map(({ sum, ...sub }) => ({
        ...sub,
        total: euros(sum),
      })),
      otherLines: this.otherLines,
    };
    if (rates.length > 1) {
      invoice.vatBreakdown = rates.map((r) => ({
        rate: percentOf(r.rate),
        base: euros(r.base),
        vat: euros(r.stated ?? vatOf(r.base, r.rate)),
      }));
    }
    if (header.origin !== 'original') {
      invoice.origin = header.origin;
      invoice.originalInvoiceNumber = header.originalInvoiceNumber?.trim() || null;
    }
    if (differences.length) invoice.differences = differences;
    return checkTextBounds(invoice);
  }

  /** An invoice-level charge or discount: an invoice-level line (a discount negative). */
  private addCharge(charge: EInvoiceCharge): void {
    const { name: format, names: n } = this.format;
    const chargeName = n.charge ?? 'invoice-level charge';
    const what = `${n.chargeAmount ?? 'the amount'} of ${chargeName}`;
    let amount: number;
    if (charge.amount !== null || !charge.percent) amount = this.amount(charge.amount, what);
    else {
      const base = this.amount(charge.base ?? null, `${what} (or its base)`);
      const percent = percentTenThousandths(charge.percent, `the percent of ${chargeName}`, format);
      amount = roundDiv(base * percent, 1_000_000 * CENT) * CENT;
    }
    if (charge.kind === 'discount') amount = -amount;
    this.rowsSum += amount;
    const line: InvoiceLine = {
      label: charge.reason?.trim() || (charge.kind === 'discount' ? 'Alennus' : 'Lisäveloitus'),
      category: charge.kind === 'discount' ? 'discount' : 'other',
      region: null,
      periodStart: null,
      periodEnd: null,
      count: null,
      quantity: null,
      unit: null,
      unitPrice: null,
      amount: euros(amount),
    };
    if (charge.vatRate !== null) {
      line.vatRate = percentOf(this.percent(charge.vatRate, `${n.vatRate} of ${chargeName}`));
    }
    this.otherLines.push(line);
  }

  /** Without a VAT specification: the rows' one VAT rate. */
  private singleRowRate(): number {
    const { name, names } = this.format;
    if (this.rowRates.size !== 1) {
      throw new MalformedInvoiceError(
        `the ${name} invoice has no ${names.vatSpecification} and its rows do not name one VAT rate`,
      );
    }
    return percentTenThousandths([...this.rowRates][0], names.rowVatRate, name);
  }
}

/** A row's rate text → percent at 4 decimals; read once per text. */
const ratePercent = readOnce(1000, (text: string) => text, readPercent);

/** base × rate, rounded to the cent once (5-decimal amount, rate at 4 decimals). */
function vatOf(base: number, rate: number): number {
  return roundDiv(base * rate, 1_000_000 * CENT) * CENT;
}

/** One difference in euros (amounts at 5 decimals); none when they agree to the cent. */
function difference(
  where: InvoiceDifference['where'],
  stated: number,
  computed: number,
  rate?: number,
): InvoiceDifference[] {
  const [s, c] = [roundDiv(stated, CENT), roundDiv(computed, CENT)];
  if (s === c) return [];
  const d: InvoiceDifference = { where, stated: s / 100, computed: c / 100, difference: (s - c) / 100 };
  if (rate !== undefined) d.rate = percentOf(rate);
  return [d];
}

/**
 * An e-invoice's own figures side by side (finvoice.md: rows = total excl.; VAT per rate is base ×
 * rate rounded once; the rates' VAT = the VAT total; incl. = excl. + VAT): each disagreement is
 * recorded, never thrown nor absorbed — the figures are the sender's data, not Kulu's reading of
 * them. `vat` with a rate: that rate's stated VAT vs base × rate; `vat` without one: the VAT
 * specification as a whole vs the stated totals (the rates' bases vs the total excl. VAT, their VAT
 * vs the VAT total).
 */
function reconcile(
  rowsSum: number,
  totalExcl: number,
  totalVat: number,
  totalIncl: number,
  rates: { base: number; rate: number; stated: number | null }[],
): InvoiceDifference[] {
  const found = difference('rows', totalExcl, rowsSum);
  if (rates.length === 1 && rates[0].stated === null) {
    // one rate, none stated but the total: the total's VAT is that rate's
    const [{ base, rate }] = rates;
    found.push(
      ...difference('vat', totalVat, vatOf(base, rate), rate),
      ...difference('vat', totalExcl, base),
    );
  } else {
    let baseSum = 0;
    let vatSum = 0;
    for (const r of rates) {
      const computed = vatOf(r.base, r.rate);
      if (r.stated !== null) found.push(...difference('vat', r.stated, computed, r.rate));
      baseSum += r.base;
      vatSum += r.stated ?? computed;
    }
    found.push(...difference('vat', totalExcl, baseSum), ...difference('vat', totalVat, vatSum));
  }
  found.push(...difference('total', totalIncl, totalExcl + totalVat));
  return found;
}
