import { registerTexts } from '../../lib/register-texts';

/**
 * The texts of a client's page and the Add Customer form, in English and Finnish. They join the
 * translations (under `clients`) when the Client Management chunk loads, so the login page, which
 * loads one whole language file, does not carry them.
 */
export const CLIENT_TEXTS = {
  en: {
    sections: {
      profile: 'Profile',
      assignCompanies: 'Assign companies',
    },
    detail: {
      back: 'Back to Client Management',
      notFound: 'Client not found',
    },
    add: {
      title: 'Add customer',
      submit: 'Add customer',
    },
    profile: {
      kind: 'Customer type',
      companyName: 'Company name',
      businessId: 'Business id',
      providerAccountId: 'Provider account id',
      email: 'Email',
      contactNumber: 'Contact number',
      adminName: 'Admin name',
      address: 'Address',
      country: 'Country',
      operatorId: 'Operator',
      profileStatus: 'Status',
      leadStatus: 'Lead status',
      reminderDate: 'Reminder date',
      invoiceUploadMethod: 'Invoice upload method',
      portalUrl: 'Operator portal address',
      portalUsername: 'Operator portal username',
      portalPassword: 'Operator portal password',
      statusSection: 'Status and follow-up',
      uploadSection: 'Invoice upload',
      businessIdHelp: 'Finnish business id: seven digits, a hyphen and the check digit',
      adminNameHelp: "The customer's first user, who gets an activation mail and sets a password",
      emailHelp: "Also the first user's login",
      portalUrlHelp: 'The https address where invoices are fetched',
      passwordKept: 'A password is stored; leave this blank to keep it',
    },
    assign: {
      help: 'The consultant sees and works on only the companies assigned here.',
      companies: 'Companies',
      placeholder: 'Search companies by name or business id',
      noChoices: 'No companies found',
      saved: 'Assigned companies',
      empty: 'No companies assigned yet',
    },
  },
  fi: {
    sections: {
      profile: 'Profiili',
      assignCompanies: 'Määritä yritykset',
    },
    detail: {
      back: 'Takaisin asiakashallintaan',
      notFound: 'Asiakasta ei löytynyt',
    },
    add: {
      title: 'Lisää asiakas',
      submit: 'Lisää asiakas',
    },
    profile: {
      kind: 'Asiakastyyppi',
      companyName: 'Yrityksen nimi',
      businessId: 'Y-tunnus',
      providerAccountId: 'Palveluntarjoajan tunnus',
      email: 'Sähköposti',
      contactNumber: 'Puhelinnumero',
      adminName: 'Pääkäyttäjän nimi',
      address: 'Osoite',
      country: 'Maa',
      operatorId: 'Operaattori',
      profileStatus: 'Tila',
      leadStatus: 'Liidin tila',
      reminderDate: 'Muistutuspäivä',
      invoiceUploadMethod: 'Laskujen lataustapa',
      portalUrl: 'Operaattoriportaalin osoite',
      portalUsername: 'Operaattoriportaalin käyttäjätunnus',
      portalPassword: 'Operaattoriportaalin salasana',
      statusSection: 'Tila ja seuranta',
      uploadSection: 'Laskujen lataus',
      businessIdHelp: 'Suomalainen Y-tunnus: seitsemän numeroa, väliviiva ja tarkistusmerkki',
      adminNameHelp: 'Asiakkaan ensimmäinen käyttäjä, joka saa aktivointiviestin ja asettaa salasanan',
      emailHelp: 'Myös ensimmäisen käyttäjän käyttäjätunnus',
      portalUrlHelp: 'https-osoite, josta laskut haetaan',
      passwordKept: 'Salasana on tallennettu; jätä kenttä tyhjäksi, niin se säilyy',
    },
    assign: {
      help: 'Konsultti näkee ja käsittelee vain tässä määritettyjä yrityksiä.',
      companies: 'Yritykset',
      placeholder: 'Hae yrityksiä nimellä tai Y-tunnuksella',
      noChoices: 'Yrityksiä ei löytynyt',
      saved: 'Määritetyt yritykset',
      empty: 'Yrityksiä ei ole vielä määritetty',
    },
  },
} as const;

registerTexts('clients', CLIENT_TEXTS);
