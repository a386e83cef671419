import {
  createLayoutParser,
  parseQuantity,
  requireCents,
  requireCount,
  requirePhone,
  stripContinued,
} from './core.js';

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
  parseSubscriptionHeading(text) {
    const { text: t, continued } = stripContinued(text);
    const m = /^Numero\s+((?:\+358|0)[\d ]*\d)\s+[\u2013\u2014-]\s+(.+)$/.exec(t);
    if (!m) return null;
    return { phoneNumber: requirePhone(m[1]), userName: m[2].trim(), costCenter: null, continued };
  },
  parseCostCenterHeading(text) {
    const { text: t, continued } = stripContinued(text);
    const m = /^Kustannuspaikka\s+(\S+)$/.exec(t);
    return m ? { code: m[1], scope: 'subscription', continued } : null;
  },
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
