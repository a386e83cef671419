import { createLayoutParser, parseQuantity, requireCents, requireCount } from './core.js';

/**
 * DNA Oyj: per subscription `Numero 040 123 4567 – Name`, the cost center (if any) on the next line;
 * quantity and unit in separate columns (`Määrä`, `Yks.`).
 */
export const dna = createLayoutParser({
  id: 'dna',
  name: 'DNA',
  legalName: 'DNA Oyj',
  title: 'LASKU',
  headerKeys: {
    invoiceNumber: 'Laskun numero',
    invoiceDate: 'Päiväys',
    dueDate: 'Eräpäivä',
    customerNumber: 'Asiakasnro',
    referenceNumber: 'Viitenro',
    businessId: 'Y-tunnus',
  },
  summaryHeading: 'Laskun erittely',
  summaryTotalExclVat: 'Veroton summa',
  summaryVat: 'Arvonlisävero',
  summaryTotalInclVat: 'Yhteensä',
  columns: {
    label: 'Palvelu',
    period: 'Ajanjakso',
    count: 'Lkm',
    quantity: 'Määrä',
    unit: 'Yks.',
    amount: 'Veroton €',
  },
  markers: ['Liittymäkohtainen erittely'],
  subscriptionTotal: 'Numero yhteensä',
  otherHeading: 'Muut maksut',
  otherTotal: 'Muut maksut yhteensä',
  subscriptionHeading: /^Numero\s+((?:\+358|0)[\d ]*\d)\s+[\u2013\u2014-]\s+(.+)$/,
  costCenterHeading: { pattern: /^Kustannuspaikka\s+(\S+)$/, scope: 'subscription' },
  readRow(cells) {
    const countText = cells.get('count');
    const quantityText = cells.get('quantity');
    return {
      count: countText ? requireCount(countText, 'count') : null,
      quantity: quantityText ? parseQuantity(quantityText, cells.get('unit')) : null,
      unitPriceCents: null,
      amountCents: requireCents(cells.get('amount'), 'amount'),
    };
  },
});
