import { describe, expect, it } from 'vitest';
import { apiBaseOf, apiUrl } from './api-base';

describe('the API base address (VITE_API_BASE)', () => {
  it('is the page’s own origin when unset: paths stay relative', () => {
    expect(apiBaseOf(undefined)).toBe('');
    expect(apiUrl('/api/Token', '')).toBe('/api/Token');
  });

  it('puts an API served from another origin in front of every API path', () => {
    const base = apiBaseOf('https://api.kulu.example/');
    expect(base).toBe('https://api.kulu.example');
    expect(apiUrl('/api/dashboard/cost-usage?clientId=1', base)).toBe(
      'https://api.kulu.example/api/dashboard/cost-usage?clientId=1',
    );
    expect(apiUrl('/api/x', apiBaseOf('https://kulu.example/backend'))).toBe(
      'https://kulu.example/backend/api/x',
    );
  });

  it('leaves addresses that are not API paths as they are', () => {
    expect(apiUrl('https://elsewhere.example/file', 'https://api.kulu.example')).toBe(
      'https://elsewhere.example/file',
    );
  });

  it('refuses an address that is not http(s)', () => {
    expect(() => apiBaseOf('api.kulu.example')).toThrow(/VITE_API_BASE/);
    expect(() => apiBaseOf('javascript:alert(1)')).toThrow(/VITE_API_BASE/);
  });
});
