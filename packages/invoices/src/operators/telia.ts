import {
  createLayoutParser,
  parseQuantity,
  requireCents,
  requireCount,
  requirePhone,
  stripContinued,
} from './core.js';

/**
 * Telia Finland Oyj: specification grouped by cost center (`Kustannuspaikka: 1001 Myynti`), per
 * subscription `+358 40 123 4567 / Name`; the period sits in the `Erittely` cell after the label.
 */
export const telia = createLayoutParser({
  id: 'telia',
  name: 'Telia',
  legalName: 'Telia Finland Oyj',
  title: 'Lasku',
  headerKeys: {
    invoiceNumber: 'Laskunumero',
    invoiceDate: 'Laskun pvm',
    dueDate: 'Eräpäivä',
    customerNumber: 'Asiakasnumero',
    referenceNumber: 'Viite',
    businessId: 'Y-tunnus',
  },
  summaryHeading: 'Yhteenveto',
  summaryTotalExclVat: 'Veroton yhteensä',
  summaryVat: 'ALV',
  summaryTotalInclVat: 'Maksettava yhteensä',
  columns: { label: 'Erittely', count: 'Kpl', quantity: 'Määrä', amount: 'Hinta €' },
  markers: ['Erittely kustannuspaikoittain'],
  subscriptionTotal: 'Yhteensä',
  groupTotal: 'Kustannuspaikka yhteensä',
  otherHeading: 'Muut maksut',
  otherTotal: 'Muut maksut yhteensä',
  parseSubscriptionHeading(text) {
    const { text: t, continued } = stripContinued(text);
    const m = /^((?:\+358|0)[\d ]*\d)\s*\/\s*(\D.*)$/.exec(t);
    if (!m) return null;
    return { phoneNumber: requirePhone(m[1]), userName: m[2].trim(), continued };
  },
  parseCostCenterHeading(text) {
    const { text: t, continued } = stripContinued(text);
    const m = /^Kustannuspaikka:\s*(\S+)(?:\s.*)?$/.exec(t);
    return m ? { code: m[1], scope: 'group', continued } : null;
  },
  readRow(cells) {
    const countText = cells.get('count');
    const count = countText ? requireCount(countText, 'count') : null;
    const quantityText = cells.get('quantity');
    return {
      count,
      quantity: quantityText
        ? parseQuantity(quantityText)
        : count === null
          ? null
          : { value: count, scale: 0, unit: 'pcs' },
      unitPriceCents: null,
      amountCents: requireCents(cells.get('amount'), 'amount'),
    };
  },
});
