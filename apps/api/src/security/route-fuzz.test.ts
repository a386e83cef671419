import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permits } from '../plugins/access.js';
import { clientIdOf, createTestApp, DEMO, demoCallers, type TestApp } from '../test/helpers.js';

/**
 * Bad input never answers 5xx. This test walks the whole route table (`app.routeCatalogue`),
 * calls every route as every demo user allowed to call it (anonymously for public routes) and
 * sends, one at a time: malformed and out-of-range ids in every path parameter and every id
 * filter of the query, bad page/pageSize, bad sort/order, control characters in every string
 * query parameter, and control characters in every string field of the JSON body (the fields
 * come from the route's own schema, as the OpenAPI document shows it). Each must answer 400
 * (the field named in `fields` where there is one), never 5xx.
 */

type Json = Record<string, unknown>;
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}
interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface Caller {
  name: string;
  token?: string;
  roleId?: number;
  permissions: string[];
  /** A company user's own client (the client a route touches is filled with it). */
  clientId?: number;
}

const BAD_IDS = ['abc', '-1', '0', '1.5', '99999999999'];
/** page may go up to 1 000 000 and pageSize to 200. */
const BAD_PAGING = { page: ['0', '-1', 'abc', '1000001'], pageSize: ['0', '-1', 'abc', '100000'] };
const BAD_SORT = ['nonexistent', ';drop'];
const CONTROL = ['a\u0000b', 'a\u0001b'];

let t: TestApp;
let callers: Caller[];
let openapi: { paths: Record<string, Record<string, Operation>> };

const typesOf = (s: JsonSchema | undefined): string[] => {
  if (!s) return [];
  const own = s.type === undefined ? [] : [s.type].flat();
  return [...own, ...[...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].flatMap(typesOf)];
};
const isString = (s: JsonSchema | undefined) => typesOf(s).includes('string');
const isNumeric = (s: JsonSchema | undefined) => typesOf(s).some((ty) => ty === 'integer' || ty === 'number');

/** The OpenAPI operation of a catalogue route (`/api/x/:id` is `/api/x/{id}` there). */
function operationOf(method: string, url: string): Operation {
  const path = url.replace(/:(\w+)/g, '{$1}');
  return openapi.paths[path]?.[method.toLowerCase()] ?? {};
}

beforeAll(async () => {
  t = await createTestApp();
  openapi = t.app.swagger() as unknown as typeof openapi;
  callers = [{ name: 'anonymous', permissions: [] }, ...(await demoCallers(t))];
  for (const c of callers) {
    const email = DEMO[c.name as keyof typeof DEMO];
    if (email) c.clientId = (await clientIdOf(t, email)) ?? undefined;
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Who may call a route: anonymous for public routes, else every demo user the access rules admit. */
type Route = TestApp['app']['routeCatalogue'][number];

function callersOf(route: Route): Caller[] {
  if (route.public) return callers.filter((c) => !c.token);
  return callers.filter((c) => c.token && (!route.permission || permits(c.permissions, route.permission)));
}

interface Probe {
  what: string;
  url: string;
  payload?: Json;
  /** The field the answer must name (when the route reports fields). */
  field?: string;
}

/**
 * Every bad request of one route. The client a route touches (`route.client`) is the caller's own,
 * so that what is malformed is all that is wrong (another client's id answers 404 whatever else).
 */
function probesOf(route: Route, caller: Caller): Probe[] {
  const { method, url } = route;
  const op = operationOf(method, url);
  const pathParams = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const good = (p: string) => String(p === route.client && caller.clientId ? caller.clientId : 1);
  const fill = (bad?: { param: string; value: string }) =>
    url.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(bad?.param === p ? bad.value : good(p)));
  const probes: Probe[] = [];
  for (const param of pathParams) {
    for (const value of BAD_IDS)
      probes.push({ what: `:${param}=${value}`, url: fill({ param, value }), field: param });
  }
  const base = fill();
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  const q = (name: string, value: string) => `${base}?${name}=${encodeURIComponent(value)}`;
  for (const p of query) {
    if (p.name === 'page' || p.name === 'pageSize') {
      for (const v of BAD_PAGING[p.name])
        probes.push({ what: `${p.name}=${v}`, url: q(p.name, v), field: p.name });
    } else if (p.name === 'sort' || p.name === 'order') {
      for (const v of BAD_SORT) probes.push({ what: `${p.name}=${v}`, url: q(p.name, v), field: p.name });
    } else if (/Id$|^id$/.test(p.name) && isNumeric(p.schema)) {
      for (const v of BAD_IDS) probes.push({ what: `${p.name}=${v}`, url: q(p.name, v), field: p.name });
    } else if (isString(p.schema)) {
      for (const v of CONTROL)
        probes.push({ what: `${p.name}=${JSON.stringify(v)}`, url: q(p.name, v), field: p.name });
    }
  }
  // The body schema, whatever the content type it is documented under (JSON is accepted by all).
  const body = Object.values(op.requestBody?.content ?? {})[0]?.schema;
  for (const [key, schema] of Object.entries(body?.properties ?? {})) {
    if (/Id$/.test(key) && isNumeric(schema)) {
      for (const v of BAD_IDS) {
        const value = Number.isNaN(Number(v)) ? v : Number(v);
        probes.push({ what: `body.${key}=${v}`, url: base, payload: { [key]: value }, field: key });
      }
    } else if (/Ids$|^ids$/.test(key) && typesOf(schema).includes('array')) {
      for (const v of BAD_IDS) {
        const value = Number.isNaN(Number(v)) ? v : Number(v);
        probes.push({
          what: `body.${key}=[${v}]`,
          url: base,
          payload: { [key]: [value] },
          field: `${key}.0`,
        });
      }
    } else if (isString(schema)) {
      for (const v of CONTROL) {
        probes.push({
          what: `body.${key}=${JSON.stringify(v)}`,
          url: base,
          payload: { [key]: v },
          field: key,
        });
      }
    }
  }
  return probes;
}

describe('route table fuzz', () => {
  it('answers 400, never 5xx, to malformed ids, paging, sorts and control characters on every route', async () => {
    const failures: string[] = [];
    let calls = 0;
    let routes = 0;
    for (const route of t.app.routeCatalogue) {
      const { method, url } = route;
      if (url.startsWith('/api/docs')) continue;
      if (!probesOf(route, callers[0]).length) continue;
      routes++;
      for (const caller of callersOf(route)) {
        for (const p of probesOf(route, caller)) {
          calls++;
          const res = await t.inject({
            method: method as 'GET',
            url: p.url,
            token: caller.token,
            ...(p.payload
              ? { payload: p.payload }
              : method === 'GET' || method === 'DELETE'
                ? {}
                : { payload: {} }),
          });
          const where = `${method} ${url} ${p.what} as ${caller.name}`;
          if (res.statusCode !== 400) {
            failures.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`);
            continue;
          }
          const fields = (res.json() as { fields?: Record<string, string> }).fields;
          if (p.field && fields && !(p.field in fields)) {
            failures.push(`${where}: 400 without naming ${p.field} (${JSON.stringify(fields)})`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The walk did reach the routes (ids, paging and bodies of well over a hundred routes).
    expect(routes).toBeGreaterThan(60);
    expect(calls).toBeGreaterThan(1000);
    console.log(`route fuzz: ${calls} calls over ${routes} routes`);
  }, 120_000);

  it('refuses control characters in the unauthenticated form-encoded token call and an empty settings update', async () => {
    const token = await t.inject({
      method: 'POST',
      url: '/api/Token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&username=a%00b&password=x',
    });
    expect(token.statusCode).toBe(400);
    expect(token.json().code).toBe('controlCharacters');
    const admin = callers.find((c) => c.name === 'admin')!.token;
    const settings = await t.inject({
      method: 'PUT',
      url: '/api/profile/settings',
      token: admin,
      payload: {},
    });
    expect(settings.statusCode).toBe(400);
  });

  it('names the problem: an out-of-range id, a bad sort with the allowed ones, a control character', async () => {
    const admin = callers.find((c) => c.name === 'admin')!.token;
    const id = await t.inject({ method: 'GET', url: '/api/invoices/99999999999', token: admin });
    expect(id.json()).toMatchObject({ statusCode: 400, code: 'invalidId' });
    const sort = await t.inject({ method: 'GET', url: '/api/invoices?sort=nonexistent', token: admin });
    expect(sort.json().code).toBe('invalidSort');
    expect(sort.json().message).toContain('invoiceNumber, invoiceDate');
    const q = await t.inject({ method: 'GET', url: '/api/masters/operators/export?q=%00', token: admin });
    expect(q.json()).toMatchObject({ statusCode: 400, code: 'controlCharacters' });
    const fi = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: { 'accept-language': 'fi' },
      payload: { email: 'a\u0000@kulu.fi', password: 'x' },
    });
    expect(fi.json()).toMatchObject({ statusCode: 400, message: 'Teksti ei saa sisältää ohjausmerkkejä' });
  });
});
