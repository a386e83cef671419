/**
 * Finvoice (1.3, 2.0, 2.01, 3.0) bytes → the same reconciled `ParsedInvoice` as a parsed PDF.
 * See shared/invoice-formats/finvoice.md and docs/decisions/0020-finvoice.md.
 */
import { EInvoiceBuilder } from '../einvoice/builder.js';
import {
  emptyRow,
  type EInvoiceCharge,
  type EInvoiceFormat,
  type EInvoiceQuantity,
  type EInvoiceRow,
  type EInvoiceVat,
} from '../einvoice/model.js';
import { elementText, isoDate } from '../einvoice/read.js';
import { FinvoiceError, MalformedInvoiceError, XmlReadError } from '../errors.js';
import type { InvoiceOrigin, ParsedInvoice } from '../types.js';
import { readXml, type XmlReader } from './xml.js';

export { assignRows, RowAssigner } from '../einvoice/assign.js';
export { parseAmount } from '../einvoice/amounts.js';
export { emptyRow };

/** The row elements read (children of InvoiceRow). */
const ROW_FIELDS = new Set([
  'ArticleName',
  'DeliveredQuantity',
  'InvoicedQuantity',
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
  'OriginCode',
  'OriginalInvoiceNumber',
  'Amount',
  'Percent',
  'BaseAmount',
  'ReasonText',
  'FreeText',
  'ReasonCode',
]);

/** The row elements that state a quantity: the first of them that gives one is read (not both). */
const QUANTITY_FIELDS = new Set(['DeliveredQuantity', 'InvoicedQuantity']);

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

/** One InvoiceRow as read (normal row, text row, or a SubInvoiceRow block): the e-invoice row. */
export type FinvoiceRow = EInvoiceRow;
type Quantity = EInvoiceQuantity;

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
  vat: EInvoiceVat[];
  /** InvoiceDetails' DiscountDetails and ChargeDetails (3.0), with the code apart from the text. */
  charges: (EInvoiceCharge & { code: string | null })[];
  origin: string | null;
  originalInvoiceNumber: string | null;
  reference: string | null;
  epiReference: string | null;
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
    charges: [],
    origin: null,
    originalInvoiceNumber: null,
    reference: null,
    epiReference: null,
  };
  let rowCount = 0;
  let rowIndex = 0;
  const path: string[] = [];
  let row: FinvoiceRow | null = null;
  let quantity: Quantity | null = null;
  /** The row's element that gave its first quantity (DeliveredQuantity or InvoicedQuantity). */
  let quantityFrom: string | null = null;

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
        quantityFrom = null;
      } else if (row && depth === 3 && name === 'SubInvoiceRow') {
        if (++rowCount > MAX_FINVOICE_ROWS) throw tooManyRows();
        row.subBlock = true;
      } else if (row && depth === 3 && QUANTITY_FIELDS.has(name) && (quantityFrom ?? name) === name) {
        quantity = {
          value: '',
          unit: reader.attribute('QuantityUnitCode')?.trim() ?? '',
          unitUN: reader.attribute('QuantityUnitCodeUN')?.trim() ?? '',
        };
      } else if (depth === 3 && name === 'VatSpecificationDetails' && path[1] === 'InvoiceDetails') {
        header.vat.push({ base: null, rate: null, amount: null });
      } else if (
        depth === 3 &&
        (name === 'DiscountDetails' || name === 'ChargeDetails') &&
        path[1] === 'InvoiceDetails'
      ) {
        header.charges.push({
          kind: name === 'DiscountDetails' ? 'discount' : 'charge',
          amount: null,
          percent: null,
          base: null,
          vatRate: null,
          reason: null,
          code: null,
        });
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
        const text = elementText(reader, name, 'row', row.index);
        switch (name) {
          case 'ArticleName':
            row.articleName = text;
            break;
          case 'DeliveredQuantity':
          case 'InvoicedQuantity':
            if (quantity && text) {
              row.quantities.push({ value: text, unit: quantity.unit, unitUN: quantity.unitUN });
              quantityFrom = name;
            }
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
          case 'OriginCode':
            header.origin = text;
            break;
          case 'OriginalInvoiceNumber':
            header.originalInvoiceNumber = text || null;
            break;
        }
      } else if (parent === 'VatSpecificationDetails' && grand === 'InvoiceDetails') {
        const spec = header.vat[header.vat.length - 1];
        if (name === 'VatBaseAmount') spec.base = text;
        else if (name === 'VatRatePercent') spec.rate = text;
        else if (name === 'VatRateAmount') spec.amount = text;
      } else if (grand === 'InvoiceDetails' && (parent === 'DiscountDetails' || parent === 'ChargeDetails')) {
        const charge = header.charges[header.charges.length - 1];
        if (name === 'Amount') charge.amount = text;
        else if (name === 'Percent') charge.percent = text;
        else if (name === 'BaseAmount') charge.base = text;
        else if (name === 'VatRatePercent') charge.vatRate = text;
        else if (name === 'ReasonText' || name === 'FreeText') charge.reason = text || null;
        else if (name === 'ReasonCode') charge.code = text || null;
      } else if (parent === 'OriginalInvoiceReference' && grand === 'InvoiceDetails') {
        if (name === 'InvoiceNumber') header.originalInvoiceNumber ??= text || null;
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
  return m ? isoDate(m[1], m[2], m[3]) : null;
}

/** A business id as `1234567-8` (also from `12345678`, `FI12345678`); null when not one. */
export function normalizeBusinessId(text: string | null): string | null {
  if (!text) return null;
  const compact = text.trim().replace(/^FI/i, '').replace(/[\s-]/g, '');
  return /^\d{8}$/.test(compact) ? `${compact.slice(0, 7)}-${compact[7]}` : null;
}

/** Finvoice for the e-invoice builder: its dates and its element names (in messages). */
const FINVOICE: EInvoiceFormat = {
  name: 'Finvoice',
  readDate: parseFinvoiceDate,
  dateForm: 'CCYYMMDD',
  names: {
    invoiceNumber: 'InvoiceNumber',
    invoiceDate: 'InvoiceDate',
    dueDate: 'InvoiceDueDate',
    totalExcl: 'InvoiceTotalVatExcludedAmount',
    totalVat: 'InvoiceTotalVatAmount',
    totalIncl: 'InvoiceTotalVatIncludedAmount',
    vatBase: 'VatBaseAmount',
    vatRate: 'VatRatePercent',
    vatAmount: 'VatRateAmount',
    vatSpecification: 'VatSpecificationDetails',
    charge: 'DiscountDetails / ChargeDetails',
    chargeAmount: 'Amount',
    rowVatExcluded: 'RowVatExcludedAmount',
    rowVatAmount: 'RowVatAmount',
    rowAmount: 'RowAmount',
    rowVatRate: 'RowVatRatePercent',
    rowStart: 'StartDate',
    rowEnd: 'EndDate',
    unitPrice: 'UnitPriceAmount',
    articleName: 'ArticleName',
  },
};

// ---- the invoice

/**
 * Finvoice bytes → a reconciled ParsedInvoice (synchronous). Throws an InvoiceError subclass on any
 * bad input: XmlReadError, FinvoiceError or MalformedInvoiceError (figures that disagree are recorded
 * in `differences`, not thrown). Who sent the file (format, version, type, seller, currency) is
 * judged before any of its rows.
 */
export function parseFinvoice(bytes: Uint8Array): ParsedInvoice {
  // Rows are mapped as they are read (InvoiceDetails, with the invoice date, comes before them in
  // every Finvoice version)
  const builder = new EInvoiceBuilder(FINVOICE);
  let dated = false;
  const header = readDocument(bytes, (row, { invoiceDate }) => {
    if (!dated && invoiceDate !== null) {
      builder.invoiceDate(invoiceDate);
      dated = true;
    }
    builder.add(row);
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
  return builder.finish({
    operator,
    invoiceNumber: header.invoiceNumber,
    invoiceDate: header.invoiceDate,
    dueDate: header.dueDate,
    dueDateFallback: header.epiDateOption,
    customerNumber: header.customerNumber?.trim() ?? '',
    customerName: header.buyerName?.trim() ?? '',
    businessId: normalizeBusinessId(header.buyerId) ?? (header.buyerId?.trim() || null),
    referenceNumber: (header.reference ?? header.epiReference ?? '').replace(/\s/g, ''),
    totalExcl: header.totalExcl,
    totalVat: header.totalVat,
    totalIncl: header.totalIncl,
    vat: header.vat,
    charges: header.charges.map(({ code, ...charge }) => ({ ...charge, reason: charge.reason ?? code })),
    origin: originOf(header.origin),
    originalInvoiceNumber: header.originalInvoiceNumber,
  });
}

/** OriginCode: `Copy` a re-sent invoice, `Cancel` a cancellation; anything else (or none) an original. */
function originOf(code: string | null): InvoiceOrigin {
  const c = code?.toLowerCase();
  return c === 'copy' ? 'copy' : c === 'cancel' ? 'cancel' : 'original';
}
