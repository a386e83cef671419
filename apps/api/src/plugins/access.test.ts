import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permits } from './access.js';
import { eq } from 'drizzle-orm';
import { effectivePermissions, ROLE } from '@kulu/shared';
import { users } from '../db/schema/index.js';
import { hashPassword } from '../lib/passwords.js';
import { clientIdOf, createTestApp, DEMO, DEMO_PASSWORD, type TestApp } from '../test/helpers.js';

let t: TestApp;
const tokens: Record<string, string> = {};
const NO_PERMISSIONS_USER = 'ei.oikeuksia@pohjolarakennus.fi';

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  const [client] = await db
    .select({ clientId: users.clientId })
    .from(users)
    .where(eq(users.email, DEMO.clientUser));
  await db.insert(users).values({
    email: NO_PERMISSIONS_USER,
    fullName: 'Ei Oikeuksia',
    roleId: ROLE.clientUser,
    clientId: client.clientId,
    activated: true,
    passwordHash: await hashPassword(DEMO_PASSWORD),
    permissions: [],
  });
  for (const [k, email] of Object.entries({ ...DEMO, noPermissions: NO_PERMISSIONS_USER })) {
    tokens[k] = await t.login(email);
  }
});
afterAll(async () => {
  await t?.close();
});

const ROLE_OF: Record<string, { roleId: number; permissions: string[] | null }> = {
  admin: { roleId: ROLE.providerAdmin, permissions: null },
  consultant: { roleId: ROLE.consultant, permissions: null },
  companyAdmin: { roleId: ROLE.companyAdmin, permissions: null },
  clientUser: { roleId: ROLE.clientUser, permissions: null },
  noPermissions: { roleId: ROLE.clientUser, permissions: [] },
};

describe('authorization matrix', () => {
  it('knows every API route and each declares public, auth or a permission', () => {
    expect(t.app.routeCatalogue.length).toBeGreaterThan(10);
    for (const r of t.app.routeCatalogue) {
      expect([r.public, r.auth, r.permission].filter(Boolean)).toHaveLength(1);
    }
  });

  it('refuses to start with a route that declares no access', async () => {
    const { buildApp } = await import('../app.js');
    const app = await buildApp(t.deps);
    expect(() => app.get('/api/oops', async () => 'open')).toThrow(/must declare exactly one/);
    await app.close();
  });

  it('refuses to start with a route that touches a client without declaring it, and checks the declared one', async () => {
    const { buildApp } = await import('../app.js');
    const app = await buildApp(t.deps);
    const config = { permission: 'clients.manage' as const };
    expect(() => app.get('/api/clients/:clientId/oops', { config }, async () => 'open')).toThrow(
      /must declare config.client = 'clientId'/,
    );
    app.post(
      '/api/clients/:clientId/probe',
      { config: { ...config, client: 'clientId' } },
      async () => 'ran',
    );
    await app.ready();
    const admin = await t.login(DEMO.admin);
    const ok = await app.inject({
      method: 'POST',
      url: `/api/clients/${await clientIdOf(t, DEMO.companyAdmin)}/probe`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(ok.statusCode).toBe(200);
    const missing = await app.inject({
      method: 'POST',
      url: '/api/clients/999999/probe',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(missing.statusCode).toBe(404);
    await app.close();
  });

  it('answers every route × role as the catalogue says', async () => {
    const checked: string[] = [];
    for (const route of t.app.routeCatalogue) {
      // An id no row has: the probe checks access only, and must not delete demo rows (DELETE routes).
      const url = route.url.replace(/:[A-Za-z]+/g, '999999');
      const anon = await t.inject({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' ? undefined : {},
      });
      if (!route.public) expect(anon.statusCode, `${route.method} ${url} anonymous`).toBe(401);
      else expect([401, 403]).not.toContain(anon.statusCode);

      for (const [who, role] of Object.entries(ROLE_OF)) {
        const res = await t.inject({
          method: route.method as 'GET',
          url,
          token: tokens[who],
          payload: route.method === 'GET' ? undefined : {},
        });
        const held = effectivePermissions(
          role.roleId,
          role.permissions ?? (who === 'clientUser' ? undefined : null),
        );
        const allowed = route.public || route.auth || permits(held, route.permission);
        const label = `${route.method} ${url} as ${who} (${route.permission ?? (route.auth ? 'auth' : 'public')})`;
        if (allowed) expect([401, 403], label).not.toContain(res.statusCode);
        else expect(res.statusCode, label).toBe(403);
        checked.push(label);
        // "Log out" ended that session on the server: the next routes get a new one.
        if (route.url === '/api/Account/Logout') {
          const email = who === 'noPermissions' ? NO_PERMISSIONS_USER : DEMO[who as keyof typeof DEMO];
          tokens[who] = await t.login(email);
        }
      }
    }
    expect(checked.length).toBe(t.app.routeCatalogue.length * 5);
  });

  it('gives the consultant no master data and no client contracts', () => {
    const held = effectivePermissions(ROLE.consultant);
    expect(held.some((p) => p.startsWith('masters.'))).toBe(false);
    expect(held).not.toContain('reports.clientContracts');
    expect(held).not.toContain('activityLog');
  });
});

describe('tenancy', () => {
  const names = async (who: string, url: string) =>
    (
      (await t.inject({ method: 'GET', url, token: tokens[who] })).json() as Array<{
        name: string;
        clientId: number;
      }>
    ).map((r) => r.name);

  it('shows a company only its own sub-companies and cost centers', async () => {
    expect(await names('companyAdmin', '/api/sub-companies')).toEqual([
      'Pohjola Rakennus Helsinki',
      'Pohjola Rakennus Tampere',
    ]);
    expect(await names('otherCompanyAdmin', '/api/sub-companies')).toEqual([
      'Saimaan Kuljetus Oy',
      'Saimaan Logistiikka Lappeenranta',
    ]);
    const other = await names('otherCompanyAdmin', '/api/cost-centers');
    expect(other).not.toContain('Työmaat');
    expect(other).not.toContain('Myynti');
  });

  it('limits a client user to their sub-company and its cost centers', async () => {
    expect(await names('clientUser', '/api/sub-companies')).toEqual(['Pohjola Rakennus Tampere']);
    expect(await names('clientUser', '/api/cost-centers')).toEqual(['Työmaat']);
  });

  it('offers a company only itself as the client to upload for, the provider every company', async () => {
    expect(await names('companyAdmin', '/api/clients/options')).toEqual(['Pohjola Rakennus Oy']);
    expect(await names('otherCompanyAdmin', '/api/clients/options')).toEqual(['Saimaan Logistiikka Oy']);
    expect(await names('consultant', '/api/clients/options')).toEqual([
      'Pohjola Rakennus Oy',
      'Saimaan Logistiikka Oy',
    ]);
  });

  it('shows the provider every client', async () => {
    expect(await names('admin', '/api/sub-companies')).toHaveLength(4);
    expect(await names('consultant', '/api/cost-centers')).toHaveLength(8);
  });
});
