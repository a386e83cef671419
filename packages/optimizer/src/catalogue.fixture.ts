/**
 * Real Finnish business plans (illustrative list prices €/month VAT 0 %, the same figures as the app's
 * seed catalogue) as optimizer plans, for the README's worked examples and the tests.
 */
import type { Plan } from './types.js';

export const ELISA = 1;
export const TELIA = 2;
export const DNA = 3;

const flat = (
  id: number,
  operatorId: number,
  name: string,
  speedMbps: number,
  feeCents: number,
  euDataGb: number,
): Plan => ({
  id,
  operatorId,
  name,
  monthlyFeeCents: feeCents,
  dataMb: null,
  speedMbps,
  voiceMinutes: null,
  sms: null,
  perMinuteCents: 0,
  perSmsCents: 0,
  exceedingDataCentsPerGb: null,
  euDataGb,
  nordicBalticIncluded: true,
  euIncluded: true,
  domesticOnly: false,
  considerForOptimization: true,
  customerSpecific: false,
});

export const ELISA_10M = flat(1, ELISA, 'Elisa Yritysliittymä 4G (10M)', 10, 1590, 18);
export const ELISA_50M = flat(2, ELISA, 'Elisa Yritysliittymä 4G (50M)', 50, 2090, 26);
export const ELISA_100M = flat(3, ELISA, 'Elisa Yritysliittymä 5G (100M)', 100, 2390, 32);
export const ELISA_300M = flat(4, ELISA, 'Elisa Yritysliittymä 5G (300M)', 300, 2790, 37);
export const ELISA_1000M = flat(5, ELISA, 'Elisa Yritysliittymä 5G (1000M)', 1000, 3390, 45);
/** Pay per use: 4.90 € a month, 0.069 € a minute and an SMS, 1 GB included then 0.99 € a GB. */
export const ELISA_PERUS: Plan = {
  ...flat(6, ELISA, 'Elisa Yritysliittymä Perus', 10, 490, 2),
  dataMb: 1024,
  voiceMinutes: 0,
  sms: 0,
  perMinuteCents: 6.9,
  perSmsCents: 6.9,
  exceedingDataCentsPerGb: 99,
};
/** A client's own contract price for the 50M plan (customer specific). */
export const ELISA_50M_CONTRACT: Plan = {
  ...ELISA_50M,
  id: 7,
  monthlyFeeCents: 1750,
  customerSpecific: true,
};

export const TELIA_50M = flat(11, TELIA, 'Telia Yritys Mobiili 4G 50M', 50, 2090, 25);
export const TELIA_100M = flat(12, TELIA, 'Telia Yritys Mobiili 5G 100M', 100, 2390, 28);
export const TELIA_300M = flat(13, TELIA, 'Telia Yritys Mobiili 5G 300M', 300, 2790, 33);
export const TELIA_1000M = flat(14, TELIA, 'Telia Yritys Mobiili 5G 1000M', 1000, 3490, 40);
export const TELIA_PRO_EU = flat(15, TELIA, 'Telia Pro EU 5G 1000M', 1000, 4490, 60);

export const DNA_10M = flat(21, DNA, 'DNA Yritys Liittymä 4G 10M', 10, 1390, 5.4);
export const DNA_50M = flat(22, DNA, 'DNA Yritys Liittymä 4G 50M', 50, 1990, 20);
export const DNA_100M = flat(23, DNA, 'DNA Yritys Liittymä 5G 100M', 100, 2290, 25);
export const DNA_400M = flat(24, DNA, 'DNA Yritys Liittymä 5G 400M', 400, 2690, 32);
export const DNA_1000M = flat(25, DNA, 'DNA Yritys Liittymä 5G 1000M', 1000, 3490, 47.7);

export const CATALOGUE: Plan[] = [
  ELISA_10M,
  ELISA_50M,
  ELISA_100M,
  ELISA_300M,
  ELISA_1000M,
  ELISA_PERUS,
  ELISA_50M_CONTRACT,
  TELIA_50M,
  TELIA_100M,
  TELIA_300M,
  TELIA_1000M,
  TELIA_PRO_EU,
  DNA_10M,
  DNA_50M,
  DNA_100M,
  DNA_400M,
  DNA_1000M,
];
