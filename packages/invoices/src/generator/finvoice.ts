/**
 * Writes the same seeded, realistic invoice as the PDF generator (buildModel) as a Finvoice e-invoice
 * (1.3, 2.0, 2.01 or 3.0; UTF-8 or ISO-8859-15; optionally behind a SOAP transport envelope; invoice
 * or credit note) in one operator's row style, and returns the ParsedInvoice that parsing it must give.
 *
 * Row styles (how the operator says which subscription a row belongs to; see
 * docs/decisions/0020-finvoice.md): `freeText` (Elisa: the number and the user in RowFreeText),
 * `articleName` (Telia: the number at the start of ArticleName, the user in RowFreeText; cost-center
 * subtotal blocks), `heading` (DNA: a text row `Numero 040 … – Name` heads the subscription's rows,
 * closed by a SubInvoiceRow subtotal block).
 */
import { formatCents, formatPhone, formatScaled } from '../finnish.js';
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice } from '../types.js';
import {
  invoiceHeadOf,
  lineVatTenths,
  seededModel,
  vatCents,
  withInvoiceCharges,
  withMixedVat,
  withOddUnits,
  type InvoiceModel,
  type ModelLine,
  type ModelSubscription,
} from './model.js';
import { Random } from './random.js';

export type FinvoiceRowStyle = 'freeText' | 'articleName' | 'heading';
export type FinvoiceCharset = 'UTF-8' | 'ISO-8859-15';
export type FinvoiceGeneratorVersion = '1.3' | '2.0' | '2.01' | '3.0';

export interface FinvoiceOptions {
  /** `elisa`, `telia` or `dna`. */
  operator: string;
  subscriptions: number;
  /** Same seed, same invoice (default 1). */
  seed?: number;
  /** Invoice date (ISO); default by seed. VAT 24 % before 2024-09-01, else 25,5 %. */
  invoiceDate?: string;
  /** Whether the customer uses cost centers (Telia always does); default by seed. */
  costCenters?: boolean;
  /** Share of subscriptions roaming outside the EU in a month (`ModelOptions`); default 1. */
  tripsOutsideEu?: number;
  /** How much the phones use abroad (`ModelOptions`): `frequent` (default) or a Finnish company's `business` mix. */
  abroad?: 'frequent' | 'business';
  /** The buyer (name and business id); default by seed. A null business id writes none. */
  buyer?: { name?: string; businessId: string | null };
  /** Finvoice version (default 3.0). 1.3 files start with `<!DOCTYPE Finvoice SYSTEM "Finvoice.dtd">`. */
  version?: FinvoiceGeneratorVersion;
  /** A SOAP/ebXML transport envelope before the document (default false). */
  envelope?: boolean;
  /** Default UTF-8. */
  charset?: FinvoiceCharset;
  /** An INV02 credit note: every amount negated (default false). */
  creditNote?: boolean;
  /** How rows name their subscription; default the operator's own (elisa freeText, telia articleName, dna heading). */
  rowStyle?: FinvoiceRowStyle;
  /**
   * `subscription`: each subscription's rows together; `section`: monthly fees of all subscriptions,
   * then usage, then one-offs and credits, so a subscription's rows are not adjacent. Default by seed.
   */
  grouping?: 'subscription' | 'section';
  /**
   * The row element the quantities are in (default `DeliveredQuantity`); `InvoicedQuantity` is how
   * most public 3.0 files state them; `both` writes each quantity in both (read once).
   */
  quantityElement?: 'DeliveredQuantity' | 'InvoicedQuantity' | 'both';
  /** Invoice-level discounts and charges (3.0 DiscountDetails / ChargeDetails; model.ts withInvoiceCharges). */
  invoiceCharges?: boolean;
  /** Rows that state only their amount including VAT (`RowAmount`, no RowVatAmount or RowVatExcludedAmount). */
  vatIncludedRows?: boolean;
  /** Some rows at 14 %, 10 % and 0 %, with VatSpecificationDetails per rate (model.ts withMixedVat). */
  mixedVat?: boolean;
  /** Rows in MON, pv, DAY, vrk, ZZ, KG, D, h and no unit, and a call in hours (model.ts withOddUnits). */
  oddUnits?: boolean;
  /** A re-sent copy or a cancellation (OriginCode Copy / Cancel, with the OriginalInvoiceNumber). */
  origin?: 'copy' | 'cancel';
  /** Labels before the name and the number in free texts and headings (`Käyttäjä: …`, `User: …`, `Liittymä …`). */
  labelledFreeText?: boolean;
}

export interface GeneratedFinvoice {
  xml: Uint8Array;
  expected: ParsedInvoice;
  /** The choices made (useful to reproduce a failure). */
  layout: {
    operator: string;
    seed: number;
    version: FinvoiceGeneratorVersion;
    charset: FinvoiceCharset;
    envelope: boolean;
    creditNote: boolean;
    rowStyle: FinvoiceRowStyle;
    grouping: 'subscription' | 'section';
  };
}

interface Seller {
  id: 'elisa' | 'telia' | 'dna';
  name: string;
  businessId: string;
  street: string;
  postCode: string;
  town: string;
  iban: string;
  bic: string;
  rowStyle: FinvoiceRowStyle;
  /** Product code prefix (ArticleIdentifier). */
  code: string;
}

export const FINVOICE_SELLERS: Record<string, Seller> = {
  elisa: {
    id: 'elisa',
    name: 'Elisa Oyj',
    businessId: '0116510-6',
    street: 'Ratavartijankatu 5',
    postCode: '00520',
    town: 'HELSINKI',
    iban: 'FI3715903000000776',
    bic: 'NDEAFIHH',
    rowStyle: 'freeText',
    code: 'EL',
  },
  telia: {
    id: 'telia',
    name: 'Telia Finland Oyj',
    businessId: '1475607-9',
    street: 'Pasilan asema-aukio 1',
    postCode: '00520',
    town: 'HELSINKI',
    iban: 'FI8880001800012345',
    bic: 'DABAFIHH',
    rowStyle: 'articleName',
    code: 'TF',
  },
  dna: {
    id: 'dna',
    name: 'DNA Oyj',
    businessId: '0592509-6',
    street: 'Läkkisepäntie 21',
    postCode: '00620',
    town: 'HELSINKI',
    iban: 'FI2150000120253461',
    bic: 'OKOYFIHH',
    rowStyle: 'heading',
    code: 'DNA',
  },
};

const minutesHundredths = (seconds: number) => Math.floor((seconds * 10 + 3) / 6);
/** round(a × b / divisor), half away from zero, integers only. */
const mulDivRound = (a: number, b: number, divisor: number) =>
  Math.sign(a * b) * Math.floor((Math.abs(a * b) + divisor / 2) / divisor);
const toNumber = (value: number, scale: number) => Number((value / 10 ** scale).toFixed(scale));
/** Negation without -0. */
const neg = (v: number) => (v === 0 ? 0 : -v);

/** Generates a Finvoice file and the structured invoice that parsing it must give (synchronous). */
export function generateFinvoice(options: FinvoiceOptions): GeneratedFinvoice {
  const seller = FINVOICE_SELLERS[options.operator.toLowerCase()];
  if (!seller) {
    throw new Error(
      `unknown operator "${options.operator}" (known: ${Object.keys(FINVOICE_SELLERS).join(', ')})`,
    );
  }
  const { model, seed } = seededModel(seller.id, options);
  if (
    (options.invoiceCharges || options.quantityElement === 'InvoicedQuantity') &&
    (options.version ?? '3.0') !== '3.0'
  ) {
    throw new Error('invoice-level charges and InvoicedQuantity are Finvoice 3.0');
  }
  if (options.oddUnits) withOddUnits(model, seed);
  if (options.mixedVat) withMixedVat(model, seed);
  if (options.invoiceCharges) withInvoiceCharges(model, seed);
  return writeFinvoice(seller, model, seed, options);
}

/** A line as written: the row's XML and the line parsing must give. */
interface Emitted {
  phone: string | null;
  sub: ModelSubscription | null;
  expected: InvoiceLine;
  /** Its VAT rate, tenths of a percent. */
  tenths: number;
}

function writeFinvoice(
  seller: Seller,
  model: InvoiceModel,
  seed: number,
  options: FinvoiceOptions,
): GeneratedFinvoice {
  const style = new Random(seed * 7919 + 29);
  const version = options.version ?? '3.0';
  const v3 = version === '3.0';
  const charset = options.charset ?? 'UTF-8';
  const envelope = options.envelope ?? false;
  const creditNote = options.creditNote ?? false;
  const rowStyle = options.rowStyle ?? seller.rowStyle;
  const grouping = options.grouping ?? (style.chance(0.4) ? 'section' : 'subscription');
  const compactNumbers = style.chance(0.3);
  const sign = (cents: number) => (creditNote ? neg(cents) : cents);
  const vatTenths = model.vatTenths;
  const rateText = (tenths: number) => formatScaled(tenths, 1, { thousands: '' }).replace(/,0$/, '');
  const vatCode = (tenths: number) => (tenths === 0 ? 'Z' : 'S');
  const labelled = options.labelledFreeText ?? false;
  const eur = (cents: number) => `AmountCurrencyIdentifier="EUR">${formatCents(cents, { thousands: '' })}`;
  const date = (iso: string) => `Format="CCYYMMDD">${iso.replaceAll('-', '')}`;

  const out: string[] = [];
  const emitted: Emitted[] = [];
  const labelRng = new Random(seed * 131 + 17);
  /** A row's free text naming its subscription: `040 … Name`, or with labels (`Liittymä 040 … Käyttäjä: Name`). */
  const numberAndUser = (sub: ModelSubscription) => {
    if (!labelled) return `${phoneText(sub.phone)} ${sub.userName}`;
    const phone = phoneText(sub.phone);
    return labelRng.pick([
      `Liittymä ${phone} Käyttäjä: ${sub.userName}`,
      `Käyttäjä ${sub.userName} Liittymä: ${phone}`,
      `User: ${sub.userName}, Subscription: ${phone}`,
      `Liittymä: ${phone} / Käyttäjä ${sub.userName}`,
    ]);
  };
  let position = 0;

  const phoneText = (phone: string) =>
    rowStyle === 'articleName'
      ? compactNumbers
        ? phone
        : formatPhone(phone, 'international')
      : compactNumbers
        ? formatPhone(phone, 'national').replaceAll(' ', '')
        : formatPhone(phone, 'national');

  const textRow = (text: string, costCenter: string | null) => {
    out.push(
      '<InvoiceRow>',
      `<ArticleName>${esc(text)}</ArticleName>`,
      ...(costCenter ? [`<RowAccountDimensionText>${esc(costCenter)}</RowAccountDimensionText>`] : []),
      '</InvoiceRow>',
    );
  };
  const subtotal = (label: string, cents: number) => {
    out.push(
      '<InvoiceRow>',
      '<SubInvoiceRow>',
      `<SubArticleName>${esc(label)}</SubArticleName>`,
      `<SubRowVatExcludedAmount ${eur(cents)}</SubRowVatExcludedAmount>`,
      '</SubInvoiceRow>',
      '</InvoiceRow>',
    );
  };

  const chargeRow = (line: ModelLine, sub: ModelSubscription | null, underHeading: boolean) => {
    const amount = sign(line.amountCents);
    const unitPrice = line.unitPriceCents === null ? null : sign(line.unitPriceCents);
    const quantities: string[] = [];
    const un = (code: string) => (v3 ? ` QuantityUnitCodeUN="${code}"` : '');
    const element = options.quantityElement ?? 'DeliveredQuantity';
    const delivered: string[] = [];
    const invoiced: string[] = [];
    const q = (value: string, unit: string, code: string) => {
      const attributes = `${unit ? ` QuantityUnitCode="${unit}"` : ''}${code ? un(code) : ''}`;
      if (element !== 'InvoicedQuantity')
        delivered.push(`<DeliveredQuantity${attributes}>${value}</DeliveredQuantity>`);
      if (element !== 'DeliveredQuantity')
        invoiced.push(`<InvoicedQuantity${attributes}>${value}</InvoicedQuantity>`);
    };
    let expectedQ: Pick<InvoiceLine, 'count' | 'quantity' | 'unit' | 'unitCode'>;
    if (line.stated) {
      const { unit, hundredths } = line.stated;
      q(formatScaled(hundredths, 2, { thousands: '' }), unit, unit === 'h' ? 'HUR' : '');
      expectedQ =
        line.category === 'voice' && unit === 'h'
          ? { count: null, quantity: toNumber(hundredths * 60, 2), unit: 'min' }
          : { count: null, quantity: toNumber(hundredths, 2), unit: 'other', unitCode: unit };
    } else if (line.seconds !== undefined) {
      const h = minutesHundredths(line.seconds);
      if (seller.id === 'elisa') {
        q(String(line.seconds), 's', 'SEC');
        expectedQ = { count: null, quantity: toNumber(h, 2), unit: 'min' };
      } else {
        q(String(line.calls ?? 1), 'kpl', 'C62');
        q(formatScaled(h, 2, { thousands: '' }), 'min', 'MIN');
        expectedQ = { count: line.calls ?? 1, quantity: toNumber(h, 2), unit: 'min' };
      }
    } else if (line.mbTenths !== undefined) {
      if (line.gbTenths !== undefined && seller.id !== 'elisa') {
        q(formatScaled(line.gbTenths, 1, { thousands: '' }), seller.id === 'dna' ? 'Gt' : 'GB', 'E34');
      } else {
        q(formatScaled(line.mbTenths, 1, { thousands: '' }), seller.id === 'dna' ? 'Mt' : 'MB', '4L');
      }
      expectedQ = { count: null, quantity: toNumber(line.mbTenths, 1), unit: 'mb' };
    } else {
      const pieces = line.pieces ?? 1;
      q(String(pieces), 'kpl', 'C62');
      expectedQ = { count: null, quantity: pieces, unit: 'pcs' };
    }
    quantities.push(...delivered, ...invoiced);
    const phone = sub?.phone ?? null;
    const ownNumber = phone !== null && !underHeading;
    const articleName =
      ownNumber && rowStyle === 'articleName' ? `${phoneText(phone)} ${line.label}` : line.label;
    const freeTexts: string[] = [];
    if (sub && ownNumber) {
      if (rowStyle === 'freeText') freeTexts.push(numberAndUser(sub));
      else if (rowStyle === 'articleName')
        freeTexts.push(
          labelled ? `${labelRng.pick(['Käyttäjä:', 'User:', 'Käyttäjä'])} ${sub.userName}` : sub.userName,
        );
    }
    const costCenter = sub?.costCenter && !underHeading ? sub.costCenter.code : null;
    const tenths = lineVatTenths(model, line);
    const rowVat = vatCents(amount, tenths);
    // only the amount including VAT: the parser takes its VAT out at the row's rate, to the cent
    const vatIncluded = options.vatIncludedRows ?? false;
    const read = vatIncluded ? amount + rowVat - mulDivRound(amount + rowVat, tenths, 1000 + tenths) : amount;
    position++;
    out.push(
      '<InvoiceRow>',
      `<ArticleIdentifier>${seller.code}-${productCode(line)}</ArticleIdentifier>`,
      `<ArticleName>${esc(articleName)}</ArticleName>`,
      ...quantities,
      ...(line.period
        ? [`<StartDate ${date(line.period.start)}</StartDate>`, `<EndDate ${date(line.period.end)}</EndDate>`]
        : []),
      ...(unitPrice === null ? [] : [`<UnitPriceAmount ${eur(unitPrice)}</UnitPriceAmount>`]),
      `<RowPositionIdentifier>${position}</RowPositionIdentifier>`,
      ...(costCenter ? [`<RowAccountDimensionText>${costCenter}</RowAccountDimensionText>`] : []),
      ...freeTexts.map((t) => `<RowFreeText>${esc(t)}</RowFreeText>`),
      `<RowVatRatePercent>${rateText(tenths)}</RowVatRatePercent>`,
      ...(v3 ? [`<RowVatCode>${vatCode(tenths)}</RowVatCode>`] : []),
      ...(vatIncluded
        ? []
        : [
            `<RowVatAmount ${eur(rowVat)}</RowVatAmount>`,
            `<RowVatExcludedAmount ${eur(amount)}</RowVatExcludedAmount>`,
          ]),
      `<RowAmount ${eur(amount + rowVat)}</RowAmount>`,
      '</InvoiceRow>',
    );
    emitted.push({
      phone,
      sub,
      expected: {
        label: line.label,
        category: line.category,
        region: line.region,
        periodStart: line.period?.start ?? null,
        periodEnd: line.period?.end ?? null,
        ...expectedQ,
        unitPrice: unitPrice === null ? null : toNumber(unitPrice, 2),
        amount: toNumber(read, 2),
        vatRate: tenths / 10,
      },
      tenths,
    });
    return read;
  };

  // ---- rows
  const heading = (sub: ModelSubscription) =>
    textRow(
      labelled
        ? `${labelRng.pick(['Liittymä:', 'Liittymä', 'Numero'])} ${phoneText(sub.phone)} \u2013 ${labelRng.pick(['Käyttäjä', 'Käyttäjä:', 'User:'])} ${sub.userName}`
        : `Numero ${phoneText(sub.phone)} \u2013 ${sub.userName}`,
      sub.costCenter?.code ?? null,
    );
  const sections: [string, (l: ModelLine) => boolean][] =
    grouping === 'section'
      ? [
          ['Kuukausimaksut', (l) => l.kind === 'fee'],
          ['Käyttömaksut', (l) => l.kind !== 'fee' && l.kind !== 'oneOff' && l.kind !== 'credit'],
          ['Kertamaksut ja hyvitykset', (l) => l.kind === 'oneOff' || l.kind === 'credit'],
        ]
      : [['', () => true]];
  for (const [title, inSection] of sections) {
    if (title) textRow(title, null);
    let groupCode: string | null = null;
    let groupTotal = 0;
    const closeGroup = () => {
      if (groupCode && rowStyle === 'articleName')
        subtotal(`Kustannuspaikka ${groupCode} yhteensä`, groupTotal);
      groupCode = null;
      groupTotal = 0;
    };
    for (const sub of model.subscriptions) {
      const lines = sub.lines.filter(inSection);
      if (!lines.length) continue;
      const code = sub.costCenter?.code ?? '';
      if (groupCode !== code) {
        closeGroup();
        groupCode = code;
      }
      const underHeading = rowStyle === 'heading';
      if (underHeading) heading(sub);
      let total = 0;
      for (const line of lines) total += chargeRow(line, sub, underHeading);
      if (underHeading) subtotal('Numero yhteensä', total);
      groupTotal += total;
    }
    closeGroup();
  }
  if (model.otherLines.length) {
    if (rowStyle === 'heading') textRow('Muut maksut', null);
    for (const line of model.otherLines) chargeRow(line, null, false);
  }
  const rows = out;

  // ---- expected
  const subs = new Map<string, InvoiceSubscription>();
  const otherLines: InvoiceLine[] = [];
  const subCents = new Map<string, number>();
  for (const e of emitted) {
    if (!e.phone || !e.sub) {
      otherLines.push(e.expected);
      continue;
    }
    let sub = subs.get(e.phone);
    if (!sub) {
      sub = {
        phoneNumber: e.phone,
        userName: e.sub.userName,
        costCenter: e.sub.costCenter?.code ?? null,
        total: 0,
        lines: [],
      };
      subs.set(e.phone, sub);
      subCents.set(e.phone, 0);
    }
    sub.lines.push(e.expected);
    subCents.set(e.phone, subCents.get(e.phone)! + Math.round(e.expected.amount * 100));
  }
  for (const [phone, sub] of subs) sub.total = toNumber(subCents.get(phone)!, 2);
  // invoice-level charges and discounts (a discount is negative on the invoice)
  // (written in the XSD's order: every discount, then every charge)
  const charges = (model.charges ?? [])
    .map((c) => ({ ...c, cents: sign(c.amountCents) }))
    .sort((a, b) => Number(a.kind === 'charge') - Number(b.kind === 'charge'));
  for (const c of charges) {
    otherLines.push({
      label: c.reason,
      category: c.kind === 'discount' ? 'discount' : 'other',
      region: null,
      periodStart: null,
      periodEnd: null,
      count: null,
      quantity: null,
      unit: null,
      unitPrice: null,
      amount: toNumber(c.kind === 'discount' ? neg(c.cents) : c.cents, 2),
      vatRate: c.vatTenths / 10,
    });
  }
  // VAT per rate: the bases of the lines read, then base × rate rounded once per rate
  const bases = new Map<number, number>();
  for (const e of emitted) {
    bases.set(e.tenths, (bases.get(e.tenths) ?? 0) + Math.round(e.expected.amount * 100));
  }
  for (const c of charges) {
    bases.set(c.vatTenths, (bases.get(c.vatTenths) ?? 0) + (c.kind === 'discount' ? neg(c.cents) : c.cents));
  }
  if (!bases.size) bases.set(vatTenths, 0);
  const rates = [...bases.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([tenths, base]) => ({ tenths, base, vat: vatCents(base, tenths) }));
  const totalExcl = rates.reduce((s, r) => s + r.base, 0);
  const vat = rates.reduce((s, r) => s + r.vat, 0);
  const main = rates.reduce((a, b) => (Math.abs(b.base) > Math.abs(a.base) ? b : a));
  const origin = options.origin;
  const originalNumber = origin === 'copy' ? model.invoiceNumber : `${model.invoiceNumber.slice(0, -1)}0`;
  const expected: ParsedInvoice = {
    operator: seller.id,
    ...invoiceHeadOf(model),
    vatRate: main.tenths / 10,
    ...(rates.length > 1
      ? {
          vatBreakdown: rates.map((r) => ({
            rate: r.tenths / 10,
            base: toNumber(r.base, 2),
            vat: toNumber(r.vat, 2),
          })),
        }
      : {}),
    ...(origin ? { origin, originalInvoiceNumber: originalNumber } : {}),
    totalExclVat: toNumber(totalExcl, 2),
    vatAmount: toNumber(vat, 2),
    totalInclVat: toNumber(totalExcl + vat, 2),
    subscriptions: [...subs.values()],
    otherLines,
  };

  // ---- the document
  const [street, postTown] = model.customerAddress;
  const [buyerPostCode, ...buyerTown] = postTown.split(' ');
  const ownMonthStart = `${model.invoiceDate.slice(0, 8)}01`;
  const ownMonthEnd = (() => {
    const [y, m] = model.invoiceDate.split('-').map(Number);
    return `${model.invoiceDate.slice(0, 8)}${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
  })();
  const ovt = (businessId: string) => `0037${businessId.replace('-', '')}`;
  const decl = `<?xml version="1.0" encoding="${charset}"?>`;
  const doc: string[] = [];
  if (envelope) {
    if (style.chance(0.5)) doc.push(decl);
    doc.push(soapEnvelope(seller, model, ovt));
  }
  doc.push(decl);
  if (version === '1.3') doc.push('<!DOCTYPE Finvoice SYSTEM "Finvoice.dtd">');
  if (style.chance(0.5)) doc.push('<?xml-stylesheet type="text/xsl" href="Finvoice.xsl"?>');
  doc.push(
    version === '1.3'
      ? '<Finvoice Version="1.3">'
      : `<Finvoice Version="${version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="Finvoice${version}.xsd">`,
    '<SellerPartyDetails>',
    `<SellerPartyIdentifier>${seller.businessId}</SellerPartyIdentifier>`,
    `<SellerOrganisationName>${esc(seller.name)}</SellerOrganisationName>`,
    `<SellerOrganisationTaxCode>FI${seller.businessId.replace('-', '')}</SellerOrganisationTaxCode>`,
    '<SellerPostalAddressDetails>',
    `<SellerStreetName>${esc(seller.street)}</SellerStreetName>`,
    `<SellerTownName>${seller.town}</SellerTownName>`,
    `<SellerPostCodeIdentifier>${seller.postCode}</SellerPostCodeIdentifier>`,
    '<CountryCode>FI</CountryCode>',
    '</SellerPostalAddressDetails>',
    '</SellerPartyDetails>',
    `<SellerOrganisationUnitNumber>${ovt(seller.businessId)}</SellerOrganisationUnitNumber>`,
    '<BuyerPartyDetails>',
    ...(model.businessId ? [`<BuyerPartyIdentifier>${model.businessId}</BuyerPartyIdentifier>`] : []),
    `<BuyerOrganisationName>${esc(model.customerName)}</BuyerOrganisationName>`,
    '<BuyerPostalAddressDetails>',
    `<BuyerStreetName>${esc(street)}</BuyerStreetName>`,
    `<BuyerTownName>${esc(buyerTown.join(' '))}</BuyerTownName>`,
    `<BuyerPostCodeIdentifier>${buyerPostCode}</BuyerPostCodeIdentifier>`,
    '<CountryCode>FI</CountryCode>',
    '</BuyerPostalAddressDetails>',
    '</BuyerPartyDetails>',
    '<InvoiceDetails>',
    `<InvoiceTypeCode>${creditNote ? 'INV02' : 'INV01'}</InvoiceTypeCode>`,
    ...(v3 ? [`<InvoiceTypeCodeUN>${creditNote ? '381' : '380'}</InvoiceTypeCodeUN>`] : []),
    `<InvoiceTypeText>${creditNote ? 'HYVITYSLASKU' : 'LASKU'}</InvoiceTypeText>`,
    `<OriginCode>${origin === 'copy' ? 'Copy' : origin === 'cancel' ? 'Cancel' : 'Original'}</OriginCode>`,
    `<InvoiceNumber>${model.invoiceNumber}</InvoiceNumber>`,
    `<InvoiceDate ${date(model.invoiceDate)}</InvoiceDate>`,
    ...(creditNote || origin ? [`<OriginalInvoiceNumber>${originalNumber}</OriginalInvoiceNumber>`] : []),
    `<InvoicingPeriodStartDate ${date(ownMonthStart)}</InvoicingPeriodStartDate>`,
    `<InvoicingPeriodEndDate ${date(ownMonthEnd)}</InvoicingPeriodEndDate>`,
    `<SellersBuyerIdentifier>${model.customerNumber}</SellersBuyerIdentifier>`,
    `<InvoiceTotalVatExcludedAmount ${eur(totalExcl)}</InvoiceTotalVatExcludedAmount>`,
    `<InvoiceTotalVatAmount ${eur(vat)}</InvoiceTotalVatAmount>`,
    `<InvoiceTotalVatIncludedAmount ${eur(totalExcl + vat)}</InvoiceTotalVatIncludedAmount>`,
    ...rates.flatMap((r) => [
      '<VatSpecificationDetails>',
      `<VatBaseAmount ${eur(r.base)}</VatBaseAmount>`,
      `<VatRatePercent>${rateText(r.tenths)}</VatRatePercent>`,
      ...(v3 ? [`<VatCode>${vatCode(r.tenths)}</VatCode>`] : []),
      `<VatRateAmount ${eur(r.vat)}</VatRateAmount>`,
      '</VatSpecificationDetails>',
    ]),
    '<InvoiceFreeText>Hinnat euroina (€). Kiitos, että käytät palvelujamme.</InvoiceFreeText>',
    '<PaymentTermsDetails>',
    '<PaymentTermsFreeText>14 pv netto</PaymentTermsFreeText>',
    `<InvoiceDueDate ${date(model.dueDate)}</InvoiceDueDate>`,
    '</PaymentTermsDetails>',
    ...charges
      .filter((c) => c.kind === 'discount')
      .flatMap((c) => [
        '<DiscountDetails>',
        `<FreeText>${esc(c.reason)}</FreeText>`,
        `<Amount ${eur(c.cents)}</Amount>`,
        `<VatCategoryCode>${vatCode(c.vatTenths)}</VatCategoryCode>`,
        `<VatRatePercent>${rateText(c.vatTenths)}</VatRatePercent>`,
        '</DiscountDetails>',
      ]),
    ...charges
      .filter((c) => c.kind === 'charge')
      .flatMap((c) => [
        '<ChargeDetails>',
        `<ReasonText>${esc(c.reason)}</ReasonText>`,
        `<Amount ${eur(c.cents)}</Amount>`,
        `<VatCategoryCode>${vatCode(c.vatTenths)}</VatCategoryCode>`,
        `<VatRatePercent>${rateText(c.vatTenths)}</VatRatePercent>`,
        '</ChargeDetails>',
      ]),
    '</InvoiceDetails>',
  );
  for (const row of rows) doc.push(row);
  doc.push(
    '<EpiDetails>',
    '<EpiIdentificationDetails>',
    `<EpiDate ${date(model.invoiceDate)}</EpiDate>`,
    `<EpiReference>${model.referenceNumber}</EpiReference>`,
    '</EpiIdentificationDetails>',
    '<EpiPartyDetails>',
    '<EpiBfiPartyDetails>',
    `<EpiBfiIdentifier IdentificationSchemeName="BIC">${seller.bic}</EpiBfiIdentifier>`,
    '</EpiBfiPartyDetails>',
    '<EpiBeneficiaryPartyDetails>',
    `<EpiNameAddressDetails>${esc(seller.name)}</EpiNameAddressDetails>`,
    `<EpiAccountID IdentificationSchemeName="IBAN">${seller.iban}</EpiAccountID>`,
    '</EpiBeneficiaryPartyDetails>',
    '</EpiPartyDetails>',
    '<EpiPaymentInstructionDetails>',
    `<EpiRemittanceInfoIdentifier IdentificationSchemeName="SPY">${model.referenceNumber}</EpiRemittanceInfoIdentifier>`,
    `<EpiInstructedAmount ${eur(totalExcl + vat)}</EpiInstructedAmount>`,
    '<EpiCharge ChargeOption="SHA">SHA</EpiCharge>',
    `<EpiDateOptionDate ${date(model.dueDate)}</EpiDateOptionDate>`,
    '</EpiPaymentInstructionDetails>',
    '</EpiDetails>',
    '</Finvoice>',
    '',
  );
  const text = doc.join('\n');
  return {
    xml: charset === 'UTF-8' ? new Uint8Array(Buffer.from(text, 'utf8')) : encodeIso885915(text),
    expected,
    layout: { operator: seller.id, seed, version, charset, envelope, creditNote, rowStyle, grouping },
  };
}

function productCode(line: ModelLine): string {
  let h = 0;
  for (const ch of line.label) h = (h * 31 + ch.charCodeAt(0)) % 100000;
  return String(h).padStart(5, '0');
}

function soapEnvelope(seller: Seller, model: InvoiceModel, ovt: (id: string) => string): string {
  const buyer = model.businessId ? ovt(model.businessId) : '003700000000';
  const id = `${model.invoiceDate.replaceAll('-', '')}${model.invoiceNumber}`;
  return [
    '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:eb="http://www.oasis-open.org/committees/ebxml-msg/schema/msg-header-2_0.xsd">',
    '<SOAP-ENV:Header>',
    `<eb:MessageHeader SOAP-ENV:mustUnderstand="1" eb:version="2.0">`,
    `<eb:From><eb:PartyId>${ovt(seller.businessId)}</eb:PartyId><eb:Role>Sender</eb:Role></eb:From>`,
    `<eb:From><eb:PartyId>${seller.bic}</eb:PartyId><eb:Role>Intermediator</eb:Role></eb:From>`,
    `<eb:To><eb:PartyId>${buyer}</eb:PartyId><eb:Role>Receiver</eb:Role></eb:To>`,
    '<eb:To><eb:PartyId>HELSFIHH</eb:PartyId><eb:Role>Intermediator</eb:Role></eb:To>',
    '<eb:CPAId>yoursandmycpa</eb:CPAId>',
    '<eb:Service>Routing</eb:Service>',
    '<eb:Action>ProcessInvoice</eb:Action>',
    '<eb:MessageData>',
    `<eb:MessageId>${id}</eb:MessageId>`,
    `<eb:Timestamp>${model.invoiceDate}T08:00:00+02:00</eb:Timestamp>`,
    '</eb:MessageData>',
    '</eb:MessageHeader>',
    '</SOAP-ENV:Header>',
    '<SOAP-ENV:Body>',
    '<eb:Manifest eb:id="Manifest" eb:version="2.0">',
    `<eb:Reference eb:id="Finvoice" xlink:href="${id}">`,
    '<eb:schema eb:location="http://www.finvoice.info/finvoice.xsd" eb:version="2.0"/>',
    '</eb:Reference>',
    '</eb:Manifest>',
    '</SOAP-ENV:Body>',
    '</SOAP-ENV:Envelope>',
  ].join('\n');
}

function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
}

/** ISO-8859-15 differs from ISO-8859-1 in eight places. */
const ISO_8859_15: Record<number, number> = {
  0x20ac: 0xa4, // €
  0x0160: 0xa6, // Š
  0x0161: 0xa8, // š
  0x017d: 0xb4, // Ž
  0x017e: 0xb8, // ž
  0x0152: 0xbc, // Œ
  0x0153: 0xbd, // œ
  0x0178: 0xbe, // Ÿ
};

/**
 * Text (whose non-ASCII characters are all in character data or attribute values) → ISO-8859-15
 * bytes; a character the charset lacks is written as a character reference.
 */
export function encodeIso885915(text: string): Uint8Array {
  const escaped = text.replace(
    /[^\p{ASCII}\u00a0-\u00ff\u20ac\u0160\u0161\u017d\u017e\u0152\u0153\u0178]|[\u00a4\u00a6\u00a8\u00b4\u00b8\u00bc\u00bd\u00be]/gu,
    (ch) => `&#${ch.codePointAt(0)};`,
  );
  const bytes = new Uint8Array(escaped.length);
  for (let i = 0; i < escaped.length; i++) {
    const cp = escaped.charCodeAt(i);
    bytes[i] = ISO_8859_15[cp] ?? cp;
  }
  return bytes;
}
