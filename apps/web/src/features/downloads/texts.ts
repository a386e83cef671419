import i18n from 'i18next';

/** The report archive's texts (glossary: raporttiarkisto, lataukset, ajastettu / valmis / epäonnistui). */
const TEXTS = {
  en: {
    help: 'Large Excel reports are made in the background: schedule one, and it appears below as Ready with its download date. Files are kept for {days} days.',
    newExport: 'Schedule an export',
    report: 'Report',
    reportPlaceholder: 'Choose a report',
    comingSoon: 'coming soon',
    schedule: 'Schedule',
    scheduled: 'The export is scheduled',
    list: 'Your exports',
    client: 'Client',
    period: 'Period',
    status: 'Status',
    statuses: { scheduled: 'Scheduled', ready: 'Ready', failed: 'Failed' },
    requestedAt: 'Requested',
    readyAt: 'Download date',
    expiresAt: 'Kept until',
    rows: 'Rows',
    size: 'Size',
    download: 'Download',
    delete: 'Delete',
    deleteConfirm: 'Delete this export and its file?',
    empty: 'No exports yet: schedule one above',
    chooseReport: 'Report is required',
  },
  fi: {
    help: 'Suuret Excel-raportit muodostetaan taustalla: ajasta raportti, ja se näkyy alla valmiina latauspäivineen. Tiedostot säilytetään {days} päivää.',
    newExport: 'Ajasta raportti',
    report: 'Raportti',
    reportPlaceholder: 'Valitse raportti',
    comingSoon: 'tulossa pian',
    schedule: 'Ajasta',
    scheduled: 'Raportti on ajastettu',
    list: 'Raporttisi',
    client: 'Asiakas',
    period: 'Ajanjakso',
    status: 'Tila',
    statuses: { scheduled: 'Ajastettu', ready: 'Valmis', failed: 'Epäonnistui' },
    requestedAt: 'Pyydetty',
    readyAt: 'Latauspäivä',
    expiresAt: 'Säilytetään',
    rows: 'Rivejä',
    size: 'Koko',
    download: 'Lataa',
    delete: 'Poista',
    deleteConfirm: 'Poistetaanko raportti ja sen tiedosto?',
    empty: 'Ei vielä raportteja: ajasta raportti yllä',
    chooseReport: 'Raportti on pakollinen',
  },
} as const;

for (const lang of ['en', 'fi'] as const) {
  i18n.addResourceBundle(lang, 'translation', { downloads: TEXTS[lang] }, true, false);
}
