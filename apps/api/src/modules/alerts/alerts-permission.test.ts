import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { MIGRATIONS_DIR } from '../../db/client.js';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';

/**
 * Migration 0021 grants `alerts` to users whose saved permission list holds the dashboards or the
 * cost summary (decision 0023, "Existing users"): run its statement again on lists saved before it.
 */
let t: TestApp;

const grant = () =>
  fs
    .readFileSync(path.join(MIGRATIONS_DIR, '0021_alerts_audience_and_permission.sql'), 'utf8')
    .split('--> statement-breakpoint')
    .find((s) => s.includes('UPDATE "users"'))!;

const permissionsOf = async (email: string) =>
  (await t.deps.database.db.select({ p: users.permissions }).from(users).where(eq(users.email, email)))[0].p;
const setPermissions = (email: string, permissions: string[] | null) =>
  t.deps.database.db.update(users).set({ permissions }).where(eq(users.email, email));

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('migration 0021: alerts for existing users', () => {
  it('adds alerts to saved lists with the dashboards or the cost summary, and to no other list', async () => {
    await setPermissions(DEMO.clientUser, ['general', 'dashboards', 'savings']);
    await setPermissions(DEMO.otherClientUser, ['general', 'invoices.upload']);
    await setPermissions(DEMO.consultant, ['general', 'reports.costSummary']);
    await setPermissions(DEMO.companyAdmin, null);
    let token = await t.login(DEMO.clientUser);
    expect((await t.inject({ method: 'GET', url: '/api/alerts', token })).statusCode).toBe(403);

    await t.deps.database.executeSql(grant());
    expect(await permissionsOf(DEMO.clientUser)).toEqual(['general', 'dashboards', 'savings', 'alerts']);
    expect(await permissionsOf(DEMO.otherClientUser)).toEqual(['general', 'invoices.upload']);
    expect(await permissionsOf(DEMO.consultant)).toEqual(['general', 'reports.costSummary', 'alerts']);
    expect(await permissionsOf(DEMO.companyAdmin)).toBeNull();
    token = await t.login(DEMO.clientUser);
    expect((await t.inject({ method: 'GET', url: '/api/alerts', token })).statusCode).toBe(200);

    // Run again: nothing twice.
    await t.deps.database.executeSql(grant());
    expect(await permissionsOf(DEMO.clientUser)).toEqual(['general', 'dashboards', 'savings', 'alerts']);
  });
});
