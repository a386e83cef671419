import { registerTexts } from '../../lib/register-texts';

/** Consultant Billing's texts (glossary: konsultti, laskutus, Y-tunnus, lisäkäyttäjät). */
const TEXTS = {
  en: {
    help: "What each consultant is billed for the month, per company it manages, from the consultant's billing plan: plans billed, additional users, invoices retrieved automatically, and the set-up fee for a company new in the month.",
    month: 'Month',
    consultant: 'Consultant',
    allConsultants: 'All consultants',
    company: 'Company',
    businessId: 'Business ID',
    plans: 'Plans',
    additionalUsers: 'Additional users',
    automatedUploads: 'Automated uploads',
    isNew: 'Is new',
    yes: 'Yes',
    no: 'No',
    billingPlan: 'Billing plan',
    total: 'Total',
    totalsRow: 'Total',
    noPlan: 'No billing plan',
    search: 'Search by company or business ID',
    export: 'Export to Excel',
    empty: 'No companies to bill for this month',
    breakdown: 'Plans {plans} · additional users {users} · automated uploads {uploads} · set-up {setUp}',
  },
  fi: {
    help: 'Mitä kultakin konsultilta laskutetaan kuukaudelta kunkin sen hallinnoiman yrityksen osalta konsultin laskutusmallin mukaan: laskutetut liittymät, lisäkäyttäjät, automaattisesti noudetut laskut ja käyttöönottomaksu kuukauden aikana lisätystä yrityksestä.',
    month: 'Kuukausi',
    consultant: 'Konsultti',
    allConsultants: 'Kaikki konsultit',
    company: 'Yritys',
    businessId: 'Y-tunnus',
    plans: 'Liittymiä',
    additionalUsers: 'Lisäkäyttäjiä',
    automatedUploads: 'Automaattiset lataukset',
    isNew: 'Uusi',
    yes: 'Kyllä',
    no: 'Ei',
    billingPlan: 'Laskutusmalli',
    total: 'Yhteensä',
    totalsRow: 'Yhteensä',
    noPlan: 'Ei laskutusmallia',
    search: 'Hae yrityksellä tai Y-tunnuksella',
    export: 'Vie Exceliin',
    empty: 'Ei laskutettavia yrityksiä tälle kuukaudelle',
    breakdown:
      'Liittymät {plans} · lisäkäyttäjät {users} · automaattiset lataukset {uploads} · käyttöönotto {setUp}',
  },
} as const;

registerTexts('consultantBilling', TEXTS);
