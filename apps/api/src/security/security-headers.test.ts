import { describe, expect, it } from 'vitest';
import { useSignedIn } from '../test/fixtures.js';
import { DEMO } from '../test/helpers.js';

const companyAdmin = useSignedIn(DEMO.companyAdmin, {}, 60_000);

/** The headers every answer carries (helmet's, for the application's options). */
const EXPECTED = {
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;" +
    "connect-src 'self';frame-ancestors 'none';object-src 'none';base-uri 'self';form-action 'self';" +
    "font-src 'self' https: data:;script-src-attr 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

describe('security headers', () => {
  it.each([
    ['a signed-in answer', '/api/invoices?pageSize=1'],
    ['a public answer', '/api/health'],
    ['an unknown route', '/api/no-such-route'],
    ['a refused request', '/api/masters/plans'],
  ])('are on %s, the same on every one', async (_name, url) => {
    const res = await companyAdmin.t.inject({ method: 'GET', url, token: companyAdmin.token });
    const directives = (csp: unknown) => String(csp).split(';').sort();
    for (const [name, value] of Object.entries(EXPECTED))
      if (name === 'content-security-policy')
        expect(directives(res.headers[name]), name).toEqual(directives(value));
      else expect(res.headers[name], name).toBe(value);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
