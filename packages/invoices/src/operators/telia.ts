import { createLayoutParser, parseQuantity, requireCents, requireCount } from './core.js';

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
  subscriptionHeading: /^((?:\+358|0)[\d ]*\d)\s*\/\s*(\D.*)$/,
  costCenterHeading: { pattern: /^Kustannuspaikka:\s*(\S+)(?:\s.*)?$/, scope: 'group' },
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
