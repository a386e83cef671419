import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permits } from '../plugins/access.js';
import { createTestApp, demoCallers, type DemoCaller, type TestApp } from '../test/helpers.js';

/**
 * Issue 23, finding 9: a body naming a field its route does not know is refused (400
 * `unknownField`, the field named) on every route with an object body, and a PUT or PATCH naming
 * no field at all is refused (400 `emptyBody`) — before, `z.object` dropped unknown fields, so a
 * misspelt field saved a body that cleared every real one. Walks the whole route table as every
 * demo user admitted to each route.
 */

let t: TestApp;
let callers: DemoCaller[] = [];

beforeAll(async () => {
  t = await createTestApp();
  callers = await demoCallers(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** One signed-in caller the route admits (public routes are called anonymously). */
function callerOf(route: TestApp['app']['routeCatalogue'][number]): DemoCaller | undefined | null {
  if (route.public) return null;
  return callers.find((c) => !route.permission || permits(c.permissions, route.permission));
}

const withBodies = () =>
  t.app.routeCatalogue.filter((r) => r.bodyKeys && r.bodyKeys.length && !r.url.startsWith('/api/docs'));

describe('request bodies name only known fields', () => {
  it('refuses an unknown field on every route with an object body, naming it, in the caller’s language', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of withBodies()) {
      const caller = callerOf(route);
      if (caller === undefined) continue;
      const url = route.url.replace(/:(\w+)/g, '1');
      const res = await t.inject({
        method: route.method as 'POST',
        url,
        token: caller?.token,
        payload: { [route.bodyKeys![0]!]: null, notAField: 1 },
      });
      checked++;
      const body = res.json() as { code?: string; fields?: Record<string, string> };
      if (res.statusCode !== 400 || body.code !== 'unknownField' || body.fields?.notAField !== 'unknown')
        failures.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);

    const fi = await t.inject({
      method: 'PUT',
      url: '/api/profile/settings',
      token: callers[0]!.token,
      headers: { 'accept-language': 'fi' },
      payload: { theme: 1 },
    });
    expect(fi.statusCode).toBe(400);
    expect(fi.json().message).toMatch(/tuntematon kenttä: theme|Unknown field in the request: theme/);
  });

  it('refuses a PUT or PATCH that names no field', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of withBodies()) {
      if (route.method !== 'PUT' && route.method !== 'PATCH') continue;
      const caller = callerOf(route);
      if (caller === undefined) continue;
      const res = await t.inject({
        method: route.method,
        url: route.url.replace(/:(\w+)/g, '1'),
        token: caller?.token,
        payload: {},
      });
      checked++;
      if (res.statusCode !== 400 || res.json().code !== 'emptyBody')
        failures.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('an empty operator-contract PUT on an existing contract changes nothing', async () => {
    const admin = callers.find((c) => c.name === 'admin')!;
    const clients = (
      await t.inject({ method: 'GET', url: '/api/clients?pageSize=200', token: admin.token })
    ).json() as { items: Array<{ id: number }> };
    const clientId = clients.items[0]!.id;
    const list = (
      await t.inject({
        method: 'GET',
        url: `/api/clients/${clientId}/operator-contracts`,
        token: admin.token,
      })
    ).json() as { items: Array<{ operatorId: number; salesContactName: string | null }> };
    const url = `/api/clients/${clientId}/operator-contracts/${list.items[0]?.operatorId ?? 1}`;
    const set = await t.inject({
      method: 'PUT',
      url,
      token: admin.token,
      payload: { salesContactName: 'Sanna Myynti', uploadInvoiceReminder: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    const empty = await t.inject({ method: 'PUT', url, token: admin.token, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('emptyBody');
    const misspelt = await t.inject({
      method: 'PUT',
      url,
      token: admin.token,
      payload: { salesContact: 'x' },
    });
    expect(misspelt.statusCode).toBe(400);
    const after = (await t.inject({ method: 'GET', url, token: admin.token })).json();
    expect(after).toMatchObject({ salesContactName: 'Sanna Myynti', uploadInvoiceReminder: true });
  });
});
