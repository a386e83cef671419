/**
 * Writes the same seeded, realistic invoice as the PDF and Finvoice generators (buildModel) as a
 * Peppol BIS Billing 3.0 e-invoice (UBL 2.1 `Invoice`, or `CreditNote`), and returns the
 * ParsedInvoice that parsing it must give (docs/decisions/0030-peppol.md).
 *
 * How a line names its subscription (UBL has no field for it; every line has an amount, so there
 * are no heading rows): `note` — the number and the user in the line's `Note` (Elisa, DNA);
 * `itemName` — the number at the start of `Item/Name`, the user in `Note` (Telia). The cost center
 * is the line's `AccountingCost`. Amounts are written as the model has them whether invoice or
 * credit note (a CreditNote states the credited amounts positive), so the credit note's expected
 * invoice is the invoice's negated, as a Finvoice INV02's is.
 */
import { formatPhone, formatScaled } from '../finnish.js';
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice } from '../types.js';
import { FINVOICE_SELLERS } from './finvoice.js';
import {
  invoiceHeadOf,
  lineVatTenths,
  seededModel,
  withInvoiceCharges,
  withMixedVat,
  withOddUnits,
  type ModelLine,
  type ModelSubscription,
} from './model.js';
import { expectedChargeLine, expectedVat } from './expected-vat.js';
import { Random } from './random.js';

export type PeppolRowStyle = 'note' | 'itemName';
/**
 * How the XML names its namespaces: `bis` as the BIS examples (the document's namespace as the
 * default, `cac:`/`cbc:` prefixes), `ubl` (every element prefixed, `ubl:Invoice`), `jaxb` (as
 * Java binders write it: `ns4:Invoice`, `ns2:` for aggregates, basic components unprefixed).
 */
export type PeppolNamespaces = 'bis' | 'ubl' | 'jaxb';
/** Which identifiers name the seller: all (default), or only one of them. */
export type PeppolSellerIds = 'all' | 'ovt' | 'businessId' | 'vat';

export interface PeppolOptions {
  /** `elisa`, `telia` or `dna`. */
  operator: string;
  subscriptions: number;
  /** Same seed, same invoice (default 1). */
  seed?: number;
  /** Invoice date (ISO); default by seed. */
  invoiceDate?: string;
  costCenters?: boolean;
  tripsOutsideEu?: number;
  abroad?: 'frequent' | 'business';
  /** The buyer (name and business id); default by seed. A null business id writes none. */
  buyer?: { name?: string; businessId: string | null };
  /** A UBL CreditNote (381) instead of an Invoice (380). */
  creditNote?: boolean;
  /** Default: the operator's own (elisa, dna `note`; telia `itemName`). */
  rowStyle?: PeppolRowStyle;
  /** Default `bis`. */
  namespaces?: PeppolNamespaces;
  /** Default `all`: EndpointID (0216 OVT), PartyTaxScheme (VAT FI…), PartyLegalEntity (0037). */
  sellerIds?: PeppolSellerIds;
  /** Another seller than the operator (a non-operator), with the operator's lines. */
  seller?: { name: string; businessId: string };
  /** Invoice-level discounts and charges as document-level AllowanceCharge (model.ts withInvoiceCharges). */
  invoiceCharges?: boolean;
  /** Some lines at 14 %, 10 % and 0 %, a TaxSubtotal per rate (model.ts withMixedVat). */
  mixedVat?: boolean;
  /** Lines in units Kulu does not convert (MON, DAY, ZZ, KGM, HUR on a service, none) and a call in hours (model.ts withOddUnits). */
  oddUnits?: boolean;
  /** In a Peppol StandardBusinessDocument (SBDH) transport frame, as an access point delivers it. */
  frame?: boolean;
  /** `subscription` (default by seed) or `section`: fees, usage, one-offs; a subscription's lines not adjacent. */
  grouping?: 'subscription' | 'section';
  /** The document currency (default EUR); for refusal tests. */
  currency?: string;
}

export interface GeneratedPeppol {
  xml: Uint8Array;
  expected: ParsedInvoice;
  layout: {
    operator: string;
    seed: number;
    creditNote: boolean;
    rowStyle: PeppolRowStyle;
    namespaces: PeppolNamespaces;
    sellerIds: PeppolSellerIds;
    invoiceCharges: boolean;
    mixedVat: boolean;
    oddUnits: boolean;
    frame: boolean;
    grouping: 'subscription' | 'section';
  };
}

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  sbdh: 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader',
};
const CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** An integer scaled by 10^scale as a UBL decimal (`-12.30`). */
const dec = (value: number, scale: number) => formatScaled(value, scale, { thousands: '' }).replace(',', '.');
const toNumber = (value: number, scale: number) => Number((value / 10 ** scale).toFixed(scale));
const neg = (v: number) => (v === 0 ? 0 : -v);
const minutesHundredths = (seconds: number) => Math.floor((seconds * 10 + 3) / 6);

/**
 * The UN/ECE Rec 20 code a UBL file states for the model's odd units (`ModelLine.stated`; UBL has no
 * free-text unit): `pv`, `vrk`, `D` are days, `KG` is KGM; none stays none (no unitCode).
 */
const UBL_UNIT: Record<string, string> = {
  MON: 'MON',
  pv: 'DAY',
  DAY: 'DAY',
  vrk: 'DAY',
  ZZ: 'ZZ',
  KG: 'KGM',
  D: 'DAY',
  h: 'HUR',
  '': '',
};

function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
}

/** Generates a Peppol BIS 3 file and the structured invoice that parsing it must give (synchronous). */
export function generatePeppol(options: PeppolOptions): GeneratedPeppol {
  const operator = FINVOICE_SELLERS[options.operator.toLowerCase()];
  if (!operator) {
    throw new Error(
      `unknown operator "${options.operator}" (known: ${Object.keys(FINVOICE_SELLERS).join(', ')})`,
    );
  }
  const { model, seed } = seededModel(operator.id, options);
  if (options.oddUnits) withOddUnits(model, seed);
  if (options.mixedVat) withMixedVat(model, seed);
  if (options.invoiceCharges) withInvoiceCharges(model, seed);
  const style = new Random(seed * 7907 + 31);
  const creditNote = options.creditNote ?? false;
  const rowStyle = options.rowStyle ?? (operator.id === 'telia' ? 'itemName' : 'note');
  const namespaces = options.namespaces ?? 'bis';
  const sellerIds = options.sellerIds ?? 'all';
  const invoiceCharges = options.invoiceCharges ?? false;
  const frame = options.frame ?? false;
  const grouping = options.grouping ?? (style.chance(0.4) ? 'section' : 'subscription');
  const compactNumbers = style.chance(0.3);
  const seller = { ...operator, ...(options.seller ?? {}) };
  const currency = options.currency ?? 'EUR';
  const sign = (v: number) => (creditNote ? neg(v) : v);

  // element writers for the chosen prefixes
  const [rootPrefix, cacPrefix, cbcPrefix] =
    namespaces === 'ubl'
      ? ['ubl:', 'cac:', 'cbc:']
      : namespaces === 'jaxb'
        ? ['ns4:', 'ns2:', '']
        : ['', 'cac:', 'cbc:'];
  const b = (name: string, text: string, attrs = '') =>
    `<${cbcPrefix}${name}${attrs}>${esc(text)}</${cbcPrefix}${name}>`;
  const a = (name: string, ...children: string[]) =>
    `<${cacPrefix}${name}>${children.join('')}</${cacPrefix}${name}>`;
  const eur = (name: string, cents: number) => b(name, dec(cents, 2), ` currencyID="${currency}"`);
  const vatCategory = (element: string, tenths: number) =>
    a(
      element,
      b('ID', tenths ? 'S' : 'Z'),
      b('Percent', dec(tenths, 1).replace(/\.0$/, '')),
      a('TaxScheme', b('ID', 'VAT')),
    );
  // the bases per VAT rate (tenths of a percent → cents, as written)
  const bases = new Map<number, number>();
  const addBase = (tenths: number, cents: number) => bases.set(tenths, (bases.get(tenths) ?? 0) + cents);

  const phoneText = (phone: string) =>
    rowStyle === 'itemName'
      ? compactNumbers
        ? phone
        : formatPhone(phone, 'international')
      : compactNumbers
        ? formatPhone(phone, 'national').replaceAll(' ', '')
        : formatPhone(phone, 'national');

  // ---- lines
  const lineElement = creditNote ? 'CreditNoteLine' : 'InvoiceLine';
  const quantityElement = creditNote ? 'CreditedQuantity' : 'InvoicedQuantity';
  const lines: string[] = [];
  const subs = new Map<string, InvoiceSubscription & { cents: number }>();
  const otherLines: InvoiceLine[] = [];
  let lineCents = 0;
  let lineCount = 0;

  const writeLine = (line: ModelLine, sub: ModelSubscription | null) => {
    let quantity: { value: string; unit: string };
    let expectedQ: Pick<InvoiceLine, 'count' | 'quantity' | 'unit' | 'unitCode'>;
    if (line.stated) {
      const unit = UBL_UNIT[line.stated.unit] ?? line.stated.unit;
      quantity = { value: dec(line.stated.hundredths, 2), unit };
      expectedQ =
        line.category === 'voice' && unit === 'HUR'
          ? { count: null, quantity: toNumber(line.stated.hundredths * 60, 2), unit: 'min' }
          : { count: null, quantity: toNumber(line.stated.hundredths, 2), unit: 'other', unitCode: unit };
    } else if (line.seconds !== undefined) {
      const h = minutesHundredths(line.seconds);
      quantity =
        seller.id === 'elisa'
          ? { value: String(line.seconds), unit: 'SEC' }
          : { value: dec(h, 2), unit: 'MIN' };
      expectedQ = { count: null, quantity: toNumber(h, 2), unit: 'min' };
    } else if (line.mbTenths !== undefined) {
      quantity =
        line.gbTenths !== undefined && seller.id !== 'elisa'
          ? { value: dec(line.gbTenths, 1), unit: 'E34' }
          : { value: dec(line.mbTenths, 1), unit: '4L' };
      expectedQ = { count: null, quantity: toNumber(line.mbTenths, 1), unit: 'mb' };
    } else {
      // a negative line (a credit) is a negative quantity at a positive price (BIS: no negative prices)
      const pieces = (line.pieces ?? 1) * (line.amountCents < 0 ? -1 : 1);
      quantity = { value: String(pieces), unit: 'C62' };
      expectedQ = { count: null, quantity: pieces, unit: 'pcs' };
    }
    const price = Math.abs(line.unitPriceCents ?? 0);
    const tenths = lineVatTenths(model, line);
    addBase(tenths, line.amountCents);
    const name = sub && rowStyle === 'itemName' ? `${phoneText(sub.phone)} ${line.label}` : line.label;
    const note = !sub ? null : rowStyle === 'note' ? `${phoneText(sub.phone)} ${sub.userName}` : sub.userName;
    lines.push(
      `<${cacPrefix}${lineElement}>`,
      b('ID', String(++lineCount)),
      note ? b('Note', note) : '',
      b(quantityElement, quantity.value, quantity.unit ? ` unitCode="${quantity.unit}"` : ''),
      eur('LineExtensionAmount', line.amountCents),
      sub?.costCenter ? b('AccountingCost', sub.costCenter.code) : '',
      line.period ? a('InvoicePeriod', b('StartDate', line.period.start), b('EndDate', line.period.end)) : '',
      a(
        'Item',
        b('Name', name),
        a('SellersItemIdentification', b('ID', `${seller.code}-${productCode(line.label)}`)),
        vatCategory('ClassifiedTaxCategory', tenths),
      ),
      a('Price', eur('PriceAmount', price)),
      `</${cacPrefix}${lineElement}>`,
    );
    lineCents += line.amountCents;
    const expected: InvoiceLine = {
      label: line.label,
      category: line.category,
      region: line.region,
      periodStart: line.period?.start ?? null,
      periodEnd: line.period?.end ?? null,
      ...expectedQ,
      unitPrice: toNumber(sign(price), 2),
      amount: toNumber(sign(line.amountCents), 2),
      vatRate: tenths / 10,
    };
    if (!sub) {
      otherLines.push(expected);
      return;
    }
    let parsed = subs.get(sub.phone);
    if (!parsed) {
      parsed = {
        phoneNumber: sub.phone,
        userName: sub.userName,
        costCenter: sub.costCenter?.code ?? null,
        total: 0,
        lines: [],
        cents: 0,
      };
      subs.set(sub.phone, parsed);
    }
    parsed.lines.push(expected);
    parsed.cents += sign(line.amountCents);
  };

  const sections: ((l: ModelLine) => boolean)[] =
    grouping === 'section'
      ? [
          (l) => l.kind === 'fee',
          (l) => l.kind !== 'fee' && l.kind !== 'oneOff' && l.kind !== 'credit',
          (l) => l.kind === 'oneOff' || l.kind === 'credit',
        ]
      : [() => true];
  for (const inSection of sections) {
    for (const sub of model.subscriptions)
      for (const line of sub.lines.filter(inSection)) writeLine(line, sub);
  }
  for (const line of model.otherLines) writeLine(line, null);
  // invoice-level discounts and charges: document-level AllowanceCharge
  const allowanceCharges: string[] = [];
  let allowances = 0;
  let charges = 0;
  // (discounts first, as the Finvoice file of the same invoice lists them)
  const modelCharges = [...(model.charges ?? [])].sort(
    (x, y) => Number(x.kind === 'charge') - Number(y.kind === 'charge'),
  );
  for (const c of modelCharges) {
    const charge = c.kind === 'charge';
    if (charge) charges += c.amountCents;
    else allowances += c.amountCents;
    addBase(c.vatTenths, charge ? c.amountCents : -c.amountCents);
    allowanceCharges.push(
      a(
        'AllowanceCharge',
        b('ChargeIndicator', String(charge)),
        b('AllowanceChargeReason', c.reason),
        eur('Amount', c.amountCents),
        vatCategory('TaxCategory', c.vatTenths),
      ),
    );
    otherLines.push(
      expectedChargeLine(c.reason, c.kind, sign(charge ? c.amountCents : -c.amountCents), c.vatTenths),
    );
  }
  // as parsed (a credit note's negated): VAT per rate, base × rate rounded once per rate
  const parsed = expectedVat(new Map([...bases].map(([tenths, cents]) => [tenths, sign(cents)])));
  const totalExcl = lineCents - allowances + charges;
  const vat = sign(parsed.vat);

  const expected: ParsedInvoice = {
    operator: seller.id,
    ...invoiceHeadOf(model),
    ...parsed.head,
    totalExclVat: toNumber(parsed.totalExcl, 2),
    vatAmount: toNumber(parsed.vat, 2),
    totalInclVat: toNumber(parsed.totalExcl + parsed.vat, 2),
    subscriptions: [...subs.values()].map(({ cents, ...sub }) => ({ ...sub, total: toNumber(cents, 2) })),
    otherLines,
  };

  // ---- the document
  const party = (
    element: string,
    endpoint: [string, string],
    ids: string[],
    name: string,
    legal: string[],
    tax: string | null,
    address: string[],
  ) =>
    a(
      element,
      a(
        'Party',
        b('EndpointID', endpoint[1], ` schemeID="${endpoint[0]}"`),
        ...ids,
        a('PartyName', b('Name', name)),
        a('PostalAddress', ...address, a('Country', b('IdentificationCode', 'FI'))),
        tax ? a('PartyTaxScheme', b('CompanyID', tax), a('TaxScheme', b('ID', 'VAT'))) : '',
        a('PartyLegalEntity', b('RegistrationName', name), ...legal),
      ),
    );
  const digits = (businessId: string) => businessId.replace('-', '');
  const sellerEndpoint: [string, string] =
    sellerIds === 'businessId'
      ? ['0037', digits(seller.businessId)]
      : sellerIds === 'vat'
        ? ['EM', `laskutus@${seller.id}.example`]
        : ['0216', `0037${digits(seller.businessId)}`];
  const [street, postTown] = model.customerAddress;
  const [buyerPostCode, ...buyerTown] = postTown.split(' ');
  const ownMonth = model.invoiceDate.slice(0, 8);
  const [y, m] = model.invoiceDate.split('-').map(Number);
  const monthEnd = `${ownMonth}${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
  const root = `${rootPrefix}${creditNote ? 'CreditNote' : 'Invoice'}`;
  const rootNs = creditNote ? NS.creditNote : NS.invoice;
  const xmlns =
    namespaces === 'ubl'
      ? `xmlns:ubl="${rootNs}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}"`
      : namespaces === 'jaxb'
        ? `xmlns="${NS.cbc}" xmlns:ns2="${NS.cac}" xmlns:ns4="${rootNs}"`
        : `xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}" xmlns="${rootNs}"`;
  const doc = [
    `<${root} ${xmlns}>`,
    b('CustomizationID', CUSTOMIZATION),
    b('ProfileID', PROFILE),
    b('ID', model.invoiceNumber),
    b('IssueDate', model.invoiceDate),
    creditNote ? '' : b('DueDate', model.dueDate),
    creditNote ? b('CreditNoteTypeCode', '381') : b('InvoiceTypeCode', '380'),
    b('Note', 'Hinnat euroina (€). Kiitos, että käytät palvelujamme.'),
    b('DocumentCurrencyCode', currency),
    b('BuyerReference', model.customerNumber),
    a('InvoicePeriod', b('StartDate', `${ownMonth}01`), b('EndDate', monthEnd)),
    creditNote
      ? a('BillingReference', a('InvoiceDocumentReference', b('ID', `${model.invoiceNumber.slice(0, -1)}0`)))
      : '',
    party(
      'AccountingSupplierParty',
      sellerEndpoint,
      [],
      seller.name,
      sellerIds === 'all' || sellerIds === 'businessId'
        ? [b('CompanyID', seller.businessId, ' schemeID="0037"')]
        : [],
      sellerIds === 'all' || sellerIds === 'vat' ? `FI${digits(seller.businessId)}` : null,
      [b('StreetName', seller.street), b('CityName', seller.town), b('PostalZone', seller.postCode)],
    ),
    party(
      'AccountingCustomerParty',
      model.businessId ? ['0216', `0037${digits(model.businessId)}`] : ['EM', 'laskut@example.invalid'],
      [a('PartyIdentification', b('ID', model.customerNumber))],
      model.customerName,
      model.businessId ? [b('CompanyID', model.businessId, ' schemeID="0037"')] : [],
      model.businessId ? `FI${digits(model.businessId)}` : null,
      [b('StreetName', street), b('CityName', buyerTown.join(' ')), b('PostalZone', buyerPostCode)],
    ),
    a(
      'PaymentMeans',
      b('PaymentMeansCode', '58'),
      creditNote ? b('PaymentDueDate', model.dueDate) : '',
      b('PaymentID', model.referenceNumber),
      a('PayeeFinancialAccount', b('ID', seller.iban), b('Name', seller.name)),
    ),
    a('PaymentTerms', b('Note', '14 pv netto')),
    ...allowanceCharges,
    a(
      'TaxTotal',
      eur('TaxAmount', vat),
      ...parsed.rates.map((r) =>
        a(
          'TaxSubtotal',
          eur('TaxableAmount', sign(r.base)),
          eur('TaxAmount', sign(r.vat)),
          vatCategory('TaxCategory', r.tenths),
        ),
      ),
    ),
    a(
      'LegalMonetaryTotal',
      eur('LineExtensionAmount', lineCents),
      eur('TaxExclusiveAmount', totalExcl),
      eur('TaxInclusiveAmount', totalExcl + vat),
      allowances ? eur('AllowanceTotalAmount', allowances) : '',
      charges ? eur('ChargeTotalAmount', charges) : '',
      eur('PayableAmount', totalExcl + vat),
    ),
    ...lines,
    `</${root}>`,
  ];
  const body = frame ? sbdh(doc, seller.businessId, model.businessId, model.invoiceNumber, creditNote) : doc;
  const text = ['<?xml version="1.0" encoding="UTF-8"?>', ...body.filter(Boolean), ''].join('\n');
  return {
    xml: new Uint8Array(Buffer.from(text, 'utf8')),
    expected,
    layout: {
      operator: seller.id,
      seed,
      creditNote,
      rowStyle,
      namespaces,
      sellerIds,
      invoiceCharges,
      mixedVat: options.mixedVat ?? false,
      oddUnits: options.oddUnits ?? false,
      frame,
      grouping,
    },
  };
}

function productCode(label: string): string {
  let h = 0;
  for (const ch of label) h = (h * 31 + ch.charCodeAt(0)) % 100000;
  return String(h).padStart(5, '0');
}

/** The Peppol transport frame (Standard Business Document Header) around the UBL document. */
function sbdh(
  doc: string[],
  sellerId: string,
  buyerId: string | null,
  invoiceNumber: string,
  creditNote: boolean,
): string[] {
  const ovt = (id: string) => `0216:0037${id.replace('-', '')}`;
  const type = creditNote ? 'CreditNote' : 'Invoice';
  return [
    `<StandardBusinessDocument xmlns="${NS.sbdh}">`,
    '<StandardBusinessDocumentHeader>',
    '<HeaderVersion>1.0</HeaderVersion>',
    `<Sender><Identifier Authority="iso6523-actorid-upis">${ovt(sellerId)}</Identifier></Sender>`,
    `<Receiver><Identifier Authority="iso6523-actorid-upis">${buyerId ? ovt(buyerId) : '0216:003700000000'}</Identifier></Receiver>`,
    '<DocumentIdentification>',
    `<Standard>urn:oasis:names:specification:ubl:schema:xsd:${type}-2</Standard>`,
    '<TypeVersion>2.1</TypeVersion>',
    `<InstanceIdentifier>${invoiceNumber}</InstanceIdentifier>`,
    `<Type>${type}</Type>`,
    '<CreationDateAndTime>2026-01-01T08:00:00Z</CreationDateAndTime>',
    '</DocumentIdentification>',
    '</StandardBusinessDocumentHeader>',
    ...doc,
    '</StandardBusinessDocument>',
  ];
}
