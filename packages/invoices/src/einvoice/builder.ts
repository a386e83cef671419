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
import { InvoiceError, MalformedInvoiceError, ReconciliationError } from '../errors.js';
import { checkTextBounds } from '../limits.js';
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice } from '../types.js';
import { classifyLine, type Classification } from '../vocabulary.js';
import {
  amountOf,
  CENT,
  euros,
  formatAmount,
  formatRate,
  percentTenThousandths,
  roundDiv,
} from './amounts.js';
import { RowAssigner } from './assign.js';
import type { EInvoiceFormat, EInvoiceHeader, EInvoiceRow } from './model.js';
import { quantitiesOf } from './units.js';

export class EInvoiceBuilder {
  private readonly subscriptions = new Map<string, InvoiceSubscription & { sum: number }>();
  private readonly otherLines: InvoiceLine[] = [];
  private readonly rowRates = new Set<string>();
  private readonly assigner = new RowAssigner();
  private readonly classes = new Map<string | null, Map<string, Classification>>();
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

  private classify(label: string, periodStart: string | null, month: string): Classification {
    // by period start, then label: no key string to build per row
    let byLabel = this.classes.get(periodStart);
    if (!byLabel) {
      byLabel = new Map();
      this.classes.set(periodStart, byLabel);
    }
    let classification = byLabel.get(label);
    if (!classification) {
      classification = classifyLine(label, periodStart, month);
      if (this.classified++ < 100_000) byLabel.set(label, classification);
    }
    return classification;
  }

  private map(row: EInvoiceRow, month: string): void {
    const assigned = this.assigner.assign(row);
    if (!assigned) return;
    const n = this.format.names;
    const at = `row ${row.index}`;
    if (row.vatRate !== null) this.rowRates.add(row.vatRate.trim());
    const amount =
      row.vatExcluded !== null
        ? this.amount(row.vatExcluded, `${at} ${n.rowVatExcluded}`)
        : this.amount(row.amount, `${at} ${n.rowAmount}`) -
          (row.vatAmount === null ? 0 : this.amount(row.vatAmount, `${at} ${n.rowVatAmount}`));
    this.rowsSum += amount;
    const start = row.startDate ? this.date(row.startDate, `${at} ${n.rowStart}`) : null;
    const end = row.endDate ? this.date(row.endDate, `${at} ${n.rowEnd}`) : null;
    const periodStart = start ?? end;
    const periodEnd = end ?? start;
    const label = assigned.label || row.freeTexts.join(' ') || '';
    if (!label) throw new MalformedInvoiceError(`${at} has an amount but no ${n.articleName}`);
    const classification = this.classify(label, periodStart, month);
    const unitPrice =
      row.unitPrice === null
        ? null
        : roundDiv(this.amount(row.unitPrice, `${at} ${n.unitPrice}`), 10) / 10_000;
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
    // arithmetic (finvoice.md): rows = total excl. exactly; VAT per rate rounded once = VAT total;
    // incl. = excl. + VAT
    const totalExcl = this.amount(header.totalExcl, n.totalExcl);
    const totalVat = this.amount(header.totalVat, n.totalVat);
    const totalIncl = this.amount(header.totalIncl, n.totalIncl);
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
        `${summed} ${formatAmount(sum)} EUR but ${states} ${formatAmount(total)} EUR: off by ${formatAmount(total - sum)} EUR`,
        cents(total - sum),
        code,
      );
    };
    reconcile(
      'the invoice rows sum to',
      this.rowsSum,
      'the invoice total excluding VAT is',
      totalExcl,
      'finvoice_rows_mismatch',
    );
    const rates = header.vat.length
      ? header.vat.map((spec, i) => ({
          base: this.amount(spec.base, `${n.vatBase} of VAT rate ${i + 1}`),
          rate: percentTenThousandths(spec.rate, `${n.vatRate} of VAT rate ${i + 1}`, format),
          stated:
            spec.amount === null ? null : this.amount(spec.amount, `${n.vatAmount} of VAT rate ${i + 1}`),
        }))
      : [{ base: totalExcl, rate: this.singleRowRate(), stated: null }];
    let vatSum = 0;
    let baseSum = 0;
    for (const r of rates) {
      // base × rate, rounded to the cent once per rate
      const computed = roundDiv(r.base * r.rate, 1_000_000 * CENT) * CENT;
      if (r.stated !== null && r.stated !== computed) {
        throw new ReconciliationError(
          `the VAT of ${formatRate(r.rate)} % on ${formatAmount(r.base)} EUR is ${formatAmount(computed)} EUR but the invoice states ` +
            `${formatAmount(r.stated)} EUR: off by ${formatAmount(r.stated - computed)} EUR`,
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
        `the invoice total including VAT is ${formatAmount(totalIncl)} EUR but ${formatAmount(totalExcl)} + ${formatAmount(totalVat)} EUR is ` +
          `${formatAmount(totalExcl + totalVat)} EUR: off by ${formatAmount(totalIncl - totalExcl - totalVat)} EUR`,
        cents(totalIncl - totalExcl - totalVat),
      );
    }
    // one rate per invoice in Kulu's model: the rate of the largest base
    const main = rates.reduce((a, b) => (Math.abs(b.base) > Math.abs(a.base) ? b : a));

    return checkTextBounds({
      operator: header.operator,
      invoiceNumber,
      invoiceDate,
      dueDate,
      customerNumber: header.customerNumber,
      customerName: header.customerName,
      businessId: header.businessId,
      referenceNumber: header.referenceNumber,
      currency: 'EUR',
      vatRate: main.rate / 10_000,
      totalExclVat: euros(totalExcl),
      vatAmount: euros(totalVat),
      totalInclVat: euros(totalIncl),
      subscriptions: [...this.subscriptions.values()].map(({ sum, ...sub }) => ({
        ...sub,
        total: euros(sum),
      })),
      otherLines: this.otherLines,
    });
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
