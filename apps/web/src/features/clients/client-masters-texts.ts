import i18n from 'i18next';

/** The client masters' texts (en + fi), loaded with their pages under `clientMasters.*`. */
const TEXTS = {
  en: {
    search: 'Search name, number or email',
    add: 'Add user',
    edit: 'Edit user',
    import: 'Import',
    empty: 'No users yet: add one or import a file',
    name: 'Name',
    phoneNumber: 'Phone number',
    email: 'Email',
    subCompany: 'Sub-company',
    costCenter: 'Cost center',
    mobileBenefit: 'Mobile benefit',
    fiveGPlan: '5G plan',
    allowLogin: 'Allow login',
    permissions: 'Access permissions',
    login: { invited: 'Invited', active: 'Active', inactive: 'Inactive', none: '–' },
    yes: 'Yes',
    no: 'No',
    delete: 'Delete',
    deleteConfirm: 'Delete this user?',
    save: 'Save',
    cancel: 'Cancel',
    importTitle: 'Import users from CSV or Excel',
    importHelp:
      'The first row names the columns: name and phone number, and optionally email, sub-company, cost center, mobile benefit and 5G plan. At most 10000 rows and 5 MB.',
    chooseFile: 'Choose file',
    preview: 'Preview',
    validRows: '{valid} of {rows} rows are valid ({create} new, {update} updates)',
    invalidRows: '{count} rows have errors and will not be imported',
    row: 'Row',
    errors: 'Errors',
    confirm: 'Confirm import',
    nothingValid: 'No valid rows to import',
  },
  fi: {
    search: 'Hae nimellä, numerolla tai sähköpostilla',
    add: 'Lisää käyttäjä',
    edit: 'Muokkaa käyttäjää',
    import: 'Tuo',
    empty: 'Ei vielä käyttäjiä: lisää käyttäjä tai tuo tiedosto',
    name: 'Nimi',
    phoneNumber: 'Puhelinnumero',
    email: 'Sähköposti',
    subCompany: 'Tytäryhtiö',
    costCenter: 'Kustannuspaikka',
    mobileBenefit: 'Puhelinetu',
    fiveGPlan: '5G-liittymä',
    allowLogin: 'Salli kirjautuminen',
    permissions: 'Käyttöoikeudet',
    login: { invited: 'Kutsuttu', active: 'Aktiivinen', inactive: 'Ei aktiivinen', none: '–' },
    yes: 'Kyllä',
    no: 'Ei',
    delete: 'Poista',
    deleteConfirm: 'Poistetaanko käyttäjä?',
    save: 'Tallenna',
    cancel: 'Peruuta',
    importTitle: 'Tuo käyttäjät CSV- tai Excel-tiedostosta',
    importHelp:
      'Ensimmäisellä rivillä ovat sarakkeiden nimet: nimi ja puhelinnumero sekä halutessasi sähköposti, tytäryhtiö, kustannuspaikka, puhelinetu ja 5G-liittymä. Enintään 10000 riviä ja 5 Mt.',
    chooseFile: 'Valitse tiedosto',
    preview: 'Esikatselu',
    validRows: '{valid}/{rows} riviä on kelvollisia ({create} uutta, {update} päivitystä)',
    invalidRows: '{count} rivillä on virheitä, eikä niitä tuoda',
    row: 'Rivi',
    errors: 'Virheet',
    confirm: 'Vahvista tuonti',
    nothingValid: 'Ei kelvollisia rivejä tuotavaksi',
  },
} as const;

export function registerClientMastersTexts(): void {
  for (const lang of ['en', 'fi'] as const) {
    i18n.addResourceBundle(lang, 'translation', { clientMasters: TEXTS[lang] }, true, false);
  }
}
