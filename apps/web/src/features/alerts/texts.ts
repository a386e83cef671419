import i18n from 'i18next';

/** The Alerts page's texts (issue 26); rule, severity and state names come from packages/shared. */
const TEXTS = {
  en: {
    help: 'What changed on the invoices: cost jumps, roaming, service numbers, new and gone subscriptions. Acknowledge what you have checked; the bell in the header counts what is still open.',
    type: 'Type',
    allTypes: 'All types',
    severity: 'Severity',
    state: 'State',
    allStates: 'All states',
    month: 'Month',
    alert: 'Alert',
    client: 'Client',
    acknowledged: 'Acknowledged {date} by {name}',
    acknowledge: 'Acknowledge',
    acknowledgeSelected: 'Acknowledge selected ({count})',
    acknowledgeTitle: 'Acknowledge {count} alert(s)',
    note: 'Note (optional)',
    notePlaceholder: 'What was found, e.g. "Trip approved"',
    acknowledgedCount: '{count} alert(s) acknowledged',
    export: 'Export',
    open: 'Open',
    openSubscription: 'Subscription',
    openInvoice: 'Invoice',
    empty: 'No alerts: nothing unusual on the invoices',
  },
  fi: {
    help: 'Mikä laskuilla muuttui: kustannushypyt, verkkovierailu, palvelunumerot, uudet ja poistuneet liittymät. Kuittaa tarkistamasi; otsikon kello laskee vielä avoimet.',
    type: 'Tyyppi',
    allTypes: 'Kaikki tyypit',
    severity: 'Vakavuus',
    state: 'Tila',
    allStates: 'Kaikki tilat',
    month: 'Kuukausi',
    alert: 'Hälytys',
    client: 'Asiakas',
    acknowledged: 'Kuitattu {date}, {name}',
    acknowledge: 'Kuittaa',
    acknowledgeSelected: 'Kuittaa valitut ({count})',
    acknowledgeTitle: 'Kuittaa {count} hälytys(tä)',
    note: 'Huomautus (valinnainen)',
    notePlaceholder: 'Mitä selvisi, esim. ”Matka hyväksytty”',
    acknowledgedCount: '{count} hälytys(tä) kuitattu',
    export: 'Vie Exceliin',
    open: 'Avaa',
    openSubscription: 'Liittymä',
    openInvoice: 'Lasku',
    empty: 'Ei hälytyksiä: laskuilla ei ole mitään tavallisesta poikkeavaa',
  },
} as const;

for (const lang of ['en', 'fi'] as const) {
  i18n.addResourceBundle(lang, 'translation', { alerts: TEXTS[lang] }, true, false);
}
