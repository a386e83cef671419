import { registerTexts } from '../lib/register-texts';

/**
 * The texts of the Operator contract details section (Client Management and My Profile), in
 * English and Finnish (operaattorisopimus, myyntiyhteyshenkilö, asiakirja). They join the
 * translations under `clients` when the chunk loads.
 */
export const OPERATOR_CONTRACT_TEXTS = {
  en: {
    sections: { operatorContracts: 'Operator contract details' },
    operatorContracts: {
      empty: 'No operator contracts yet',
      emptyHelp: 'Add the operators the company has a contract with.',
      addOperator: 'Add operator contract',
      chooseOperator: 'Choose an operator',
      operator: 'Operator',
      salesContactName: 'Operator sales contact person',
      uploadInvoiceReminder: 'Upload invoice reminder',
      uploadInvoiceReminderHelp:
        'Remind the company when no invoice of this operator is uploaded for the month',
      contractStartDate: 'Contract start date',
      contractEndDate: 'Contract end date',
      contractEndReminder: 'Contract end date reminder',
      contractEndReminderHelp:
        'A reminder is mailed to the company admin and the provider on this day; it must be after the start date and before the end date.',
      period: '{start} – {end}',
      noPeriod: 'No contract dates',
      documentCount_one: '{count} document',
      documentCount_other: '{count} documents',
      save: 'Save',
      reset: 'Cancel changes',
      loadFailed: 'Operator contracts could not be loaded',
      retry: 'Retry',
    },
    documents: {
      title: 'Documents',
      empty: 'No documents yet',
      upload: 'Upload document',
      uploadTitle: 'Upload document',
      name: 'Document name',
      nameHelp: 'Letters, numbers and spaces only',
      file: 'File',
      chooseFile: 'Choose file',
      fileHelp: 'doc, docx, xls, xlsx, csv or pdf, at most 10 MB',
      type: 'Type',
      size: 'Size',
      uploadedAt: 'Uploaded',
      uploadedBy: 'Uploaded by',
      download: 'Download',
      delete: 'Delete',
      deleteConfirm: 'Delete the document "{name}"? This cannot be undone.',
      cancel: 'Cancel',
      submit: 'Upload',
      actions: 'Actions',
    },
  },
  fi: {
    sections: { operatorContracts: 'Operaattorisopimukset' },
    operatorContracts: {
      empty: 'Ei vielä operaattorisopimuksia',
      emptyHelp: 'Lisää operaattorit, joiden kanssa yrityksellä on sopimus.',
      addOperator: 'Lisää operaattorisopimus',
      chooseOperator: 'Valitse operaattori',
      operator: 'Operaattori',
      salesContactName: 'Operaattorin myyntiyhteyshenkilö',
      uploadInvoiceReminder: 'Laskujen latausmuistutus',
      uploadInvoiceReminderHelp:
        'Muistuta yritystä, jos tämän operaattorin laskua ei ole ladattu kuukauden aikana',
      contractStartDate: 'Sopimuksen alkamispäivä',
      contractEndDate: 'Sopimuksen päättymispäivä',
      contractEndReminder: 'Sopimuksen päättymismuistutus',
      contractEndReminderHelp:
        'Muistutus lähetetään sähköpostilla yrityksen pääkäyttäjälle ja palveluntarjoajalle tänä päivänä; sen on oltava alkamispäivän jälkeen ja ennen päättymispäivää.',
      period: '{start} – {end}',
      noPeriod: 'Ei sopimuspäiviä',
      documentCount_one: '{count} asiakirja',
      documentCount_other: '{count} asiakirjaa',
      save: 'Tallenna',
      reset: 'Peruuta muutokset',
      loadFailed: 'Operaattorisopimuksia ei voitu ladata',
      retry: 'Yritä uudelleen',
    },
    documents: {
      title: 'Asiakirjat',
      empty: 'Ei vielä asiakirjoja',
      upload: 'Lataa asiakirja',
      uploadTitle: 'Lataa asiakirja',
      name: 'Asiakirjan nimi',
      nameHelp: 'Vain kirjaimia, numeroita ja välilyöntejä',
      file: 'Tiedosto',
      chooseFile: 'Valitse tiedosto',
      fileHelp: 'doc, docx, xls, xlsx, csv tai pdf, enintään 10 Mt',
      type: 'Tyyppi',
      size: 'Koko',
      uploadedAt: 'Ladattu',
      uploadedBy: 'Lataaja',
      download: 'Lataa',
      delete: 'Poista',
      deleteConfirm: 'Poistetaanko asiakirja ”{name}”? Tätä ei voi perua.',
      cancel: 'Peruuta',
      submit: 'Lataa',
      actions: 'Toiminnot',
    },
  },
} as const;

/** Adds the texts once per language (deep merge, existing keys kept). */
export function registerOperatorContractTexts(): void {
  registerTexts('clients', OPERATOR_CONTRACT_TEXTS);
}

registerOperatorContractTexts();
