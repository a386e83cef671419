import { describe, expect, it } from 'vitest';
import { billingPlanMaster, costElementMaster, planMaster, type MasterColumn } from '@kulu/shared';
import { cellText, EMPTY_CELL, formatEuros } from './format';

const col = (resource: { columns: readonly MasterColumn[] }, key: string) =>
  resource.columns.find((c) => c.key === key)!;
const t = (key: string) => `t:${key}`;
// Intl puts a no-break space (U+00A0) or narrow one (U+202F) between groups and the sign.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('cells', () => {
  it('shows money as euros in the user language', () => {
    expect(plain(formatEuros('24.9', 'fi'))).toBe('24,90 €');
    expect(formatEuros('24.9', 'en')).toBe('€24.90');
    expect(plain(formatEuros('1234.5', 'fi'))).toBe('1 234,50 €');
    expect(plain(formatEuros('0.0690', 'fi', 4))).toBe('0,069 €');
    expect(formatEuros(null, 'fi')).toBe(EMPTY_CELL);
  });

  it('shows the EU data allowance in GB, not euros', () => {
    expect(plain(cellText(col(planMaster, 'euDataGb'), '25.50', 'fi', t))).toBe('25,5');
    expect(plain(cellText(col(planMaster, 'listPrice'), '25.50', 'fi', t))).toBe('25,50 €');
  });

  it('translates yes/no and enum values, and percents', () => {
    expect(cellText(col(planMaster, 'unlimited'), true, 'en', t)).toBe('t:masters.enums.boolean.true');
    expect(cellText(col(costElementMaster, 'status'), 'approved', 'en', t)).toBe(
      't:masters.enums.costElementStatus.approved',
    );
    expect(plain(cellText(col(billingPlanMaster, 'advancePaymentDiscountPercent'), '12.5', 'fi', t))).toBe(
      '12,5 %',
    );
    expect(cellText(col(planMaster, 'clientName'), null, 'en', t)).toBe(EMPTY_CELL);
  });
});
