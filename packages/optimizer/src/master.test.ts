import { describe, expect, it } from 'vitest';
import { ELISA_10M, ELISA_PERUS } from './catalogue.fixture.js';
import { eurosToCents, planFromMaster } from './index.js';
import type { PlanMasterRow } from './index.js';

// Rows as the seed catalogue stores Elisa's plans.
const row = (over: Partial<PlanMasterRow>): PlanMasterRow => ({
  id: 1,
  name: 'Elisa Yritysliittymä 4G (10M)',
  operatorId: 1,
  listPrice: '15.90',
  contractPrice: null,
  unlimited: true,
  dataSlabMb: null,
  dataSpeedMbps: 10,
  exceedingDataCost: null,
  euDataGb: '18.00',
  voiceListPrice: null,
  voiceContractPrice: null,
  smsListPrice: null,
  smsContractPrice: null,
  packetPlanSize: null,
  perMinuteCost: null,
  additionalMinuteCost: null,
  smsCost: null,
  smsAddonSize: null,
  dataInNordicBaltic: true,
  voiceInNordicBaltic: true,
  dataInEu: true,
  voiceInEu: true,
  coverage: 'no_limitations',
  scope: 'general',
  considerForOptimization: true,
  ...over,
});

describe('planFromMaster', () => {
  it('reads a flat rate row as unlimited calls, SMS and data at its speed', () => {
    expect(planFromMaster(row({}))).toEqual(ELISA_10M);
  });

  it('reads a pay-per-use row with its per-minute, per-SMS and exceeding-data prices', () => {
    const perus = row({
      id: 6,
      name: 'Elisa Yritysliittymä Perus',
      listPrice: '4.90',
      unlimited: false,
      dataSlabMb: 1024,
      exceedingDataCost: '0.9900',
      euDataGb: '2.00',
      voiceListPrice: '0.0690',
      smsListPrice: '0.0690',
      perMinuteCost: '0.0690',
      smsCost: '0.0690',
    });
    expect(planFromMaster(perus)).toEqual(ELISA_PERUS);
  });

  it('prefers the contract price, reads packet plans, domestic-only and customer-specific rows', () => {
    const p = planFromMaster(
      row({
        contractPrice: '11.504',
        packetPlanSize: 300,
        additionalMinuteCost: '0.05',
        perMinuteCost: '0.09',
        dataInEu: false,
        voiceInEu: false,
        dataInNordicBaltic: false,
        voiceInNordicBaltic: false,
        coverage: 'domestic_only',
        scope: 'customer_specific',
      }),
    );
    expect(p).toMatchObject({
      monthlyFeeCents: 1150,
      voiceMinutes: 300,
      perMinuteCents: 5,
      euDataGb: 0,
      euIncluded: false,
      nordicBalticIncluded: false,
      domesticOnly: true,
      customerSpecific: true,
    });
  });

  it('converts euros to cents keeping fractions of a cent and refuses what is not a number', () => {
    expect(eurosToCents('0.0690')).toBe(6.9);
    expect(eurosToCents('33.90')).toBe(3390);
    expect(() => eurosToCents('abc')).toThrow(RangeError);
  });
});
