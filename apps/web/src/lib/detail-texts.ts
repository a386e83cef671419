import { registerTexts } from './register-texts';

/**
 * The texts of the invoice and subscription detail pages, in English and Finnish. They join the
 * translations when a detail page's chunk loads (as the masters' labels do), so the login page,
 * which loads one whole language file, does not carry them.
 */
export const DETAIL_TEXTS = {
  en: {
    billingMonth: 'Billing month',
    plan: 'Plan',
    noMatches: 'Nothing matches the search',
    invoice: {
      title: 'Invoice {number}',
      loadFailed: 'The invoice could not be loaded',
      download: 'Download PDF',
      downloadFinvoice: 'Download e-invoice (XML)',
      vat: 'VAT',
      counts: 'Contents',
      countsValue: '{subscriptions} subscriptions, {lines} lines',
      subscriptions: 'Subscriptions on the invoice',
      subscriptionTotal: 'Total excl. VAT',
      search: 'Search by number or user',
      noSubscriptions: 'No subscriptions on this invoice',
      otherLines: 'Other charges',
    },
    line: {
      label: 'Line',
      quantity: 'Quantity',
      unitPrice: 'Unit price',
      amount: 'Amount excl. VAT',
    },
    unit: {
      pcs: 'pcs',
      min: 'min',
      mb: 'MB',
    },
    subscription: {
      title: 'Subscription {number}',
      loadFailed: 'The subscription could not be loaded',
      fee: '{fee} a month',
      feeContract: '{fee} a month (contract price)',
      seen: 'On invoices',
      months: 'Cost and usage by month',
      roaming: 'Roaming',
      roamingValue: '{cost} · {minutes} min · {gb} GB',
      invoices: 'Invoices',
      noInvoices: 'Not on any invoice you can see',
    },
    finding: {
      title: 'Optimization',
      none: 'Not optimized yet',
      kind: {
        optimized: 'A cheaper plan fits',
        unoptimized: 'On the best plan',
        unused: 'Unused',
      },
      current: 'Current plan',
      best: 'Best plan',
      saving: 'Saving',
      savingValue: '{monthly} a month, {yearly} a year',
      reason: 'Reason',
      basedOn: 'Based on',
      basedOnValue_one: '{count} month, optimized on {date}',
      basedOnValue_other: '{count} months, optimized on {date}',
      marked: 'Marked for optimization on {date}',
      realised: 'Saving realised from {month}',
    },
  },
  fi: {
    billingMonth: 'Laskutuskuukausi',
    plan: 'Liittymätyyppi',
    noMatches: 'Haulla ei löytynyt mitään',
    invoice: {
      title: 'Lasku {number}',
      loadFailed: 'Laskua ei voitu ladata',
      download: 'Lataa PDF',
      downloadFinvoice: 'Lataa verkkolasku (XML)',
      vat: 'ALV',
      counts: 'Sisältö',
      countsValue: '{subscriptions} liittymää, {lines} riviä',
      subscriptions: 'Laskun liittymät',
      subscriptionTotal: 'Yhteensä (alv 0 %)',
      search: 'Hae numerolla tai käyttäjällä',
      noSubscriptions: 'Laskulla ei ole liittymiä',
      otherLines: 'Muut maksut',
    },
    line: {
      label: 'Rivi',
      quantity: 'Määrä',
      unitPrice: 'Yksikköhinta',
      amount: 'Summa (alv 0 %)',
    },
    unit: {
      pcs: 'kpl',
      min: 'min',
      mb: 'Mt',
    },
    subscription: {
      title: 'Liittymä {number}',
      loadFailed: 'Liittymää ei voitu ladata',
      fee: '{fee} kuukaudessa',
      feeContract: '{fee} kuukaudessa (sopimushinta)',
      seen: 'Laskuilla',
      months: 'Kustannukset ja käyttö kuukausittain',
      roaming: 'Verkkovierailu',
      roamingValue: '{cost} · {minutes} min · {gb} Gt',
      invoices: 'Laskut',
      noInvoices: 'Ei millään laskulla, jonka voit nähdä',
    },
    finding: {
      title: 'Optimointi',
      none: 'Ei vielä optimoitu',
      kind: {
        optimized: 'Edullisempi liittymä sopii',
        unoptimized: 'Edullisimmalla liittymällä',
        unused: 'Käyttämätön',
      },
      current: 'Nykyinen liittymä',
      best: 'Paras liittymä',
      saving: 'Säästö',
      savingValue: '{monthly} kuukaudessa, {yearly} vuodessa',
      reason: 'Peruste',
      basedOn: 'Perusteena',
      basedOnValue_one: '{count} kuukausi, optimoitu {date}',
      basedOnValue_other: '{count} kuukautta, optimoitu {date}',
      marked: 'Merkitty optimoitavaksi {date}',
      realised: 'Säästö toteutunut {month} alkaen',
    },
  },
} as const;

/** Adds the detail texts under `detail.*` (existing keys are kept). */
export function registerDetailTexts(): void {
  registerTexts('detail', DETAIL_TEXTS);
}
