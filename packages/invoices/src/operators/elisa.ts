import { createLayoutParser, parseQuantity, requireCents } from './core.js';

/** Elisa Oyj: per-subscription specification `Liittymä <number> <name> [Kustannuspaikka <code>]`. */
export const elisa = createLayoutParser({
  id: 'elisa',
  name: 'Elisa',
  legalName: 'Elisa Oyj',
  title: 'LASKU',
  headerKeys: {
    invoiceNumber: 'Laskun numero',
    invoiceDate: 'Laskun päivämäärä',
    dueDate: 'Eräpäivä',
    customerNumber: 'Asiakasnumero',
    referenceNumber: 'Viitenumero',
    businessId: 'Y-tunnus',
  },
  summaryHeading: 'Laskun yhteenveto',
  summaryTotalExclVat: 'Yhteensä ilman arvonlisäveroa',
  summaryVat: 'Arvonlisävero',
  summaryTotalInclVat: 'Laskun loppusumma',
  columns: {
    label: 'Tuote / palvelu',
    period: 'Jakso',
    quantity: 'Määrä',
    unitPrice: 'À-hinta',
    amount: 'Summa €',
  },
  markers: ['Erittely liittymittäin'],
  subscriptionTotal: 'Liittymä yhteensä',
  otherHeading: 'Muut maksut',
  otherTotal: 'Muut maksut yhteensä',
  subscriptionHeading: /^Liittymä\s+((?:\+358|0)[\d ]*\d)\s+(\D.*?)(?:\s+Kustannuspaikka\s+(\S+))?$/,
  // A long user name wraps the heading: its cost center then stands on a line of its own under it.
  costCenterHeading: { pattern: /^Kustannuspaikka\s+(\S+)$/, scope: 'subscription' },
  readRow(cells) {
    const quantity = cells.get('quantity');
    const unitPrice = cells.get('unitPrice');
    return {
      count: null,
      quantity: quantity ? parseQuantity(quantity) : null,
      unitPriceCents: unitPrice ? requireCents(unitPrice, 'unit price') : null,
      amountCents: requireCents(cells.get('amount'), 'amount'),
    };
  },
});
