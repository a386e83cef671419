/**
 * How each operator prints an invoice (labels, headings, table columns, cell texts), as described in
 * ../shared/invoice-formats/README.md (copied into packages/invoices/README.md), and what the parser
 * must give back for each printed line.
 */
import {
  formatCents,
  formatDuration,
  formatFinnishDate,
  formatPhone,
  formatScaled,
  type FormatOptions,
} from '../finnish.js';
import type { InvoiceLine } from '../types.js';
import type { ModelLine, ModelSubscription } from './model.js';

export type PrintRole = 'label' | 'period' | 'count' | 'quantity' | 'unit' | 'unitPrice' | 'amount';

export interface PrintLayout {
  id: string;
  name: string;
  legalName: string;
  title: string;
  footer: string;
  headerKeys: [key: HeaderField, label: string][];
  /** The page header on pages 2…: `<legalName>   <label> <invoice number>`. */
  pageHeaderLabel: string;
  summaryHeading: string;
  /** Category subtotal rows: monthly fees, usage, one-offs and credits. */
  summaryRows: [fees: string, usage: string, oneOffs: string];
  summaryTotalExcl: string;
  summaryVat: string;
  summaryTotalIncl: string;
  specHeading: string;
  /** Columns in the standard order; `period: 'inLabel'` prints the period inside the label cell (Telia). */
  columns: [PrintRole, string][];
  periodInLabel: boolean;
  padDates: boolean;
  subscriptionHeading(sub: ModelSubscription): string[];
  /** A cost center line below the subscription heading (DNA). */
  costCenterLine?(sub: ModelSubscription): string | null;
  /** Telia: group heading per cost center. */
  groupHeading?(code: string, name: string): string;
  groupTotal?: string;
  subscriptionTotal: string;
  otherHeading: string;
  otherTotal: string;
  /** The cells of a line (blank cells absent) and the line the parser must give. */
  row(
    line: ModelLine,
    fmt: FormatOptions,
  ): { cells: Partial<Record<PrintRole, string>>; expected: Omit<InvoiceLine, 'label'> };
}

export type HeaderField =
  'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'customerNumber' | 'referenceNumber' | 'businessId';

const minutesHundredths = (seconds: number) => Math.floor((seconds * 10 + 3) / 6);
const n = (value: number, scale: number) => Number((value / 10 ** scale).toFixed(scale));

function base(line: ModelLine): Omit<InvoiceLine, 'label' | 'count' | 'quantity' | 'unit' | 'unitPrice'> {
  return {
    category: line.category,
    region: line.region,
    periodStart: line.period?.start ?? null,
    periodEnd: line.period?.end ?? null,
    amount: n(line.amountCents, 2),
  };
}

/**
 * The quantity parsing must read from a line, whatever the layout prints: its minutes (and calls),
 * megabytes, or pieces (counted too).
 */
function expectedQuantity(line: ModelLine): Pick<InvoiceLine, 'count' | 'quantity' | 'unit'> {
  if (line.seconds !== undefined)
    return { count: line.calls ?? null, quantity: n(minutesHundredths(line.seconds), 2), unit: 'min' };
  if (line.mbTenths !== undefined) return { count: null, quantity: n(line.mbTenths, 1), unit: 'mb' };
  const pieces = line.pieces ?? 1;
  return { count: pieces, quantity: pieces, unit: 'pcs' };
}

const elisa: PrintLayout = {
  id: 'elisa',
  name: 'Elisa',
  legalName: 'Elisa Oyj',
  title: 'LASKU',
  footer: 'Elisa Oyj · PL 1, 00061 ELISA · elisa.fi/yritys · Asiakaspalvelu 010 190 240',
  headerKeys: [
    ['invoiceNumber', 'Laskun numero'],
    ['invoiceDate', 'Laskun päivämäärä'],
    ['dueDate', 'Eräpäivä'],
    ['customerNumber', 'Asiakasnumero'],
    ['referenceNumber', 'Viitenumero'],
    ['businessId', 'Y-tunnus'],
  ],
  pageHeaderLabel: 'Laskun numero',
  summaryHeading: 'Laskun yhteenveto',
  summaryRows: ['Kuukausimaksut', 'Käyttömaksut', 'Kertamaksut ja hyvitykset'],
  summaryTotalExcl: 'Yhteensä ilman arvonlisäveroa',
  summaryVat: 'Arvonlisävero',
  summaryTotalIncl: 'Laskun loppusumma',
  specHeading: 'Erittely liittymittäin',
  columns: [
    ['label', 'Tuote / palvelu'],
    ['period', 'Jakso'],
    ['quantity', 'Määrä'],
    ['unitPrice', 'À-hinta'],
    ['amount', 'Summa €'],
  ],
  periodInLabel: false,
  padDates: false,
  subscriptionHeading: (sub) => [
    `Liittymä ${formatPhone(sub.phone, 'national')}`,
    sub.userName,
    ...(sub.costCenter ? [`Kustannuspaikka ${sub.costCenter.code}`] : []),
  ],
  subscriptionTotal: 'Liittymä yhteensä',
  otherHeading: 'Muut maksut',
  otherTotal: 'Muut maksut yhteensä',
  row(line, fmt) {
    const quantity =
      line.seconds !== undefined
        ? formatDuration(line.seconds)
        : line.mbTenths !== undefined
          ? `${formatScaled(line.mbTenths % 10 === 0 ? line.mbTenths / 10 : line.mbTenths, line.mbTenths % 10 === 0 ? 0 : 1, fmt)} MB`
          : `${line.pieces ?? 1} kpl`;
    return {
      cells: {
        quantity,
        ...(line.unitPriceCents !== null ? { unitPrice: formatCents(line.unitPriceCents, fmt) } : {}),
        amount: formatCents(line.amountCents, fmt),
      },
      expected: {
        ...base(line),
        ...expectedQuantity(line),
        count: null,
        unitPrice: line.unitPriceCents === null ? null : n(line.unitPriceCents, 2),
      },
    };
  },
};

const telia: PrintLayout = {
  id: 'telia',
  name: 'Telia',
  legalName: 'Telia Finland Oyj',
  title: 'Lasku',
  footer: 'Telia Finland Oyj · PL 106, 00051 TELIA · telia.fi/yritys',
  headerKeys: [
    ['invoiceNumber', 'Laskunumero'],
    ['invoiceDate', 'Laskun pvm'],
    ['dueDate', 'Eräpäivä'],
    ['customerNumber', 'Asiakasnumero'],
    ['referenceNumber', 'Viite'],
    ['businessId', 'Y-tunnus'],
  ],
  pageHeaderLabel: 'Laskunumero',
  summaryHeading: 'Yhteenveto',
  summaryRows: ['Kiinteät kuukausimaksut', 'Käyttö', 'Muut maksut'],
  summaryTotalExcl: 'Veroton yhteensä',
  summaryVat: 'ALV',
  summaryTotalIncl: 'Maksettava yhteensä',
  specHeading: 'Erittely kustannuspaikoittain',
  columns: [
    ['label', 'Erittely'],
    ['count', 'Kpl'],
    ['quantity', 'Määrä'],
    ['amount', 'Hinta €'],
  ],
  periodInLabel: true,
  padDates: true,
  subscriptionHeading: (sub) => [`${formatPhone(sub.phone, 'international')} / ${sub.userName}`],
  groupHeading: (code, name) => `Kustannuspaikka: ${name ? `${code} ${name}` : code}`,
  groupTotal: 'Kustannuspaikka yhteensä',
  subscriptionTotal: 'Yhteensä',
  otherHeading: 'Muut maksut',
  otherTotal: 'Muut maksut yhteensä',
  row(line, fmt) {
    const cells: Partial<Record<PrintRole, string>> = { amount: formatCents(line.amountCents, fmt) };
    if (line.seconds !== undefined) {
      cells.count = String(line.calls);
      cells.quantity = `${formatScaled(minutesHundredths(line.seconds), 2, fmt)} min`;
    } else if (line.mbTenths !== undefined) {
      cells.quantity =
        line.gbTenths !== undefined
          ? `${formatScaled(line.gbTenths, 1, fmt)} GB`
          : `${formatScaled(line.mbTenths, 1, fmt)} MB`;
    } else {
      cells.count = String(line.pieces ?? 1);
    }
    return { cells, expected: { ...base(line), ...expectedQuantity(line), unitPrice: null } };
  },
};

const dna: PrintLayout = {
  id: 'dna',
  name: 'DNA',
  legalName: 'DNA Oyj',
  title: 'LASKU',
  footer: 'DNA Oyj · PL 10, 01044 DNA · dna.fi/yrityksille',
  headerKeys: [
    ['invoiceNumber', 'Laskun numero'],
    ['invoiceDate', 'Päiväys'],
    ['dueDate', 'Eräpäivä'],
    ['customerNumber', 'Asiakasnro'],
    ['referenceNumber', 'Viitenro'],
    ['businessId', 'Y-tunnus'],
  ],
  pageHeaderLabel: 'Laskun numero',
  summaryHeading: 'Laskun erittely',
  summaryRows: ['Kuukausimaksut', 'Käyttö', 'Kertamaksut'],
  summaryTotalExcl: 'Veroton summa',
  summaryVat: 'Arvonlisävero',
  summaryTotalIncl: 'Yhteensä',
  specHeading: 'Liittymäkohtainen erittely',
  columns: [
    ['label', 'Palvelu'],
    ['period', 'Ajanjakso'],
    ['count', 'Lkm'],
    ['quantity', 'Määrä'],
    ['unit', 'Yks.'],
    ['amount', 'Veroton €'],
  ],
  periodInLabel: false,
  padDates: false,
  subscriptionHeading: (sub) => [`Numero ${formatPhone(sub.phone, 'national')} – ${sub.userName}`],
  costCenterLine: (sub) => (sub.costCenter ? `Kustannuspaikka ${sub.costCenter.code}` : null),
  subscriptionTotal: 'Numero yhteensä',
  otherHeading: 'Muut maksut',
  otherTotal: 'Muut maksut yhteensä',
  row(line, fmt) {
    const cells: Partial<Record<PrintRole, string>> = { amount: formatCents(line.amountCents, fmt) };
    let expected = expectedQuantity(line);
    if (line.seconds !== undefined) {
      const h = minutesHundredths(line.seconds);
      Object.assign(cells, { count: String(line.calls), quantity: formatScaled(h, 2, fmt), unit: 'min' });
    } else if (line.mbTenths !== undefined) {
      Object.assign(
        cells,
        line.gbTenths !== undefined
          ? { quantity: formatScaled(line.gbTenths, 1, fmt), unit: 'Gt' }
          : { quantity: formatScaled(line.mbTenths, 1, fmt), unit: 'Mt' },
      );
    } else if (line.kind === 'message' || line.kind === 'servicePieces') {
      const pieces = line.pieces ?? 1;
      Object.assign(cells, { count: String(pieces), quantity: String(pieces), unit: 'kpl' });
    } else {
      // One of a charge: no count printed.
      Object.assign(cells, { quantity: '1', unit: 'kpl' });
      expected = { count: null, quantity: 1, unit: 'pcs' };
    }
    return { cells, expected: { ...base(line), ...expected, unitPrice: null } };
  },
};

export const PRINT_LAYOUTS: Record<string, PrintLayout> = { elisa, telia, dna };

export function periodText(line: ModelLine, pad: boolean): string | null {
  return line.period
    ? `${formatFinnishDate(line.period.start, pad)}–${formatFinnishDate(line.period.end, pad)}`
    : null;
}
