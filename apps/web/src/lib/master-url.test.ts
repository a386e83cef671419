import { describe, expect, it } from 'vitest';
import { MASTER_RESOURCES } from '@kulu/shared';
import { masterUrl, masterUrlOf } from './master-url';

describe('master URLs', () => {
  it('builds the list URL from the declared path, not from the key', () => {
    expect(masterUrlOf('costElements')).toBe(`/api/masters/${MASTER_RESOURCES.costElements.path}`);
    expect(masterUrlOf('costElements')).toBe('/api/masters/cost-elements');
  });

  it('appends ids and actions as encoded segments', () => {
    expect(masterUrlOf('help', 7, 'file')).toBe('/api/masters/help/7/file');
    expect(masterUrl({ path: 'plans' }, 'a/b?c')).toBe('/api/masters/plans/a%2Fb%3Fc');
  });
});
