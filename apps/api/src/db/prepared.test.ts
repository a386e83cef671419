import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { withFastRows } from './prepared.js';
import { clientContracts, clients, users } from './schema/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.login(DEMO.admin); // a last-login timestamp among the nulls
});
afterAll(async () => {
  await t?.close();
});

describe('rows mapped once per statement', () => {
  it('maps rows exactly as drizzle does: nested, joined, null, dates, timestamps, numerics, subqueries', async () => {
    const { db } = t.deps.database;
    const select = () =>
      db
        .select({
          total: sql<number>`count(*) over ()`.mapWith(Number),
          row: {
            id: users.id,
            email: users.email,
            createdAt: users.createdAt,
            lastLoginAt: users.lastLoginAt,
            clientId: users.clientId,
            permissions: users.permissions,
          },
          clientName: clients.companyName,
          contractStart: clientContracts.startDate,
          monthlyCost: clientContracts.monthlyCost,
          contracts: db.$count(clientContracts, eq(clientContracts.clientId, users.clientId)),
        })
        .from(users)
        .leftJoin(clients, eq(clients.id, users.clientId))
        .leftJoin(clientContracts, eq(clientContracts.clientId, clients.id))
        .orderBy(users.id, clientContracts.id);
    const drizzles = await select().prepare('kulu_test_drizzle_rows').execute();
    const fast = withFastRows(select().prepare('kulu_test_fast_rows'));
    expect((fast as unknown as { customResultMapper?: unknown }).customResultMapper).toBeDefined();
    const ours = await fast.execute();
    expect(drizzles.length).toBeGreaterThan(5);
    expect(ours).toEqual(drizzles);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(drizzles));
    // What the comparison covers: nulls from a left join, dates, timestamps, numerics, a subquery.
    expect(drizzles.some((r) => r.clientName === null)).toBe(true);
    expect(drizzles.some((r) => typeof r.contractStart === 'string')).toBe(true);
    expect(drizzles.some((r) => typeof r.monthlyCost === 'string')).toBe(true);
    expect(drizzles.some((r) => r.row.lastLoginAt instanceof Date)).toBe(true);
    expect(drizzles[0]!.row.createdAt).toBeInstanceOf(Date);
    expect(drizzles.some((r) => r.contracts > 0)).toBe(true);
  });

  it("leaves drizzle's mapping where it would turn a left-joined object into null", async () => {
    const { db } = t.deps.database;
    const prepared = withFastRows(
      db
        .select({ id: users.id, client: { id: clients.id, name: clients.companyName } })
        .from(users)
        .leftJoin(clients, eq(clients.id, users.clientId))
        .prepare('kulu_test_nullable_rows'),
    );
    expect((prepared as unknown as { customResultMapper?: unknown }).customResultMapper).toBeUndefined();
    const rows = await prepared.execute();
    expect(rows.some((r) => r.client === null)).toBe(true);
    expect(rows.some((r) => r.client !== null)).toBe(true);
  });
});
