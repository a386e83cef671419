import { describe, expect, it } from 'vitest';
import { type z } from 'zod';
import { ADMIN_MENU, type MenuItem } from '../../menus.js';
import { MESSAGES } from '../../messages.js';
import {
  MASTER_LABELS,
  MASTER_LOOKUP_PERMISSIONS,
  MASTER_RESOURCES,
  normalizePhoneNumber,
  type MasterResource,
} from './index.js';

const flat = (items: MenuItem[]): MenuItem[] => items.flatMap((i) => [i, ...flat(i.children ?? [])]);
const entries = Object.entries(MASTER_RESOURCES) as Array<[string, MasterResource]>;

describe.each(entries)('master declaration %s', (key, m) => {
  const entityKeys = Object.keys((m.entity as z.ZodObject).shape);

  it('sorts, searches and filters only on keys of its entity', () => {
    for (const k of [
      ...m.sortable,
      ...m.searchable,
      ...Object.keys(m.filters),
      ...m.columns.map((c) => c.key),
    ]) {
      expect(entityKeys, k).toContain(k);
    }
    expect(m.sortable).toContain(m.defaultSort);
  });

  it('has English and Finnish texts for its title, fields, columns and choices', () => {
    const keys = [
      `masters.titles.${key}`,
      ...m.fields.map((f) => f.labelKey),
      ...m.columns.map((c) => c.labelKey),
      ...m.fields.flatMap((f) => (f.options ?? []).map((o) => o.labelKey)),
      ...m.columns.flatMap((c) => (c.options ?? []).map((o) => o.labelKey)),
    ];
    for (const k of keys) {
      expect(MASTER_LABELS[k]?.en, k).toBeTruthy();
      expect(MASTER_LABELS[k]?.fi, k).toBeTruthy();
    }
  });

  it('answers with message codes of the catalogue', () => {
    for (const code of Object.values(m.messages)) expect(Object.keys(MESSAGES), code).toContain(code);
  });

  it('is a page of the admin Masters menu with the same permission', () => {
    const entry = flat(ADMIN_MENU).find((i) => i.path === `/admin/master/${m.menuKey}`);
    expect(entry?.permission).toBe(m.permission);
  });
});

describe('master field schemas', () => {
  it('reads amounts from numbers, strings and decimal commas and keeps them exact', () => {
    const s = MASTER_RESOURCES.billingPlans.create;
    const ok = s.safeParse({
      name: 'x',
      contractLengthMonths: '12',
      advancePaymentDiscountPercent: '5',
      costPerPlan: 1.9,
      setUpFee: '490,00',
      setUpFeePerCompany: 0,
      additionalUsersFee: '9',
      automatedInvoiceUploadFee: '19.5',
      onDemandSupportFee: '120',
      adminFee: '29',
      companyAdditionalUsersFee: '5',
    });
    expect(ok.success).toBe(true);
    expect(ok.data).toMatchObject({
      contractLengthMonths: 12,
      costPerPlan: '1.9',
      setUpFee: '490.00',
      setUpFeePerCompany: '0',
    });
  });

  it('normalizes Finnish phone numbers to international form', () => {
    expect(normalizePhoneNumber('040 123 4567')).toBe('+358401234567');
    expect(normalizePhoneNumber('+358 (0)40-1234567')).toBe('+358401234567');
    expect(normalizePhoneNumber('00358401234567')).toBe('+358401234567');
    expect(normalizePhoneNumber('358401234567')).toBe('+358401234567');
  });

  it('lets the client look-ups be read by the holders of every master whose form picks a client, and no one else', () => {
    expect([...MASTER_LOOKUP_PERMISSIONS].sort()).toEqual([
      'masters.costCenters',
      // A cost element may be a company's own (issue 37 item 7): its form picks the company.
      'masters.costElements',
      'masters.plans',
      'masters.skippedNumbers',
    ]);
  });
});
