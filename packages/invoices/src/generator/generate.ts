/**
 * Writes a realistic invoice PDF of an operator with pdfkit, varying page size, font, font size,
 * margins, column positions, alignment and order, number formats and content by seed, and returns
 * the ParsedInvoice that parsing it must give.
 */
import PDFDocument from 'pdfkit';
import { formatCents, formatFinnishDate, type FormatOptions } from '../finnish.js';
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice } from '../types.js';
import { PRINT_LAYOUTS, periodText, type PrintLayout, type PrintRole } from './layouts.js';
import { invoiceHeadOf, seededModel, vatCents, type InvoiceModel, type ModelLine } from './model.js';
import { Random } from './random.js';

export type { InvoiceModel, LineKind, ModelLine, ModelSubscription } from './model.js';
export { personName, referenceNumber } from './data.js';
export { Random } from './random.js';
export { buildModel, TRIP_OUTSIDE_EU_SHARE } from './model.js';
export { generateFinvoice, type FinvoiceOptions, type GeneratedFinvoice } from './finvoice.js';
export { generatePeppol, type GeneratedPeppol, type PeppolOptions } from './peppol.js';

export const PAGE_SIZES = {
  A4: [595.28, 841.89],
  LETTER: [612, 792],
  LEGAL: [612, 1008],
  B5: [498.9, 708.66],
  A5: [419.53, 595.28],
} as const satisfies Record<string, readonly [number, number]>;

export type PageSizeName = keyof typeof PAGE_SIZES;

export const STANDARD_FONTS = ['Helvetica', 'Times-Roman', 'Courier'] as const;
const BOLD: Record<string, string> = {
  Helvetica: 'Helvetica-Bold',
  'Times-Roman': 'Times-Bold',
  Courier: 'Courier-Bold',
};

export interface GenerateOptions {
  /** `elisa`, `telia` or `dna`. */
  operator: string;
  subscriptions: number;
  /** Same seed, same invoice (default 1). */
  seed?: number;
  /** A named size or [width, height] in points; default: picked by seed. */
  pageSize?: PageSizeName | [number, number];
  /** A standard PDF font (Helvetica, Times-Roman, Courier) or a path to a TrueType font; default by seed. */
  font?: string;
  /** Bold font (standard name or TTF path); default: the bold of a standard font, else `font`. */
  boldFont?: string;
  /** Base font size in points (shrunk if the table would not fit the page); default by seed. */
  fontSize?: number;
  /** Invoice date (ISO); default by seed. VAT 24 % before 2024-09-01, else 25,5 %. */
  invoiceDate?: string;
  /** Whether the customer uses cost centers (Telia always prints them); default by seed. */
  costCenters?: boolean;
  /** Share of subscriptions roaming outside the EU in a month (`ModelOptions`); default 1. */
  tripsOutsideEu?: number;
  /** How much the phones use abroad (`ModelOptions`): `frequent` (default) or a Finnish company's `business` mix. */
  abroad?: 'frequent' | 'business';
  /** `standard`: the README column order; `shuffled`: the columns after the label in a seeded order. Default by seed. */
  columnOrder?: 'standard' | 'shuffled';
  /** Number formatting; default by seed (space or no-break space; minus leading or trailing). */
  numberFormat?: FormatOptions;
  /**
   * The buyer printed on the invoice (name and business id); default by seed. A null business id
   * prints none (the `Y-tunnus` row is left out).
   */
  buyer?: { name?: string; businessId: string | null };
}

export interface GeneratedInvoice {
  pdf: Uint8Array;
  expected: ParsedInvoice;
  pages: number;
  /** The layout choices made (useful to reproduce a failure). */
  layout: {
    operator: string;
    seed: number;
    pageSize: [number, number];
    font: string;
    fontSize: number;
    columnOrder: string[];
    numberFormat: FormatOptions;
  };
}

interface ColumnBox {
  role: PrintRole;
  header: string;
  x0: number;
  x1: number;
  align: 'left' | 'right' | 'center';
}

type Row = {
  label: string;
  period: string | null;
  cells: Partial<Record<PrintRole, string>>;
  expected: InvoiceLine;
};

/** Generates an invoice PDF and the structured invoice that parsing it must give. */
export async function generateInvoice(options: GenerateOptions): Promise<GeneratedInvoice> {
  const layout = layoutOf(options.operator);
  const { model, seed } = seededModel(layout.id, options);
  return printInvoice(layout, model, seed, options);
}

/** Print options of an invoice whose content the caller gives (see generateInvoiceFromModel). */
export type PrintOptions = Omit<GenerateOptions, 'subscriptions' | 'invoiceDate' | 'costCenters' | 'buyer'>;

/**
 * Prints an invoice whose content the caller made (a demo company's own subscriptions, plans and
 * usage) in the operator's layout; the seed then picks only the layout (page, font, columns,
 * number format), not the content. Same answer as generateInvoice: the PDF and what parsing gives.
 */
export async function generateInvoiceFromModel(
  model: InvoiceModel,
  options: PrintOptions,
): Promise<GeneratedInvoice> {
  const layout = layoutOf(options.operator);
  if (!model.subscriptions.length && !model.otherLines.length) {
    throw new Error('an invoice needs at least one subscription or other line');
  }
  return printInvoice(layout, model, options.seed ?? 1, options);
}

function layoutOf(operator: string): PrintLayout {
  const layout = PRINT_LAYOUTS[operator.toLowerCase()];
  if (!layout) {
    throw new Error(`unknown operator "${operator}" (known: ${Object.keys(PRINT_LAYOUTS).join(', ')})`);
  }
  return layout;
}

async function printInvoice(
  layout: PrintLayout,
  model: InvoiceModel,
  seed: number,
  options: PrintOptions,
): Promise<GeneratedInvoice> {
  const style = new Random(seed * 7919 + 13);
  const sizeOption = options.pageSize ?? style.pick(['A4', 'A4', 'LETTER', 'LEGAL', 'B5', 'A5'] as const);
  const pageSize: [number, number] = Array.isArray(sizeOption) ? sizeOption : [...PAGE_SIZES[sizeOption]];
  const font = options.font ?? style.pick(STANDARD_FONTS);
  const boldFont = options.boldFont ?? BOLD[font] ?? font;
  const standardFont = font in BOLD;
  const numberFormat: FormatOptions = options.numberFormat ?? {
    thousands: style.chance(0.3) ? '\u00a0' : ' ',
    minus: style.chance(0.25)
      ? 'trailing'
      : standardFont
        ? 'leading'
        : style.pick(['leading', 'unicode'] as const),
  };
  const shuffled = (options.columnOrder ?? (style.chance(0.3) ? 'shuffled' : 'standard')) === 'shuffled';

  const rows = (lines: ModelLine[]): Row[] =>
    lines.map((line) => {
      const { cells, expected } = layout.row(line, numberFormat);
      // the contract's key order, so the JSON diffs cleanly against `parse` output
      const ordered: InvoiceLine = {
        label: line.label,
        category: expected.category,
        region: expected.region,
        periodStart: expected.periodStart,
        periodEnd: expected.periodEnd,
        count: expected.count,
        quantity: expected.quantity,
        unit: expected.unit,
        unitPrice: expected.unitPrice,
        amount: expected.amount,
      };
      return { label: line.label, period: periodText(line, layout.padDates), cells, expected: ordered };
    });
  const subRows = model.subscriptions.map((s) => rows(s.lines));
  const otherRows = rows(model.otherLines);
  const expected = expectedInvoice(layout, model, subRows, otherRows);

  const doc = new PDFDocument({
    size: pageSize,
    margin: 0,
    bufferPages: true,
    autoFirstPage: false,
    compress: true,
    info: {
      Title: `${layout.name} ${model.invoiceNumber}`,
      Producer: 'Kulu invoice generator',
      Creator: 'Kulu',
      CreationDate: new Date(`${model.invoiceDate}T08:00:00Z`),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });

  const regular = 'body';
  const bold = 'bold';
  doc.registerFont(regular, font);
  doc.registerFont(bold, boldFont);

  // ---- geometry
  const margin = style.int(28, 64);
  const [pageW, pageH] = pageSize;
  const left = margin;
  const right = pageW - margin;
  const top = margin + style.int(0, 20);
  const bottom = pageH - margin - 24;
  let size = options.fontSize ?? style.pick([7.5, 8, 8.5, 9, 9.5, 10]);
  const leading = style.float(1.35, 1.75);

  // Column order: the label first, the rest standard or shuffled; the period stays next to the label.
  const others = layout.columns.slice(1);
  const ordered = shuffled ? style.shuffle(others) : others;
  const columnSpecs: [PrintRole, string][] = [layout.columns[0], ...ordered];

  const allRows = [...subRows.flat(), ...otherRows];
  const widths = new Map<string, number>();
  const measure = (text: string, isBold = false) => {
    const key = `${isBold ? 'b' : 'r'}${size}|${text}`;
    let w = widths.get(key);
    if (w === undefined) {
      doc.font(isBold ? bold : regular).fontSize(size);
      w = doc.widthOfString(text);
      widths.set(key, w);
    }
    return w;
  };
  let columns: ColumnBox[] = [];
  // Fit: shrink the font until the table fits the width.
  for (;;) {
    const gap = size * 1.6;
    const colWidths = columnSpecs.map(([role, header]) => {
      let w = measure(header, true);
      for (const row of allRows) {
        if (role === 'label') {
          const labelW =
            measure(row.label) + (layout.periodInLabel && row.period ? size * 2 + measure(row.period) : 0);
          w = Math.max(w, labelW);
        } else {
          const text = role === 'period' ? row.period : row.cells[role];
          if (text) w = Math.max(w, measure(text));
        }
      }
      return w;
    });
    const total = colWidths.reduce((a, b) => a + b, 0) + gap * (colWidths.length - 1);
    const slack = right - left - total;
    if (slack < 0 && size > 5) {
      size -= 0.5;
      continue;
    }
    // Distribute the slack over the gaps at random.
    const shares = colWidths.map(() => style.float(0.2, 1));
    const shareSum = shares.reduce((a, b) => a + b, 0) + style.float(0, 1.5);
    let x = left;
    columns = columnSpecs.map(([role, header], i) => {
      if (i > 0) x += gap + (Math.max(0, slack) * shares[i]) / shareSum;
      const box: ColumnBox = {
        role,
        header,
        x0: x,
        x1: x + colWidths[i],
        align:
          role === 'label' || role === 'period'
            ? 'left'
            : role === 'unit'
              ? style.pick(['left', 'center'] as const)
              : style.pick(['right', 'right', 'left', 'center'] as const),
      };
      x += colWidths[i];
      return box;
    });
    break;
  }
  const lineH = size * leading;
  // Telia: the period either right after each label or at one x after the longest label.
  const periodFixedX = style.chance(0.5)
    ? Math.max(...allRows.map((r) => measure(r.label))) + size * 2
    : null;

  // ---- drawing helpers
  let y = top;
  const put = (
    text: string,
    x: number,
    opts: { bold?: boolean; size?: number; align?: 'left' | 'right'; at?: number } = {},
  ) => {
    let drawX = x;
    if (opts.align === 'right') {
      if (opts.size === undefined) drawX = x - measure(text, opts.bold);
      else {
        doc.font(opts.bold ? bold : regular).fontSize(opts.size);
        drawX = x - doc.widthOfString(text);
      }
    }
    doc.font(opts.bold ? bold : regular).fontSize(opts.size ?? size);
    doc.text(text, drawX, opts.at ?? y, { lineBreak: false });
  };
  const inBox = (text: string, box: ColumnBox, isBold = false) => {
    const w = measure(text, isBold);
    const x = box.align === 'left' ? box.x0 : box.align === 'right' ? box.x1 - w : (box.x0 + box.x1 - w) / 2;
    put(text, x, { bold: isBold });
  };
  const newline = (k = 1) => {
    y += lineH * k;
  };
  const newPage = () => {
    doc.addPage({ size: pageSize, margin: 0 });
    y = top;
  };
  const pageHeader = () => {
    put(layout.legalName, left, { bold: true });
    put(`${layout.pageHeaderLabel} ${model.invoiceNumber}`, right, { align: 'right' });
    newline(2);
  };
  const fits = (k: number) => y + lineH * k <= bottom;

  // ---- page 1: title, customer, key–value block
  newPage();
  const titleSize = size * style.float(1.3, 1.8);
  put(layout.legalName, left, { bold: true, size: titleSize });
  put(layout.title, style.chance(0.7) ? right : left + (right - left) * style.float(0.5, 0.7), {
    bold: true,
    size: titleSize,
    align: 'right',
  });
  y += titleSize * 1.2 + lineH * style.float(1, 2.5);

  const keyValues: [string, string][] = layout.headerKeys.flatMap(([field, label]): [string, string][] => {
    const raw = model[field];
    if (raw === null) return [];
    const value =
      field === 'invoiceDate' || field === 'dueDate' ? formatFinnishDate(raw, layout.padDates) : raw;
    return [[label, value]];
  });
  const customerBlock = [model.customerName, ...model.customerAddress];
  const keyW = Math.max(...keyValues.map(([k]) => measure(k))) + size * style.float(1.5, 4);
  const valueW = Math.max(...keyValues.map(([, v]) => measure(v)));
  const blockW = Math.max(...customerBlock.map((t) => measure(t)));
  const kvX =
    right - keyW - valueW - style.float(0, Math.max(0, right - left - keyW - valueW - blockW - size * 4) / 2);
  const sideBySide = kvX - left > blockW + size * 3 && style.chance(0.8);
  const drawCustomer = () => {
    customerBlock.forEach((t, i) => put(t, left, { at: y + lineH * i }));
  };
  const drawKeyValues = (x: number) => {
    keyValues.forEach(([k, v], i) => {
      put(k, x, { at: y + lineH * i });
      put(v, x + keyW, { at: y + lineH * i });
    });
  };
  if (sideBySide) {
    const customerOffset = style.float(0, 2.5) * lineH;
    const y0 = y;
    drawKeyValues(kvX);
    y = y0 + customerOffset;
    drawCustomer();
    y = Math.max(y0 + lineH * keyValues.length, y + lineH * customerBlock.length);
  } else if (style.chance(0.5)) {
    drawCustomer();
    newline(customerBlock.length + 1);
    drawKeyValues(left + (right - left - keyW - valueW) * style.float(0, 1));
    newline(keyValues.length);
  } else {
    drawKeyValues(left + (right - left - keyW - valueW) * style.float(0, 1));
    newline(keyValues.length + 1);
    drawCustomer();
    newline(customerBlock.length);
  }
  newline(style.float(1.5, 3));

  // ---- summary
  const sum = (pred: (l: ModelLine) => boolean) =>
    [...model.subscriptions.flatMap((s) => s.lines), ...model.otherLines]
      .filter(pred)
      .reduce((s, l) => s + l.amountCents, 0);
  const fees = sum((l) => l.kind === 'fee');
  const oneOffs = sum((l) => l.kind === 'oneOff' || l.kind === 'credit');
  const totalExcl = sum(() => true);
  const usage = totalExcl - fees - oneOffs;
  const vat = vatCents(totalExcl, model.vatTenths);
  const vatLabel = `${layout.summaryVat} ${formatCents(model.vatTenths * 10, {})
    .replace(/,?0+$/, '')
    .replace(/,$/, '')} %`;
  const summary: [string, number][] = [
    [layout.summaryRows[0], fees],
    [layout.summaryRows[1], usage],
    [layout.summaryRows[2], oneOffs],
    [layout.summaryTotalExcl, totalExcl],
    [vatLabel, vat],
    [layout.summaryTotalIncl, totalExcl + vat],
  ];
  const sumLabelW = Math.max(...summary.map(([l]) => measure(l)));
  const sumAmountW = Math.max(...summary.map(([, c]) => measure(formatCents(c, numberFormat))));
  const sumRight =
    left +
    sumLabelW +
    size * 2 +
    sumAmountW +
    style.float(0, Math.max(0, right - left - sumLabelW - sumAmountW - size * 2));
  put(layout.summaryHeading, left, { bold: true });
  newline(1.3);
  for (const [label, cents] of summary) {
    put(label, left);
    put(formatCents(cents, numberFormat), sumRight, { align: 'right' });
    newline();
  }
  newline(0.6);
  put(`Maksutiedot: saaja ${layout.legalName}, tilinumero FI37 1590 3000 0007 76, maksa viitteellä.`, left);
  newline(2);

  // ---- specification
  if (!fits(8) || style.chance(0.25)) {
    newPage();
    pageHeader();
  }
  put(layout.specHeading, left, { bold: true });
  newline(1.5);

  const tableHeader = () => {
    for (const col of columns) inBox(col.header, col, true);
    newline(1.2);
  };
  const drawRow = (row: Row) => {
    for (const col of columns) {
      if (col.role === 'label') {
        put(row.label, col.x0);
        if (layout.periodInLabel && row.period) {
          // Telia: the period inside the label cell, after the label (as its own text or in one string)
          put(row.period, col.x0 + (periodFixedX ?? measure(row.label) + size * 2));
        }
        continue;
      }
      const text = col.role === 'period' ? row.period : row.cells[col.role];
      if (text) inBox(text, col);
    }
    newline();
  };
  /** Repeats the open headings on a new page. */
  let repeat: () => void = () => undefined;
  const ensure = (k: number) => {
    if (fits(k)) return;
    newPage();
    pageHeader();
    repeat();
  };
  const jatkuu = (parts: string[]) => [...parts.slice(0, -1), `${parts[parts.length - 1]} (jatkuu)`];
  /**
   * A heading's parts side by side, a part that would run past the right margin on a line of its
   * own (a long user name pushed "Kustannuspaikka 2001 (jatkuu)" off the page): the x of each part
   * and the lines it takes (with the widest gap unless told: what a heading may need at most).
   */
  const headingPlaces = (parts: string[], gap: () => number = () => size * 4) => {
    let x = left;
    let line = 0;
    const places = parts.map((p, i) => {
      const w = measure(p, i === 0);
      if (i > 0 && x + w > right) {
        x = left;
        line++;
      }
      const place = { text: p, x, line, bold: i === 0 };
      x += w + gap();
      return place;
    });
    return { places, lines: line + 1 };
  };
  const heading = (parts: string[]) => {
    const { places, lines } = headingPlaces(parts, () => size * style.float(2, 4));
    for (const p of places) put(p.text, p.x, { bold: p.bold, at: y + p.line * size * 1.15 });
    newline(1.2 + ((lines - 1) * size * 1.15) / lineH);
  };
  const closer = (label: string, cents: number) => {
    put(label, left, { bold: true });
    const amountCol = columns.find((c) => c.role === 'amount')!;
    inBox(formatCents(cents, numberFormat), amountCol);
    newline(1.6);
  };

  let group: { code: string; name: string; total: number } | null = null;
  const groupRepeat = () => {
    if (group && layout.groupHeading) {
      put(`${layout.groupHeading(group.code, group.name)} (jatkuu)`, left, { bold: true });
      newline(1.4);
    }
  };
  model.subscriptions.forEach((sub, i) => {
    if (layout.groupHeading && sub.costCenter && group?.code !== sub.costCenter.code) {
      if (group) {
        repeat = groupRepeat;
        ensure(1);
        closer(layout.groupTotal!, group.total);
      }
      group = { ...sub.costCenter, total: 0 };
      repeat = () => undefined;
      ensure(5);
      put(layout.groupHeading(group.code, group.name), left, { bold: true });
      newline(1.4);
    }
    const parts = layout.subscriptionHeading(sub);
    const cc = layout.costCenterLine?.(sub) ?? null;
    const headingBlock = (continued: boolean) => {
      heading(continued ? jatkuu(parts) : parts);
      if (cc) {
        put(cc, left);
        newline(1.1);
      }
    };
    repeat = groupRepeat;
    ensure(4 + (cc ? 1 : 0) + headingPlaces(jatkuu(parts)).lines - 1);
    headingBlock(false);
    tableHeader();
    repeat = () => {
      groupRepeat();
      headingBlock(true);
      tableHeader();
    };
    for (const row of subRows[i]) {
      ensure(1);
      drawRow(row);
    }
    ensure(1);
    const total = sub.lines.reduce((s, l) => s + l.amountCents, 0);
    closer(layout.subscriptionTotal, total);
    if (group) group.total += total;
    repeat = groupRepeat;
  });
  if (group) {
    ensure(1);
    closer(layout.groupTotal!, (group as { total: number }).total);
  }
  repeat = () => undefined;
  if (otherRows.length) {
    ensure(4);
    put(layout.otherHeading, left, { bold: true });
    newline(1.4);
    tableHeader();
    repeat = () => {
      put(`${layout.otherHeading} (jatkuu)`, left, { bold: true });
      newline(1.4);
      tableHeader();
    };
    for (const row of otherRows) {
      ensure(1);
      drawRow(row);
    }
    ensure(1);
    closer(
      layout.otherTotal,
      model.otherLines.reduce((s, l) => s + l.amountCents, 0),
    );
  }

  // ---- footers with page numbers
  const range = doc.bufferedPageRange();
  for (let p = range.start; p < range.start + range.count; p++) {
    doc.switchToPage(p);
    const fy = pageH - margin;
    const footerSize = Math.max(5, size - 1);
    put(layout.footer, left, { size: footerSize, at: fy });
    put(`Sivu ${p + 1} / ${range.count}`, right, { size: footerSize, at: fy, align: 'right' });
  }
  doc.end();
  await done;
  return {
    pdf: new Uint8Array(Buffer.concat(chunks)),
    expected,
    pages: range.count,
    layout: {
      operator: layout.id,
      seed,
      pageSize,
      font,
      fontSize: size,
      columnOrder: columns.map((c) => c.header),
      numberFormat,
    },
  };
}

function expectedInvoice(
  layout: PrintLayout,
  model: InvoiceModel,
  subRows: Row[][],
  otherRows: Row[],
): ParsedInvoice {
  const toNumber = (cents: number) => Number((cents / 100).toFixed(2));
  const subscriptions: InvoiceSubscription[] = model.subscriptions.map((s, i) => ({
    phoneNumber: s.phone,
    userName: s.userName,
    costCenter: s.costCenter?.code ?? null,
    total: toNumber(s.lines.reduce((sum, l) => sum + l.amountCents, 0)),
    lines: subRows[i].map((r) => r.expected),
  }));
  const totalExcl = [...model.subscriptions.flatMap((s) => s.lines), ...model.otherLines].reduce(
    (s, l) => s + l.amountCents,
    0,
  );
  const vat = vatCents(totalExcl, model.vatTenths);
  return {
    operator: layout.name,
    ...invoiceHeadOf(model),
    vatRate: model.vatTenths / 10,
    totalExclVat: toNumber(totalExcl),
    vatAmount: toNumber(vat),
    totalInclVat: toNumber(totalExcl + vat),
    subscriptions,
    otherLines: otherRows.map((r) => r.expected),
  };
}

/** A plain text PDF that is not an invoice (for tests and the broken-input corpus). */
export async function generatePlainPdf(
  paragraphs: string[],
  options: { encryptWithPassword?: string } = {},
): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { CreationDate: new Date('2026-01-01T00:00:00Z') },
    ...(options.encryptWithPassword
      ? { userPassword: options.encryptWithPassword, ownerPassword: `${options.encryptWithPassword}-owner` }
      : {}),
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const p of paragraphs) doc.fontSize(11).text(p).moveDown();
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

/** An image-only PDF (shapes, no text), like a scan. */
export async function generateImageOnlyPdf(): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { CreationDate: new Date('2026-01-01T00:00:00Z') },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (let i = 0; i < 40; i++) doc.rect(50, 50 + i * 18, 200 + ((i * 37) % 300), 10).fill('#333');
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}
