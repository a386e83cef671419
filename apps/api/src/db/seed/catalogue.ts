import { and, eq, inArray, isNull } from 'drizzle-orm';
import { contractCosts, type PlanType, type UsageType, type Zone } from '@kulu/shared';
import {
  basePlanGroups,
  clientBillingPlans,
  clientContracts,
  clients,
  costCategories,
  costGroups,
  countries,
  currencies,
  operators,
  planGroups,
  plans,
  settings,
} from '../schema/index.js';
import type { Tx } from '../client.js';
import type { Deps } from '../../types.js';

/**
 * The Finnish market as master data (issue 3; figures from shared/finnish-operators.md).
 *
 * Prices are ILLUSTRATIVE business list prices, €/month excluding VAT (alv 0 %), estimated within
 * the operators' published ranges; each client's contract prices override them (customer-specific
 * plan rows). EU/EEA data is the fair-use allowance the operator prints or, failing that,
 * 2 × fee ÷ the wholesale cap.
 *
 * Runs at every start (bootstrap), also without demo data. Inserts are ON CONFLICT DO NOTHING
 * against the masters' unique indexes, and the whole set is applied once per CATALOGUE_VERSION
 * (kept in `settings`), so rows an admin has edited or deleted are not brought back on the next
 * start; raise the version when the catalogue gains rows.
 */
export const CATALOGUE_VERSION = 1;
const CATALOGUE_KEY = 'seed.catalogue';
const DEMO_CATALOGUE_KEY = 'seed.demoCatalogue';

export const SEED_COUNTRIES: Array<[name: string, code: string, zone: Zone]> = [
  ['Finland', 'FI', 'domestic'],
  ['Sweden', 'SE', 'nordic_baltic'],
  ['Norway', 'NO', 'nordic_baltic'],
  ['Denmark', 'DK', 'nordic_baltic'],
  ['Estonia', 'EE', 'nordic_baltic'],
  ['Latvia', 'LV', 'nordic_baltic'],
  ['Lithuania', 'LT', 'nordic_baltic'],
  ['Iceland', 'IS', 'eu'],
  ['Germany', 'DE', 'eu'],
  ['France', 'FR', 'eu'],
  ['Spain', 'ES', 'eu'],
  ['Italy', 'IT', 'eu'],
  ['Netherlands', 'NL', 'eu'],
  ['Belgium', 'BE', 'eu'],
  ['Austria', 'AT', 'eu'],
  ['Poland', 'PL', 'eu'],
  ['Portugal', 'PT', 'eu'],
  ['Ireland', 'IE', 'eu'],
  ['Greece', 'GR', 'eu'],
  ['Czechia', 'CZ', 'eu'],
  ['Switzerland', 'CH', 'world'],
  ['United Kingdom', 'GB', 'world'],
  ['United States', 'US', 'world'],
];

export const SEED_COST_GROUPS: Array<[name: string, isCurrentPlan: boolean]> = [
  ['Monthly fees', true],
  ['Usage', false],
  ['One-off charges', false],
  ['Discounts and credits', false],
];

export const SEED_COST_CATEGORIES: Array<
  [name: string, nameFi: string, usage: UsageType, zone: Zone, group: string]
> = [
  ['Monthly fee', 'Kuukausimaksu', 'monthly_fee', 'domestic', 'Monthly fees'],
  ['Domestic calls', 'Kotimaan puhelut', 'voice', 'domestic', 'Usage'],
  ['Domestic SMS', 'Kotimaan tekstiviestit', 'sms', 'domestic', 'Usage'],
  ['Domestic MMS', 'Kotimaan multimediaviestit', 'mms', 'domestic', 'Usage'],
  ['Domestic data', 'Kotimaan tiedonsiirto', 'data', 'domestic', 'Usage'],
  ['Service number calls', 'Palvelunumeropuhelut', 'voice', 'domestic', 'Usage'],
  ['Nordic and Baltic calls', 'Puhelut Pohjoismaissa ja Baltiassa', 'voice', 'nordic_baltic', 'Usage'],
  ['Nordic and Baltic SMS', 'Tekstiviestit Pohjoismaissa ja Baltiassa', 'sms', 'nordic_baltic', 'Usage'],
  ['Nordic and Baltic data', 'Tiedonsiirto Pohjoismaissa ja Baltiassa', 'data', 'nordic_baltic', 'Usage'],
  ['EU/EEA calls', 'Puhelut EU/ETA-alueella', 'voice', 'eu', 'Usage'],
  ['EU/EEA SMS', 'Tekstiviestit EU/ETA-alueella', 'sms', 'eu', 'Usage'],
  ['EU/EEA data', 'Tiedonsiirto EU/ETA-alueella', 'data', 'eu', 'Usage'],
  ['Rest of the world calls', 'Puhelut muualla maailmassa', 'voice', 'world', 'Usage'],
  ['Rest of the world SMS', 'Tekstiviestit muualla maailmassa', 'sms', 'world', 'Usage'],
  ['Rest of the world data', 'Tiedonsiirto muualla maailmassa', 'data', 'world', 'Usage'],
  ['One-off charges', 'Kertamaksut', 'one_off', 'domestic', 'One-off charges'],
  ['Discounts and credits', 'Hyvitykset ja alennukset', 'discount', 'domestic', 'Discounts and credits'],
];

interface SeedPlan {
  operator: 'Elisa' | 'Telia' | 'DNA';
  name: string;
  group: string;
  base: '4G' | '5G' | 'pay per use';
  type: PlanType;
  speed: number;
  /** €/month, VAT 0 %. */
  price: string;
  /** EU/EEA data GB/month; null = no EU data in the fee (day package). */
  euGb: string | null;
  /** Pay per use: €/min, €/SMS, included MB and € per GB beyond. */
  perUse?: { min: string; sms: string; dataMb?: number; overGb?: string };
}

const flat = (
  operator: SeedPlan['operator'],
  name: string,
  group: string,
  speed: number,
  price: string,
  euGb: string,
): SeedPlan => ({
  operator,
  name,
  group,
  base: speed >= 100 ? '5G' : '4G',
  type: 'flat_rate',
  speed,
  price,
  euGb,
});

export const SEED_PLANS: SeedPlan[] = [
  flat('Elisa', 'Elisa Yritysliittymä 4G (10M)', 'Elisa Yritysliittymä', 10, '15.90', '18'),
  flat('Elisa', 'Elisa Yritysliittymä 4G (50M)', 'Elisa Yritysliittymä', 50, '20.90', '26'),
  flat('Elisa', 'Elisa Yritysliittymä 5G (100M)', 'Elisa Yritysliittymä', 100, '23.90', '32'),
  flat('Elisa', 'Elisa Yritysliittymä 5G (300M)', 'Elisa Yritysliittymä', 300, '27.90', '37'),
  flat('Elisa', 'Elisa Yritysliittymä 5G (1000M)', 'Elisa Yritysliittymä', 1000, '33.90', '45'),
  {
    operator: 'Elisa',
    name: 'Elisa Yritysliittymä Perus',
    group: 'Elisa Yritysliittymä Perus',
    base: 'pay per use',
    type: 'pay_per_use',
    speed: 10,
    price: '4.90',
    euGb: '2',
    perUse: { min: '0.069', sms: '0.069', dataMb: 1024, overGb: '0.99' },
  },
  {
    operator: 'Telia',
    name: 'Telia Perus Yrityksille',
    group: 'Telia Perus Yrityksille',
    base: 'pay per use',
    type: 'pay_per_use',
    speed: 10,
    price: '6.90',
    euGb: null,
    perUse: { min: '0.07', sms: '0.07' },
  },
  flat('Telia', 'Telia Yritys Mobiili 4G 50M', 'Telia Yritys Mobiili', 50, '20.90', '25'),
  flat('Telia', 'Telia Yritys Mobiili 5G 100M', 'Telia Yritys Mobiili', 100, '23.90', '28'),
  flat('Telia', 'Telia Yritys Mobiili 5G 300M', 'Telia Yritys Mobiili', 300, '27.90', '33'),
  flat('Telia', 'Telia Yritys Mobiili 5G 1000M', 'Telia Yritys Mobiili', 1000, '34.90', '40'),
  flat('Telia', 'Telia Pro EU 5G 1000M', 'Telia Pro EU', 1000, '44.90', '60'),
  flat('DNA', 'DNA Yritys Liittymä 4G 10M', 'DNA Yritys Liittymä', 10, '13.90', '5.4'),
  flat('DNA', 'DNA Yritys Liittymä 4G 50M', 'DNA Yritys Liittymä', 50, '19.90', '20'),
  flat('DNA', 'DNA Yritys Liittymä 5G 100M', 'DNA Yritys Liittymä', 100, '22.90', '25'),
  flat('DNA', 'DNA Yritys Liittymä 5G 400M', 'DNA Yritys Liittymä', 400, '26.90', '32'),
  flat('DNA', 'DNA Yritys Liittymä 5G 1000M', 'DNA Yritys Liittymä', 1000, '34.90', '47.7'),
];

/** Demo clients' own contract prices (customer-specific rows), by business id. */
export const DEMO_CONTRACT_PRICES: Array<{ businessId: string; plan: string; contractPrice: string }> = [
  { businessId: '2345678-0', plan: 'Elisa Yritysliittymä 4G (50M)', contractPrice: '17.50' },
  { businessId: '2345678-0', plan: 'Elisa Yritysliittymä 5G (100M)', contractPrice: '19.90' },
  { businessId: '2345678-0', plan: 'Telia Yritys Mobiili 5G 100M', contractPrice: '20.40' },
  { businessId: '0737546-2', plan: 'DNA Yritys Liittymä 4G 10M', contractPrice: '11.50' },
  { businessId: '0737546-2', plan: 'DNA Yritys Liittymä 4G 50M', contractPrice: '16.90' },
  { businessId: '0737546-2', plan: 'DNA Yritys Liittymä 5G 100M', contractPrice: '18.90' },
];

/**
 * The number of plans the demo clients' contracts are billed for, by business id; the demo consultant
 * firm (3141593-8) has none of its own: it is billed per company it manages (Consultant Billing).
 */
export const DEMO_CONTRACT_PLANS: Record<string, number> = {
  '2345678-0': 160,
  '0737546-2': 45,
  '3141593-8': 0,
};

/** The provider's own price list for the demo (its clients' billing plans). */
export const DEMO_BILLING_PLANS = [
  {
    name: 'Kulu Standard 12 kk',
    contractLengthMonths: 12,
    advancePaymentDiscountPercent: '5.00',
    costPerPlan: '1.90',
    setUpFee: '490.00',
    setUpFeePerCompany: '90.00',
    additionalUsersFee: '9.00',
    automatedInvoiceUploadFee: '19.00',
    onDemandSupportFee: '120.00',
    adminFee: '29.00',
    companyAdditionalUsersFee: '5.00',
  },
  {
    name: 'Kulu Pro 36 kk',
    contractLengthMonths: 36,
    advancePaymentDiscountPercent: '10.00',
    costPerPlan: '1.50',
    setUpFee: '290.00',
    setUpFeePerCompany: '60.00',
    additionalUsersFee: '7.00',
    automatedInvoiceUploadFee: '0.00',
    onDemandSupportFee: '110.00',
    adminFee: '19.00',
    companyAdditionalUsersFee: '4.00',
  },
];

async function versionOf(tx: Tx, key: string): Promise<number> {
  const [row] = await tx.select().from(settings).where(eq(settings.key, key));
  return (row?.value as { version?: number } | undefined)?.version ?? 0;
}

async function setVersion(tx: Tx, key: string, version: number) {
  await tx
    .insert(settings)
    .values({ key, value: { version } })
    .onConflictDoUpdate({ target: settings.key, set: { value: { version }, updatedAt: new Date() } });
}

const byName = <T extends { id: number; name: string }>(rows: T[]) =>
  new Map(rows.map((r) => [r.name, r.id]));

/** Applies the catalogue when this database has an older version of it. Returns what it did. */
export async function seedCatalogue(deps: Deps): Promise<string | null> {
  return deps.database.db.transaction(async (tx) => {
    if ((await versionOf(tx, CATALOGUE_KEY)) >= CATALOGUE_VERSION) return null;
    const ops = byName(await tx.select({ id: operators.id, name: operators.name }).from(operators));

    await tx
      .insert(countries)
      .values(SEED_COUNTRIES.map(([name, code, zone]) => ({ name, code, zone })))
      .onConflictDoNothing();
    await tx
      .insert(currencies)
      .values({ name: 'Euro', abbreviation: 'EUR', symbol: '€' })
      .onConflictDoNothing();
    await tx
      .insert(costGroups)
      .values(SEED_COST_GROUPS.map(([name, isCurrentPlan]) => ({ name, isCurrentPlan })))
      .onConflictDoNothing();
    const groups = byName(await tx.select({ id: costGroups.id, name: costGroups.name }).from(costGroups));
    await tx
      .insert(costCategories)
      .values(
        SEED_COST_CATEGORIES.map(([name, nameFi, usageType, zone, group]) => ({
          name,
          nameFi,
          usageType,
          zone,
          costGroupId: groups.get(group) ?? null,
        })),
      )
      .onConflictDoNothing();
    const [monthlyFee] = await tx
      .select({ id: costCategories.id })
      .from(costCategories)
      .where(and(eq(costCategories.name, 'Monthly fee'), isNull(costCategories.operatorId)));

    const plansOf = SEED_PLANS.filter((p) => ops.has(p.operator));
    const groupRows = new Map<string, { operator: string; type: PlanType }>();
    const baseRows = new Map<string, { operator: string; type: PlanType }>();
    for (const p of plansOf) {
      groupRows.set(p.group, { operator: p.operator, type: p.type });
      baseRows.set(`${p.operator} ${p.base}`, { operator: p.operator, type: p.type });
    }
    const groupValues = (m: typeof groupRows) =>
      [...m].map(([name, g]) => ({
        name,
        operatorId: ops.get(g.operator)!,
        planType: g.type,
        costCategoryId: monthlyFee?.id ?? null,
        automaticCategorization: true,
      }));
    if (groupRows.size) await tx.insert(planGroups).values(groupValues(groupRows)).onConflictDoNothing();
    if (baseRows.size) await tx.insert(basePlanGroups).values(groupValues(baseRows)).onConflictDoNothing();
    const pg = byName(await tx.select({ id: planGroups.id, name: planGroups.name }).from(planGroups));
    const bpg = byName(
      await tx.select({ id: basePlanGroups.id, name: basePlanGroups.name }).from(basePlanGroups),
    );

    if (plansOf.length) {
      await tx
        .insert(plans)
        .values(
          plansOf.map((p) => {
            const euData = p.euGb !== null;
            return {
              name: p.name,
              operatorId: ops.get(p.operator)!,
              planType: p.type,
              planGroupId: pg.get(p.group) ?? null,
              basePlanGroupId: bpg.get(`${p.operator} ${p.base}`) ?? null,
              listPrice: p.price,
              unlimited: !p.perUse?.dataMb,
              dataSlabMb: p.perUse?.dataMb ?? null,
              dataSpeedMbps: p.speed,
              exceedingDataCost: p.perUse?.overGb ?? null,
              euDataGb: p.euGb,
              voiceListPrice: p.perUse?.min ?? null,
              smsListPrice: p.perUse?.sms ?? null,
              perMinuteCost: p.perUse?.min ?? null,
              smsCost: p.perUse?.sms ?? null,
              // Roam like at home: calls and SMS at the domestic price in the EU/EEA, Nordic and Baltic too.
              voiceInEu: true,
              smsInEu: true,
              dataInEu: euData,
              voiceInNordicBaltic: true,
              smsInNordicBaltic: true,
              dataInNordicBaltic: euData,
              coverage: 'no_limitations' as const,
              scope: 'general' as const,
              considerForOptimization: true,
            };
          }),
        )
        .onConflictDoNothing();
    }
    await setVersion(tx, CATALOGUE_KEY, CATALOGUE_VERSION);
    return `seeded catalogue v${CATALOGUE_VERSION}`;
  });
}

/** Demo only: the demo clients' own contract prices and the provider's billing plans. */
export async function seedDemoCatalogue(deps: Deps): Promise<string | null> {
  return deps.database.db.transaction(async (tx) => {
    if ((await versionOf(tx, DEMO_CATALOGUE_KEY)) >= CATALOGUE_VERSION) return null;
    const demoClients = await tx
      .select({ id: clients.id, businessId: clients.businessId })
      .from(clients)
      .where(inArray(clients.businessId, Object.keys(DEMO_CONTRACT_PLANS)));
    if (!demoClients.length) return null;
    const clientOf = new Map(demoClients.map((c) => [c.businessId, c.id]));
    const general = await tx.select().from(plans).where(eq(plans.scope, 'general'));
    const rows = DEMO_CONTRACT_PRICES.flatMap((d) => {
      const base = general.find((p) => p.name === d.plan);
      const clientId = clientOf.get(d.businessId);
      if (!base || !clientId) return [];
      const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = base;
      return [{ ...rest, contractPrice: d.contractPrice, scope: 'customer_specific' as const, clientId }];
    });
    if (rows.length) await tx.insert(plans).values(rows).onConflictDoNothing();

    await tx.insert(clientBillingPlans).values(DEMO_BILLING_PLANS).onConflictDoNothing();
    const [standard] = await tx
      .select()
      .from(clientBillingPlans)
      .where(eq(clientBillingPlans.name, DEMO_BILLING_PLANS[0].name));
    if (standard) {
      // The demo contracts: billed on the standard plan for their number of plans, with the fees
      // of Contract management's formula; the clients are sold on it too.
      const open = await tx
        .select({
          id: clientContracts.id,
          clientId: clientContracts.clientId,
          units: clientContracts.units,
          billingCycle: clientContracts.billingCycle,
        })
        .from(clientContracts)
        .where(
          and(
            isNull(clientContracts.billingPlanId),
            inArray(
              clientContracts.clientId,
              demoClients.map((c) => c.id),
            ),
          ),
        );
      for (const c of open) {
        const businessId = demoClients.find((d) => d.id === c.clientId)!.businessId;
        const numberOfPlans = DEMO_CONTRACT_PLANS[businessId] ?? 0;
        await tx
          .update(clientContracts)
          .set({
            billingPlanId: standard.id,
            numberOfPlans,
            ...contractCosts({ ...c, numberOfPlans }, standard),
          })
          .where(eq(clientContracts.id, c.id));
        await tx
          .update(clients)
          .set({ billingPlanId: standard.id })
          .where(and(eq(clients.id, c.clientId), isNull(clients.billingPlanId)));
      }
    }
    await setVersion(tx, DEMO_CATALOGUE_KEY, CATALOGUE_VERSION);
    return 'seeded demo contract prices and billing plans';
  });
}
