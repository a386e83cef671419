import { describe, expect, it } from 'vitest';
import { isRunPending, optimizationQuery } from './api';

describe('optimizationQuery', () => {
  it('sends the set filters and leaves the empty ones out', () => {
    expect(
      optimizationQuery({
        tab: 'optimized',
        clientId: 3,
        savingLimit: 5.5,
        search: '',
        subCompanyId: undefined,
        page: 2,
        pageSize: 20,
        sort: 'monthlySaving',
        order: 'desc',
      }),
    ).toEqual({
      tab: 'optimized',
      clientId: 3,
      savingLimit: 5.5,
      page: 2,
      pageSize: 20,
      sort: 'monthlySaving',
      order: 'desc',
    });
  });

  it('keeps a saving limit of zero', () => {
    expect(optimizationQuery({ tab: 'unused', savingLimit: 0 })).toEqual({ tab: 'unused', savingLimit: 0 });
  });
});

describe('isRunPending', () => {
  it('is pending only while queued or running', () => {
    const run = { id: 1, trigger: 'manual' as const, createdAt: '', finishedAt: null };
    expect(isRunPending({ ...run, status: 'queued' })).toBe(true);
    expect(isRunPending({ ...run, status: 'running' })).toBe(true);
    expect(isRunPending({ ...run, status: 'succeeded' })).toBe(false);
    expect(isRunPending({ ...run, status: 'failed' })).toBe(false);
    expect(isRunPending(null)).toBe(false);
  });
});
