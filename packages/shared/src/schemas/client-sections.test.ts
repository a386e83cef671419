import { describe, expect, it } from 'vitest';
import { activationLeavesLockedOut, contractInForce } from './client-sections.js';

const contract = (over: Partial<Parameters<typeof contractInForce>[0]> = {}) => ({
  status: 'active' as const,
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  terminationDate: null,
  inactiveDate: null,
  ...over,
});

describe('a contract in force (the lock-out rule the screens warn with)', () => {
  it('an active contract is in force from its start to its end day', () => {
    expect(contractInForce(contract(), '2026-01-01')).toBe(true);
    expect(contractInForce(contract(), '2026-12-31')).toBe(true);
    expect(contractInForce(contract(), '2025-12-31')).toBe(false);
    expect(contractInForce(contract(), '2027-01-01')).toBe(false);
  });
  it('a draft or inactive contract never is; a terminated one until its termination day', () => {
    expect(contractInForce(contract({ status: 'draft' }), '2026-06-01')).toBe(false);
    expect(contractInForce(contract({ status: 'inactive', inactiveDate: '2026-05-01' }), '2026-06-01')).toBe(
      false,
    );
    const ended = contract({ status: 'terminated', terminationDate: '2026-06-15' });
    expect(contractInForce(ended, '2026-06-14')).toBe(true);
    expect(contractInForce(ended, '2026-06-15')).toBe(false);
  });
});

describe('activating a contract that starts later', () => {
  it('leaves the client locked out until its start when no other contract is in force today', () => {
    expect(activationLeavesLockedOut('2026-12-01', [], '2026-11-25')).toBe(true);
    expect(activationLeavesLockedOut('2026-12-01', [contract({ status: 'draft' })], '2026-11-25')).toBe(true);
  });
  it('does not when it starts today or earlier, or another contract is in force today', () => {
    expect(activationLeavesLockedOut('2026-11-25', [], '2026-11-25')).toBe(false);
    expect(activationLeavesLockedOut('2026-12-01', [contract()], '2026-11-25')).toBe(false);
  });
});
