import { registerTexts } from '../../lib/register-texts';

/** Plan Details' texts (en + fi), loaded with the page under `planDetails.*`. */
const TEXTS = {
  en: {
    search: 'Search number, user or plan',
    empty: 'No subscriptions yet: they appear here from the operators’ invoices',
    phoneNumber: 'Phone number',
    user: 'User',
    operator: 'Operator',
    subCompanyCostCenter: 'Sub-company / cost center',
    plan: 'Plan',
    listPrice: 'List price',
    contractPrice: 'Contract price',
    noPlan: 'No plan',
    edit: 'Edit',
    editTitle: 'Edit Plan Details',
    subscription: 'Subscription',
    customerSpecific: 'Customer-specific',
    listPriceShort: 'list price {price}',
    contractPriceShort: 'contract price {price}',
    contractPriceHelp_one:
      'The company’s price of this plan; leave blank to use the list price. It applies only to this subscription.',
    contractPriceHelp_other:
      'The company’s price of this plan; leave blank to use the list price. It applies to all {count} of the company’s subscriptions on this plan.',
    contractPriceInvalid: 'Enter a non-negative amount in euros with at most 2 decimals, e.g. 12.50',
    plansError: 'The plans could not be loaded',
    reoptimizationQueued: 'Re-optimization of the company’s subscriptions was queued',
  },
  fi: {
    search: 'Hae numerolla, käyttäjällä tai liittymällä',
    empty: 'Ei vielä liittymiä: ne tulevat tänne operaattoreiden laskuilta',
    phoneNumber: 'Puhelinnumero',
    user: 'Käyttäjä',
    operator: 'Operaattori',
    subCompanyCostCenter: 'Tytäryhtiö / kustannuspaikka',
    plan: 'Liittymätyyppi',
    listPrice: 'Listahinta',
    contractPrice: 'Sopimushinta',
    noPlan: 'Ei liittymätyyppiä',
    edit: 'Muokkaa',
    editTitle: 'Muokkaa liittymän tietoja',
    subscription: 'Liittymä',
    customerSpecific: 'Asiakaskohtainen',
    listPriceShort: 'listahinta {price}',
    contractPriceShort: 'sopimushinta {price}',
    contractPriceHelp_one:
      'Yrityksen hinta tälle liittymätyypille; jätä tyhjäksi, niin listahinta on voimassa. Hinta koskee vain tätä liittymää.',
    contractPriceHelp_other:
      'Yrityksen hinta tälle liittymätyypille; jätä tyhjäksi, niin listahinta on voimassa. Hinta koskee kaikkia yrityksen {count} liittymää, joilla on tämä liittymätyyppi.',
    contractPriceInvalid: 'Anna ei-negatiivinen summa euroina, enintään 2 desimaalia, esimerkiksi 12,50',
    plansError: 'Liittymätyyppejä ei voitu ladata',
    reoptimizationQueued: 'Yrityksen liittymien uudelleenoptimointi on lisätty jonoon',
  },
} as const;

export function registerPlanDetailsTexts(): void {
  registerTexts('planDetails', TEXTS);
}
