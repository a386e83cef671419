import { describe, expect, it } from 'vitest';
import { effectivePermissions, ROLE_PERMISSIONS } from './permissions.js';
import { ROLE } from './roles.js';

describe('effectivePermissions', () => {
  it('gives a provider user without a chosen list the whole role set', () => {
    expect(effectivePermissions(ROLE.providerAdmin, null)).toEqual([...ROLE_PERMISSIONS[ROLE.providerAdmin]]);
    expect(effectivePermissions(ROLE.consultant, undefined)).toEqual([...ROLE_PERMISSIONS[ROLE.consultant]]);
  });

  it('cuts a provider user’s chosen list to their role set', () => {
    expect(effectivePermissions(ROLE.consultant, ['general', 'masters.plans', 'users.manage'])).toEqual([
      'general',
    ]);
    expect(effectivePermissions(ROLE.providerAdmin, ['users.manage', 'clients.manage'])).toEqual([
      'clients.manage',
      'users.manage',
    ]);
  });

  it('keeps a company admin on the role set whatever is stored', () => {
    expect(effectivePermissions(ROLE.companyAdmin, ['general'])).toEqual([
      ...ROLE_PERMISSIONS[ROLE.companyAdmin],
    ]);
  });

  it('never gives a consultant user management or the masters', () => {
    const held = effectivePermissions(ROLE.consultant, null);
    expect(held).not.toContain('users.manage');
    expect(held).not.toContain('masters.plans');
  });
});
