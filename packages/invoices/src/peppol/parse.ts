/**
 * Peppol BIS Billing 3.0 (UBL 2.1 `Invoice` and `CreditNote`, EN 16931) bytes → the same reconciled
 * `ParsedInvoice` as a Finvoice file, through the same format-neutral e-invoice builder
 * (src/einvoice): the reader only reads the UBL elements into its rows and header and makes the
 * identity checks (format, version, type, seller, currency). docs/decisions/0030-peppol.md.
 *
 * Elements are matched by their local name within their UBL path: prefixes (`cbc:`, `cac:`, a
 * default namespace, any other) are free, and the root's namespace is checked. Everything under
 * `UBLExtensions` and anything Kulu does not read is passed over.
 */
import { parseAmount, readOnce, SCALE } from '../einvoice/amounts.js';
import { EInvoiceBuilder } from '../einvoice/builder.js';
import { elementText, isoDate } from '../einvoice/read.js';
import { emptyRow, type EInvoiceFormat, type EInvoiceHeader, type EInvoiceRow } from '../einvoice/model.js';
import { PeppolError, XmlReadError } from '../errors.js';
import { TEXT_LIMITS } from '../limits.js';
import { OPERATOR_BUSINESS_IDS } from '../finvoice/parse.js';
import type { ParsedInvoice } from '../types.js';
import { readXml, type XmlReader } from '../finvoice/xml.js';
import { businessIdOf, firstBusinessId, type PartyId } from './identifiers.js';
import {
  SBDH_NAMESPACE,
  UBL_CREDIT_NOTE_NAMESPACE,
  UBL_INVOICE_NAMESPACE,
  UBL_NAMESPACE_PREFIX,
  xmlRootOf,
} from './root.js';

/** More invoice lines than this are refused (as Finvoice rows are). */
export const MAX_PEPPOL_LINES = 200_000;

/** The CustomizationID of every EN 16931 invoice (BIS Billing 3.0 is `…#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`). */
export const EN16931 = 'urn:cen.eu:en16931:2017';
export const PEPPOL_BIS3 = `${EN16931}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`;

const OPERATORS_TEXT = 'Elisa Oyj 0116510-6, Telia Finland Oyj 1475607-9, DNA Oyj 0592509-6';

/** UBL dates are `YYYY-MM-DD` (an xs:date; a time zone, which Peppol does not use, is dropped). */
function readIsoDateOnce(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:Z|[+-]\d{2}:\d{2})?$/.exec(text.trim());
  return m ? isoDate(m[1], m[2], m[3]) : null;
}

/** Dates repeat on every line: each text is read once. */
const readIsoDate = readOnce(10_000, (text: string) => text, readIsoDateOnce);

export const PEPPOL_FORMAT: EInvoiceFormat = {
  name: 'Peppol',
  readDate: readIsoDate,
  dateForm: 'YYYY-MM-DD',
  names: {
    invoiceNumber: 'ID',
    invoiceDate: 'IssueDate',
    dueDate: 'DueDate',
    totalExcl: 'LegalMonetaryTotal/TaxExclusiveAmount',
    totalVat: 'TaxTotal/TaxAmount',
    totalIncl: 'LegalMonetaryTotal/TaxInclusiveAmount',
    vatBase: 'TaxSubtotal/TaxableAmount',
    vatRate: 'TaxSubtotal/TaxCategory/Percent',
    vatAmount: 'TaxSubtotal/TaxAmount',
    vatSpecification: 'TaxSubtotal',
    charge: 'AllowanceCharge',
    chargeAmount: 'Amount',
    rowVatExcluded: 'LineExtensionAmount',
    rowVatAmount: 'LineExtensionAmount',
    rowAmount: 'LineExtensionAmount',
    rowVatRate: 'ClassifiedTaxCategory/Percent',
    rowStart: 'InvoicePeriod/StartDate',
    rowEnd: 'InvoicePeriod/EndDate',
    unitPrice: 'Price/PriceAmount',
    articleName: 'Item/Name',
  },
};

type Kind = 'invoice' | 'creditNote';

interface Party {
  ids: PartyId[];
  /** PartyLegalEntity/RegistrationName, else PartyName/Name. */
  legalName: string | null;
  name: string | null;
}

/** What the reader collects besides the rows. */
interface Document {
  kind: Kind | null;
  customizationId: string | null;
  typeCode: string | null;
  id: string | null;
  issueDate: string | null;
  dueDate: string | null;
  paymentDueDate: string | null;
  currency: string | null;
  /** Every currencyID of an amount and the TaxCurrencyCode. */
  currencies: Set<string>;
  buyerReference: string | null;
  paymentId: string | null;
  seller: Party;
  buyer: Party;
  charges: Charge[];
  taxAmount: string | null;
  vat: { base: string | null; rate: string | null; amount: string | null }[];
  taxExclusive: string | null;
  taxInclusive: string | null;
  /** LegalMonetaryTotal's PayableAmount, PrepaidAmount, PayableRoundingAmount (for a missing TaxInclusiveAmount). */
  payable: { amount: string | null; prepaid: string | null; rounding: string | null };
}

/** A document-level AllowanceCharge as stated. */
interface Charge {
  indicator: string | null;
  amount: string | null;
  /** MultiplierFactorNumeric: the percent of BaseAmount. */
  percent: string | null;
  base: string | null;
  vatRate: string | null;
  reason: string | null;
  code: string | null;
}

function emptyParty(): Party {
  return { ids: [], legalName: null, name: null };
}

/** `12.30` → `-12.30` and back (a CreditNote's amounts are positive in UBL; Kulu's credits are negative). */
function negate(text: string): string {
  const t = text.trim();
  if (t.startsWith('-')) return t.slice(1);
  if (t.startsWith('+')) return `-${t.slice(1)}`;
  return /^0*(?:[.,]0*)?$/.test(t) ? t : `-${t}`;
}

/** The namespace an element's prefix (or the default namespace) is bound to on the element itself. */
function namespaceOf(name: string, reader: XmlReader): string {
  const colon = name.indexOf(':');
  return reader.attribute(colon < 0 ? 'xmlns' : `xmlns:${name.slice(0, colon)}`) ?? '';
}

/**
 * An element's name without its prefix (`cbc:Note` → `Note`). The scanner gives each name as one
 * string, so each is cut once (at most LOCAL_NAMES_KEPT kept): the same local name string element
 * after element, not a new one per element (a 28 MB file has a million of them).
 */
function localName(name: string): string {
  let local = LOCAL_NAMES.get(name);
  if (local === undefined) {
    const colon = name.indexOf(':');
    local = colon < 0 ? name : name.slice(colon + 1);
    if (LOCAL_NAMES.size < LOCAL_NAMES_KEPT) LOCAL_NAMES.set(name, local);
  }
  return local;
}

const LOCAL_NAMES = new Map<string, string>();
const LOCAL_NAMES_KEPT = 2000;

function notPeppol(what: string): PeppolError {
  return new PeppolError('not_peppol', `not a Peppol invoice: ${what}`);
}

/** The root of the UBL document: an Invoice or a CreditNote in its UBL namespace, else refused. */
function documentKind(name: string, reader: XmlReader): Kind {
  const local = localName(name);
  const ns = namespaceOf(name, reader);
  if (local === 'Invoice' && ns === UBL_INVOICE_NAMESPACE) return 'invoice';
  if (local === 'CreditNote' && ns === UBL_CREDIT_NOTE_NAMESPACE) return 'creditNote';
  if (local === 'Finvoice') throw notPeppol(`it is a Finvoice e-invoice (root <${name}>)`);
  if (ns.startsWith(UBL_NAMESPACE_PREFIX)) {
    throw notPeppol(`it is a UBL ${local} (root <${name}> in ${ns}); Kulu reads Invoice and CreditNote`);
  }
  throw notPeppol(
    `its root element <${name}> is ${ns ? `in ${ns}` : 'in no namespace'}, not a UBL 2.1 Invoice or CreditNote`,
  );
}

/**
 * Reads the UBL elements Kulu needs: the rows go to `onRow` as they are read (the document's
 * header, totals included, comes before its lines in UBL), `onFirstRow` is called before the first.
 */
function readDocument(
  bytes: Uint8Array,
  doc: Document,
  onFirstRow: () => void,
  onRow: (row: EInvoiceRow) => void,
): void {
  const rootName = xmlRootOf(bytes)?.name ?? 'Invoice';
  // the UBL document's depth: 1, or 2 inside a Peppol StandardBusinessDocument frame
  let base = 1;
  let frame = false;
  let documents = 0;
  // the path below the UBL root, by local name: path[0] a child of the root
  const path: string[] = [];
  let row: EInvoiceRow | null = null;
  let lineCount = 0;
  let lineElement = '';
  let unitCode = '';
  let scheme = '';
  let party: Party | null = null;
  let charge: Charge | null = null;
  let subtotal: Document['vat'][number] | null = null;
  let ignored = 0; // depth of an ignored subtree (UBLExtensions, the SBDH), 0: none

  readXml(bytes, rootName, {
    open(name, depth, reader) {
      if (ignored) return;
      if (
        depth === 1 &&
        localName(name) === 'StandardBusinessDocument' &&
        namespaceOf(name, reader) === SBDH_NAMESPACE
      ) {
        base = 2;
        frame = true;
        return;
      }
      if (depth === base && frame && localName(name) === 'StandardBusinessDocumentHeader') {
        ignored = depth;
        return;
      }
      if (depth === base) {
        if (documents++)
          throw notPeppol('the frame holds more than one document; Kulu reads one invoice per file');
        doc.kind = documentKind(name, reader);
        return;
      }
      if (depth < base) return;
      const local = localName(name);
      const rel = depth - base; // 1: a child of the UBL root
      path[rel - 1] = local;
      if (local.endsWith('Amount')) {
        const currency = reader.attribute('currencyID');
        // named in a refusal: never more than an id's length
        if (currency !== undefined) doc.currencies.add(currency.trim().slice(0, TEXT_LIMITS.id));
      }
      if (rel === 1) {
        if (local === 'InvoiceLine' || local === 'CreditNoteLine') {
          if (++lineCount > MAX_PEPPOL_LINES) {
            throw new XmlReadError(
              'xml_too_large',
              `the Peppol file has more than ${MAX_PEPPOL_LINES} invoice lines`,
            );
          }
          if (lineCount === 1) onFirstRow();
          lineElement = local;
          row = emptyRow(lineCount);
        } else if (local === 'UBLExtensions') ignored = depth;
        else if (local === 'AllowanceCharge') {
          charge = {
            indicator: null,
            amount: null,
            percent: null,
            base: null,
            vatRate: null,
            reason: null,
            code: null,
          };
          doc.charges.push(charge);
        }
        return;
      }
      if (row) {
        if (rel === 2 && (local === 'InvoicedQuantity' || local === 'CreditedQuantity')) {
          unitCode = reader.attribute('unitCode')?.trim() ?? '';
        }
        return;
      }
      const top = path[0];
      if (rel === 2 && (top === 'AccountingSupplierParty' || top === 'AccountingCustomerParty')) {
        party = local === 'Party' ? (top === 'AccountingSupplierParty' ? doc.seller : doc.buyer) : null;
      } else if (party && (local === 'EndpointID' || local === 'ID' || local === 'CompanyID')) {
        // an attribute (no element limit): a scheme is short, and may be named in a refusal
        scheme = reader.attribute('schemeID')?.trim().slice(0, TEXT_LIMITS.id) ?? '';
      } else if (rel === 2 && top === 'TaxTotal' && local === 'TaxSubtotal') {
        subtotal = { base: null, rate: null, amount: null };
        doc.vat.push(subtotal);
      }
    },

    close(name, depth, reader) {
      if (ignored) {
        if (depth === ignored) ignored = 0;
        return;
      }
      if (depth <= base) return;
      const rel = depth - base;
      const local = path[rel - 1];
      if (row) {
        if (rel === 1) {
          onRow(row);
          row = null;
          return;
        }
        readLineField(row, local, rel, path, reader, unitCode, lineElement);
        return;
      }
      if (rel === 1) {
        if (local === 'AllowanceCharge') charge = null;
        else readRootField(doc, local, reader);
        return;
      }
      const top = path[0];
      const parent = path[rel - 2];
      if (top === 'AccountingSupplierParty' || top === 'AccountingCustomerParty') {
        if (party) readPartyField(party, local, parent, rel, scheme, reader);
        if (rel === 2 && local === 'Party') party = null;
        return;
      }
      if (top === 'PaymentMeans' && rel === 2) {
        if (local === 'PaymentDueDate') doc.paymentDueDate ??= elementText(reader, 'PaymentDueDate');
        else if (local === 'PaymentID') doc.paymentId ??= elementText(reader, 'PaymentID');
      } else if (top === 'AllowanceCharge' && charge) {
        readChargeField(charge, local, parent, rel, reader);
      } else if (top === 'TaxTotal') {
        if (rel === 2 && local === 'TaxAmount') doc.taxAmount ??= elementText(reader, 'TaxTotal/TaxAmount');
        else if (subtotal) readSubtotalField(subtotal, local, parent, rel, reader);
        if (rel === 2 && local === 'TaxSubtotal') subtotal = null;
      } else if (top === 'LegalMonetaryTotal' && rel === 2) {
        if (local === 'TaxExclusiveAmount') doc.taxExclusive = elementText(reader, local);
        else if (local === 'TaxInclusiveAmount') doc.taxInclusive = elementText(reader, local);
        else if (local === 'PayableAmount') doc.payable.amount = elementText(reader, local);
        else if (local === 'PrepaidAmount') doc.payable.prepaid = elementText(reader, local);
        else if (local === 'PayableRoundingAmount') doc.payable.rounding = elementText(reader, local);
      }
    },
  });
  if (frame && !documents) throw notPeppol('its StandardBusinessDocument frame holds no UBL invoice');
}

function readRootField(doc: Document, local: string, reader: XmlReader): void {
  switch (local) {
    case 'CustomizationID':
      doc.customizationId = elementText(reader, local);
      break;
    case 'ID':
      doc.id = elementText(reader, local);
      break;
    case 'IssueDate':
      doc.issueDate = elementText(reader, local);
      break;
    case 'DueDate':
      doc.dueDate = elementText(reader, local);
      break;
    case 'InvoiceTypeCode':
    case 'CreditNoteTypeCode':
      doc.typeCode = elementText(reader, local);
      break;
    case 'DocumentCurrencyCode':
      doc.currency = elementText(reader, local);
      break;
    case 'TaxCurrencyCode':
      doc.currencies.add(elementText(reader, local));
      break;
    case 'BuyerReference':
      doc.buyerReference = elementText(reader, local);
      break;
  }
}

function readPartyField(
  party: Party,
  local: string,
  parent: string,
  rel: number,
  scheme: string,
  reader: XmlReader,
): void {
  // rel 3: a child of Party; rel 4: a child of PartyIdentification, PartyName, PartyTaxScheme, PartyLegalEntity
  if (rel === 3 && local === 'EndpointID') party.ids.push({ scheme, value: elementText(reader, local) });
  else if (rel !== 4) return;
  else if (parent === 'PartyIdentification' && local === 'ID')
    party.ids.push({ scheme, value: elementText(reader, 'PartyIdentification/ID') });
  else if (parent === 'PartyLegalEntity' && local === 'CompanyID')
    party.ids.unshift({ scheme, value: elementText(reader, 'PartyLegalEntity/CompanyID') });
  else if (parent === 'PartyTaxScheme' && local === 'CompanyID')
    party.ids.push({ scheme: '', value: elementText(reader, 'PartyTaxScheme/CompanyID') });
  else if (parent === 'PartyLegalEntity' && local === 'RegistrationName')
    party.legalName ??= elementText(reader, 'RegistrationName');
  else if (parent === 'PartyName' && local === 'Name') party.name ??= elementText(reader, 'PartyName/Name');
}

function readChargeField(
  charge: Charge,
  local: string,
  parent: string,
  rel: number,
  reader: XmlReader,
): void {
  if (rel === 2) {
    if (local === 'ChargeIndicator') charge.indicator = elementText(reader, local);
    else if (local === 'Amount') charge.amount = elementText(reader, 'AllowanceCharge/Amount');
    else if (local === 'AllowanceChargeReason') charge.reason = elementText(reader, local) || null;
    else if (local === 'AllowanceChargeReasonCode') charge.code = elementText(reader, local) || null;
    else if (local === 'MultiplierFactorNumeric') charge.percent = elementText(reader, local);
    else if (local === 'BaseAmount') charge.base = elementText(reader, 'AllowanceCharge/BaseAmount');
  } else if (rel === 3 && parent === 'TaxCategory' && local === 'Percent') {
    charge.vatRate = elementText(reader, 'AllowanceCharge/TaxCategory/Percent');
  }
}

function readSubtotalField(
  subtotal: Document['vat'][number],
  local: string,
  parent: string,
  rel: number,
  reader: XmlReader,
): void {
  if (rel === 3 && local === 'TaxableAmount') subtotal.base = elementText(reader, 'TaxableAmount');
  else if (rel === 3 && local === 'TaxAmount') subtotal.amount = elementText(reader, 'TaxSubtotal/TaxAmount');
  else if (rel === 4 && parent === 'TaxCategory' && local === 'Percent')
    subtotal.rate = elementText(reader, 'TaxSubtotal/TaxCategory/Percent');
}

function readLineField(
  row: EInvoiceRow,
  local: string,
  rel: number,
  path: string[],
  reader: XmlReader,
  unitCode: string,
  lineElement: string,
): void {
  if (rel === 2) {
    switch (local) {
      case 'Note': {
        const text = elementText(reader, 'Note', lineElement, row.index);
        if (text) row.freeTexts.push(text);
        break;
      }
      case 'InvoicedQuantity':
      case 'CreditedQuantity':
        row.quantities.push({
          value: elementText(reader, local, lineElement, row.index),
          unit: '',
          unitUN: unitCode,
        });
        break;
      case 'LineExtensionAmount':
        row.vatExcluded = elementText(reader, 'LineExtensionAmount', lineElement, row.index);
        break;
      case 'AccountingCost':
        row.accountDimension = elementText(reader, 'AccountingCost', lineElement, row.index) || null;
        break;
    }
    return;
  }
  const parent = path[rel - 2];
  if (rel === 3) {
    if (parent === 'InvoicePeriod' && local === 'StartDate') row.startDate = elementText(reader, local);
    else if (parent === 'InvoicePeriod' && local === 'EndDate') row.endDate = elementText(reader, local);
    else if (parent === 'Item' && local === 'Name')
      row.articleName = elementText(reader, 'Item/Name', lineElement, row.index);
    else if (parent === 'Price' && local === 'PriceAmount') row.unitPrice = elementText(reader, local);
  } else if (rel === 4 && path[1] === 'Item' && parent === 'ClassifiedTaxCategory' && local === 'Percent') {
    row.vatRate = elementText(reader, 'ClassifiedTaxCategory/Percent', lineElement, row.index);
  }
}

// ---- the identity checks: format, version, type, seller, currency

const TYPE_CODES: Record<Kind, string> = { invoice: '380', creditNote: '381' };

/** The operator that sent the document, after every check of who sent what; refused otherwise. */
function identify(doc: Document): 'elisa' | 'telia' | 'dna' {
  if (!doc.kind) throw notPeppol('no UBL Invoice or CreditNote root element');
  const version = doc.customizationId;
  if (!version || !version.startsWith(EN16931)) {
    throw new PeppolError(
      'peppol_unsupported_version',
      version
        ? `unsupported CustomizationID "${version}" (Kulu reads Peppol BIS Billing 3.0 and other EN 16931 invoices: ${PEPPOL_BIS3})`
        : `the Peppol invoice has no CustomizationID (Kulu reads Peppol BIS Billing 3.0: ${PEPPOL_BIS3})`,
    );
  }
  const element = doc.kind === 'invoice' ? 'InvoiceTypeCode' : 'CreditNoteTypeCode';
  if (doc.typeCode !== TYPE_CODES[doc.kind]) {
    throw new PeppolError(
      'peppol_unsupported_type',
      doc.typeCode
        ? `unsupported ${element} ${doc.typeCode} (Kulu reads invoices, 380, and credit notes, 381)`
        : `the Peppol ${doc.kind === 'invoice' ? 'invoice' : 'credit note'} has no ${element}`,
    );
  }
  let sellerId: string | null = null;
  for (const id of doc.seller.ids) {
    const businessId = businessIdOf(id);
    if (businessId && OPERATOR_BUSINESS_IDS[businessId])
      return checkCurrency(doc, OPERATOR_BUSINESS_IDS[businessId]);
    sellerId ??= businessId;
  }
  const name = doc.seller.legalName ?? doc.seller.name;
  const shown = sellerId ?? (doc.seller.ids[0] ? idText(doc.seller.ids[0]) : null);
  throw new PeppolError(
    'peppol_unknown_seller',
    `the seller ${name ?? 'of the invoice'}${shown ? ` (${shown})` : ''} is not an operator Kulu reads (${OPERATORS_TEXT})`,
  );
}

function idText(id: PartyId): string {
  return id.scheme ? `${id.scheme}:${id.value}` : id.value;
}

function checkCurrency<T>(doc: Document, operator: T): T {
  const stated = [doc.currency ?? '', ...doc.currencies].map((c) => c.trim()).filter((c) => c !== 'EUR');
  if (!doc.currency || stated.length) {
    throw new PeppolError(
      'peppol_unsupported_currency',
      doc.currency
        ? `the Peppol invoice is in ${[...new Set(stated)].join(', ')}; Kulu reads EUR invoices`
        : 'the Peppol invoice has no DocumentCurrencyCode (Kulu reads EUR invoices)',
    );
  }
  return operator;
}

// ---- the invoice

/**
 * Peppol BIS Billing 3.0 bytes → a reconciled ParsedInvoice (synchronous). Throws an InvoiceError
 * subclass on any bad input: XmlReadError, PeppolError, MalformedInvoiceError, ReconciliationError,
 * TextTooLongError.
 */
export function parsePeppol(bytes: Uint8Array): ParsedInvoice {
  const doc: Document = {
    kind: null,
    customizationId: null,
    typeCode: null,
    id: null,
    issueDate: null,
    dueDate: null,
    paymentDueDate: null,
    currency: null,
    currencies: new Set(),
    buyerReference: null,
    paymentId: null,
    seller: emptyParty(),
    buyer: emptyParty(),
    charges: [],
    taxAmount: null,
    vat: [],
    taxExclusive: null,
    taxInclusive: null,
    payable: { amount: null, prepaid: null, rounding: null },
  };
  const builder = new EInvoiceBuilder(PEPPOL_FORMAT);
  let credit = false;
  readDocument(
    bytes,
    doc,
    () => {
      // the header is read: who sent what is judged before any line is
      identify(doc);
      credit = doc.kind === 'creditNote';
      builder.invoiceDate(doc.issueDate);
    },
    (row) => {
      // a line without its (mandatory) amount is refused as such, not read as a heading
      row.vatExcluded ??= '';
      if (credit) {
        if (row.vatExcluded !== '') row.vatExcluded = negate(row.vatExcluded);
        if (row.unitPrice !== null) row.unitPrice = negate(row.unitPrice);
      }
      builder.add(row);
    },
  );
  const operator = identify(doc);
  builder.invoiceDate(doc.issueDate);
  return builder.finish(headerOf(doc, operator));
}

/**
 * Without a TaxInclusiveAmount (mandatory in BIS 3, so rare): the amount due plus what was paid in
 * advance, less the rounding of the amount due (EN 16931: BT-115 = BT-112 − BT-113 + BT-114). Null
 * when not all of them read as amounts (the builder then says the total is missing).
 */
function inclusiveFromPayable(payable: Document['payable']): string | null {
  if (payable.amount === null) return null;
  const value = (text: string | null) => (text === null ? 0 : parseAmount(text));
  const [amount, prepaid, rounding] = [
    value(payable.amount),
    value(payable.prepaid),
    value(payable.rounding),
  ];
  if (amount === null || prepaid === null || rounding === null) return payable.amount;
  const total = amount + prepaid - rounding;
  const unit = 10 ** SCALE;
  const text = `${Math.floor(Math.abs(total) / unit)}.${String(Math.abs(total) % unit).padStart(SCALE, '0')}`;
  return total < 0 ? `-${text}` : text;
}

function headerOf(doc: Document, operator: string): EInvoiceHeader {
  const sign = doc.kind === 'creditNote' ? negate : (t: string) => t;
  const signed = (t: string | null) => (t === null ? null : sign(t));
  const buyerNumber = doc.buyer.ids.find((id) => !id.scheme && !businessIdOf(id))?.value;
  return {
    operator,
    invoiceNumber: doc.id,
    invoiceDate: doc.issueDate,
    dueDate: doc.dueDate ?? doc.paymentDueDate,
    dueDateFallback: null,
    customerNumber: buyerNumber ?? doc.buyerReference ?? '',
    customerName: doc.buyer.legalName ?? doc.buyer.name ?? '',
    businessId: firstBusinessId(doc.buyer.ids) ?? null,
    referenceNumber: (doc.paymentId ?? '').replace(/\s/g, ''),
    totalExcl: signed(doc.taxExclusive),
    totalVat: signed(doc.taxAmount),
    totalIncl: signed(doc.taxInclusive ?? inclusiveFromPayable(doc.payable)),
    vat: doc.vat.map((v) => ({ base: signed(v.base), rate: v.rate, amount: signed(v.amount) })),
    charges: doc.charges.map((c) => ({
      kind: c.indicator?.trim() === 'true' || c.indicator?.trim() === '1' ? 'charge' : 'discount',
      amount: signed(c.amount),
      percent: c.percent,
      base: signed(c.base),
      vatRate: c.vatRate,
      reason: c.reason ?? c.code,
    })),
    origin: 'original',
    originalInvoiceNumber: null,
  };
}
