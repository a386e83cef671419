import i18n from 'i18next';

/** The portfolio's texts (glossary: säästöpotentiaali, toteutuneet säästöt, Y-tunnus, optimointi). */
const TEXTS = {
  en: {
    help: 'Every client you look after, with this month’s invoiced cost against last month’s, the saving still open and the saving already realised a month, the invoices of the month not yet in, when contracts end and the open alerts. Click a client’s name to open its dashboard.',
    month: 'Month',
    company: 'Company',
    cost: 'Cost {month}',
    lastMonthCost: '{month}: {cost}',
    change: 'Change',
    potentialSaving: 'Potential saving / month',
    realisedSaving: 'Realised saving / month',
    missingInvoices: 'Invoices missing',
    missingTooltip: 'No invoice of the month yet: {operators}',
    contractEndDate: 'Contract / operator ends',
    operatorContractEnds: 'The nearest operator contract ends {date}',
    lastRun: 'Last optimization',
    runStatus: {
      queued: 'queued',
      running: 'running',
      succeeded: 'done',
      failed: 'failed',
    },
    openAlerts: 'Open alerts',
    severity: {
      high: '{n} high',
      medium: '{n} medium',
      low: '{n} low',
    },
    never: 'Never',
    onlyMissing: 'Only with missing invoices',
    search: 'Search by company or business ID',
    export: 'Export to Excel',
    empty: 'No clients to show',
    totalsRow: 'Total',
    open: 'Open the dashboard of {name}',
  },
  fi: {
    help: 'Kaikki hoitamasi asiakkaat: tämän kuukauden laskutetut kustannukset edelliseen kuukauteen verrattuna, avoin säästöpotentiaali ja toteutuneet säästöt kuukaudessa, kuukauden puuttuvat laskut, sopimusten päättyminen ja avoimet hälytykset. Avaa asiakkaan kojelauta napsauttamalla sen nimeä.',
    month: 'Kuukausi',
    company: 'Yritys',
    cost: 'Kustannukset {month}',
    lastMonthCost: '{month}: {cost}',
    change: 'Muutos',
    potentialSaving: 'Säästö\u00adpotentiaali / kk',
    realisedSaving: 'Toteutuneet säästöt / kk',
    missingInvoices: 'Puuttuvat laskut',
    missingTooltip: 'Kuukauden lasku puuttuu: {operators}',
    contractEndDate: 'Sopimus / operaattori päättyy',
    operatorContractEnds: 'Lähin operaattorisopimus päättyy {date}',
    lastRun: 'Viimeisin optimointi',
    runStatus: {
      queued: 'jonossa',
      running: 'käynnissä',
      succeeded: 'valmis',
      failed: 'epäonnistui',
    },
    openAlerts: 'Avoimet hälytykset',
    severity: {
      high: '{n} korkea',
      medium: '{n} keskitaso',
      low: '{n} matala',
    },
    never: 'Ei koskaan',
    onlyMissing: 'Vain puuttuvat laskut',
    search: 'Hae yrityksellä tai Y-tunnuksella',
    export: 'Vie Exceliin',
    empty: 'Ei näytettäviä asiakkaita',
    totalsRow: 'Yhteensä',
    open: 'Avaa asiakkaan {name} kojelauta',
  },
} as const;

for (const lang of ['en', 'fi'] as const) {
  i18n.addResourceBundle(lang, 'translation', { portfolio: TEXTS[lang] }, true, false);
}
