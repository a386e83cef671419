import type { Plan } from './types.js';

/**
 * The fields of a plan master row (`@kulu/shared`'s plan entity: money as decimal strings in euros,
 * VAT 0 %) that the optimizer reads. Declared here so that the package keeps no dependencies.
 */
export interface PlanMasterRow {
  id: number;
  name: string;
  operatorId: number;
  listPrice: string;
  contractPrice: string | null;
  unlimited: boolean;
  dataSlabMb: number | null;
  dataSpeedMbps: number | null;
  exceedingDataCost: string | null;
  euDataGb: string | null;
  voiceListPrice: string | null;
  voiceContractPrice: string | null;
  smsListPrice: string | null;
  smsContractPrice: string | null;
  packetPlanSize: number | null;
  perMinuteCost: string | null;
  additionalMinuteCost: string | null;
  smsCost: string | null;
  smsAddonSize: number | null;
  dataInNordicBaltic: boolean;
  voiceInNordicBaltic: boolean;
  dataInEu: boolean;
  voiceInEu: boolean;
  coverage: 'no_limitations' | 'domestic_only';
  scope: 'general' | 'customer_specific';
  considerForOptimization: boolean;
}

/** Euros as a decimal string ("0.0690") to cents, keeping fractions of a cent to 1/100 (6.9). */
export function eurosToCents(euros: string): number {
  const n = Number(euros);
  if (!Number.isFinite(n)) throw new RangeError(`not an amount of euros: "${euros}"`);
  return Math.round(n * 10_000) / 100;
}

const cents = (euros: string | null) => (euros === null ? null : eurosToCents(euros));

/**
 * A plan master row as an optimizer plan:
 * - fee: the contract price where the row has one, else the list price, rounded to whole cents;
 * - data: `unlimited` → unlimited, else the data slab (none = 0 MB); exceeding-data cost € per GB;
 *   speed: none recorded = 0 (then the plan suits no speed tier and is never recommended);
 * - voice: a packet plan includes `packetPlanSize` minutes and charges the additional-minute cost
 *   beyond; otherwise a voice price (contract, list, per-minute cost in that order) makes every minute
 *   paid; with no price at all, calls are unlimited (flat rate);
 * - SMS: an SMS price (contract, list, SMS cost) makes SMS beyond `smsAddonSize` paid, else unlimited;
 * - roaming: a region counts as included when calls or data are included there; the EU/EEA data
 *   allowance applies only when data is included in the EU (else 0 GB, so EU data pays the surcharge);
 * - `coverage: 'domestic_only'` → domestic only; `scope: 'customer_specific'` → customer specific.
 */
export function planFromMaster(row: PlanMasterRow): Plan {
  const voicePrice = cents(row.voiceContractPrice ?? row.voiceListPrice ?? row.perMinuteCost);
  const smsPrice = cents(row.smsContractPrice ?? row.smsListPrice ?? row.smsCost);
  const packet = row.packetPlanSize !== null;
  return {
    id: row.id,
    operatorId: row.operatorId,
    name: row.name,
    monthlyFeeCents: Math.round(eurosToCents(row.contractPrice ?? row.listPrice)),
    dataMb: row.unlimited ? null : (row.dataSlabMb ?? 0),
    speedMbps: row.dataSpeedMbps ?? 0,
    voiceMinutes: packet ? row.packetPlanSize : voicePrice === null ? null : 0,
    perMinuteCents: (packet ? cents(row.additionalMinuteCost) : null) ?? voicePrice ?? 0,
    sms: smsPrice === null ? null : (row.smsAddonSize ?? 0),
    perSmsCents: smsPrice ?? 0,
    exceedingDataCentsPerGb: cents(row.exceedingDataCost),
    euDataGb: row.dataInEu && row.euDataGb !== null ? Number(row.euDataGb) : 0,
    nordicBalticIncluded: row.dataInNordicBaltic || row.voiceInNordicBaltic,
    euIncluded: row.dataInEu || row.voiceInEu,
    domesticOnly: row.coverage === 'domestic_only',
    considerForOptimization: row.considerForOptimization,
    customerSpecific: row.scope === 'customer_specific',
  };
}
