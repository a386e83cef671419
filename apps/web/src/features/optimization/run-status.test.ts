import { describe, expect, it } from 'vitest';
import type { OptimizationRun } from '@kulu/shared';
import { optimizationLink } from '../../lib/optimization-link';
import { canSelect, idParam, runView } from './run-status';

const run = (over: Partial<OptimizationRun>): OptimizationRun => ({
  id: 1,
  status: 'succeeded',
  trigger: 'manual',
  createdAt: '2026-03-01T10:00:00.000Z',
  finishedAt: '2026-03-01T10:00:05.000Z',
  ...over,
});

describe('runView', () => {
  it('says never for a client without runs', () => {
    expect(runView(null)).toEqual({ kind: 'never' });
    expect(runView(undefined)).toEqual({ kind: 'never' });
  });

  it('is pending while queued or running, since the run was created', () => {
    expect(runView(run({ status: 'queued', finishedAt: null }))).toEqual({
      kind: 'pending',
      status: 'queued',
      since: '2026-03-01T10:00:00.000Z',
    });
    expect(runView(run({ status: 'running', finishedAt: null })).kind).toBe('pending');
  });

  it('dates a finished run by when it finished', () => {
    expect(runView(run({}))).toEqual({ kind: 'succeeded', at: '2026-03-01T10:00:05.000Z' });
    expect(runView(run({ status: 'failed', finishedAt: null }))).toEqual({
      kind: 'failed',
      at: '2026-03-01T10:00:00.000Z',
    });
  });
});

describe('canSelect', () => {
  it('selects only unmarked findings of the optimized and unused tabs', () => {
    expect(canSelect('optimized', { mark: null })).toBe(true);
    const mark = { status: 'open' as const, markedAt: '2026-03-01', realisedMonth: null };
    expect(canSelect('optimized', { mark })).toBe(false);
    expect(canSelect('unused', { mark: null })).toBe(true);
    expect(canSelect('unused', { mark })).toBe(false);
    expect(canSelect('unoptimized', { mark: null })).toBe(false);
  });
});

describe('idParam', () => {
  it('reads positive integer ids only', () => {
    expect(idParam('12')).toBe(12);
    for (const bad of [null, '', '0', '-1', '1.5', 'x', '1e3', '12345678901'])
      expect(idParam(bad)).toBeUndefined();
  });
});

describe('optimizationLink', () => {
  it('links to the page of the base path with the client and tab', () => {
    expect(optimizationLink('/company')).toBe('/company/invoice-optimization');
    expect(optimizationLink('/admin', { clientId: 3, tab: 'unused' })).toBe(
      '/admin/invoice-optimization?clientId=3&tab=unused',
    );
  });
});
