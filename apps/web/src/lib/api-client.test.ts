import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError, createApiClient, isRelativeUrl, readCookie } from './api-client';

interface Call {
  url: string;
  init: RequestInit;
}

function setup(
  opts: {
    token?: string | null;
    cookies?: string;
    respond?: (call: Call) => Response;
    apiBase?: string;
  } = {},
) {
  const calls: Call[] = [];
  const onSessionExpired = vi.fn();
  const client = createApiClient({
    fetch: async (url, init) => {
      const call = { url: String(url), init: init ?? {} };
      calls.push(call);
      return opts.respond?.(call) ?? Response.json({ ok: true });
    },
    getToken: () => (opts.token === undefined ? 'tok' : opts.token),
    getCookies: () => opts.cookies ?? 'other=1; XSRF-TOKEN=abc%3D123',
    onSessionExpired,
    apiBase: opts.apiBase,
  });
  const header = (i: number, name: string) => new Headers(calls[i].init.headers).get(name);
  return { client, calls, header, onSessionExpired };
}

const jsonError = (status: number, body: object) => Response.json(body, { status });

describe('api client', () => {
  it('sends the bearer token on every call when a token exists', async () => {
    const { client, header } = setup();
    await client.get('/api/profile');
    expect(header(0, 'Authorization')).toBe('Bearer tok');
  });

  it('sends no Authorization header without a token or for anonymous calls', async () => {
    const { client, header } = setup({ token: null });
    await client.get('/api/operators/public');
    expect(header(0, 'Authorization')).toBeNull();
    const second = setup();
    await second.client.request('/api/Token', { method: 'POST', form: { a: 1 }, anonymous: true });
    expect(second.header(0, 'Authorization')).toBeNull();
  });

  it('adds the XSRF header from the cookie on non-GET relative calls only', async () => {
    const { client, header } = setup();
    await client.get('/api/profile');
    await client.put('/api/profile', { fullName: 'A' });
    await client.post('https://elsewhere.example/api/x', {});
    await client.post('//elsewhere.example/api/x', {});
    expect(header(0, 'X-XSRF-TOKEN')).toBeNull();
    expect(header(1, 'X-XSRF-TOKEN')).toBe('abc=123');
    expect(header(2, 'X-XSRF-TOKEN')).toBeNull();
    expect(header(3, 'X-XSRF-TOKEN')).toBeNull();
  });

  it('calls an API on another origin (VITE_API_BASE) with the bearer token, its query, and no XSRF header', async () => {
    const { client, calls, header } = setup({ apiBase: 'https://api.kulu.example' });
    await client.get('/api/dashboard/cost-usage', { query: { clientId: 3 } });
    await client.put('/api/profile', { fullName: 'A' });
    expect(calls.map((c) => c.url)).toEqual([
      'https://api.kulu.example/api/dashboard/cost-usage?clientId=3',
      'https://api.kulu.example/api/profile',
    ]);
    expect(header(1, 'Authorization')).toBe('Bearer tok');
    expect(header(1, 'X-XSRF-TOKEN')).toBeNull();
    expect(calls[1].init.credentials).toBe('same-origin');
  });

  it('form-encodes token requests and skips undefined fields', async () => {
    const { client, calls, header } = setup({ token: null });
    await client.request('/api/Token', {
      method: 'POST',
      form: { grant_type: 'password', username: 'a@b.fi', password: 'p&q', OperatorId: undefined },
    });
    expect(header(0, 'Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(calls[0].init.body).toBe('grant_type=password&username=a%40b.fi&password=p%26q');
  });

  it('appends query parameters', async () => {
    const { client, calls } = setup();
    await client.get('/api/Account/ForgotPassword', { query: { email: 'a+b@c.fi' } });
    expect(calls[0].url).toBe('/api/Account/ForgotPassword?email=a%2Bb%40c.fi');
  });

  it('reports a 401 to a call that carried a token as an expired session, once per burst', async () => {
    const { client, onSessionExpired } = setup({
      respond: () => jsonError(401, { statusCode: 401, code: 'unauthorized', message: 'x' }),
    });
    const results = await Promise.allSettled([client.get('/api/a'), client.get('/api/b')]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('leaves a 401 that is the call’s own answer (signing out an ended session) to the call', async () => {
    const { client, onSessionExpired, header } = setup({
      respond: () => jsonError(401, { statusCode: 401, code: 'sessionExpired', message: 'x' }),
    });
    await expect(client.post('/api/Account/Logout', undefined, { ownUnauthorized: true })).rejects.toThrow(
      ApiRequestError,
    );
    expect(header(0, 'Authorization')).toBe('Bearer tok');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('does not treat a 401 without a token (wrong password) as an expired session', async () => {
    const { client, onSessionExpired } = setup({
      token: null,
      respond: () =>
        jsonError(401, {
          statusCode: 401,
          code: 'invalidCredentials',
          message: 'Please enter valid credential',
        }),
    });
    const err = await client.request('/api/Token', { method: 'POST', form: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect((err as ApiRequestError).code).toBe('invalidCredentials');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('turns API error bodies into ApiRequestError with code and fields', async () => {
    const { client } = setup({
      respond: () =>
        jsonError(400, {
          statusCode: 400,
          code: 'validation',
          message: 'Check',
          fields: { email: 'invalid' },
        }),
    });
    const err = (await client.post('/api/Account/Signup', {}).catch((e: unknown) => e)) as ApiRequestError;
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation');
    expect(err.fields).toEqual({ email: 'invalid' });
  });

  it('returns text bodies as text (ReSetPassword answers text/plain)', async () => {
    const { client } = setup({
      respond: () =>
        new Response('Your password has been reset', { headers: { 'Content-Type': 'text/plain' } }),
    });
    await expect(client.post('/api/Account/ReSetPassword', {})).resolves.toBe('Your password has been reset');
  });

  it('counts requests in flight', async () => {
    const { client } = setup();
    const seen: number[] = [];
    client.onInFlightChange((n) => seen.push(n));
    await Promise.all([client.get('/a'), client.get('/b')]);
    expect(seen).toEqual([1, 2, 1, 0]);
    expect(client.inFlight()).toBe(0);
  });
});

describe('helpers', () => {
  it('reads a cookie by name', () => {
    expect(readCookie('a=1; XSRF-TOKEN=xyz', 'XSRF-TOKEN')).toBe('xyz');
    expect(readCookie('a=1', 'XSRF-TOKEN')).toBeNull();
  });
  it('knows relative addresses', () => {
    expect(isRelativeUrl('/api/x')).toBe(true);
    expect(isRelativeUrl('api/x')).toBe(true);
    expect(isRelativeUrl('http://x/api')).toBe(false);
    expect(isRelativeUrl('//x/api')).toBe(false);
  });
});
