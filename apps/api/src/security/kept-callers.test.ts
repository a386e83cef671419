import { and, eq, sql } from 'drizzle-orm';
import { addDays, helsinkiDay, helsinkiDayStart } from '@kulu/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ClockedCache } from '../db/access-changes.js';
import { openDatabase } from '../db/client.js';
import { clientContracts, clients, operators, users } from '../db/schema/index.js';
import { createTestApp, DEMO, type TestApp } from '../test/helpers.js';

/**
 * The access check keeps the callers it read, and the session details the company (issue 13,
 * docs/decisions/0017): these tests hold them to "never older than a change": this instance's own
 * writes are seen by its next request, another instance's once its notification arrives, and the
 * lock-out follows the day.
 */
let t: TestApp;
let loads: string[];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

// Counts the access check's trips to the database (what the cache is for).
const get = ClockedCache.prototype.get;
beforeAll(() => {
  vi.spyOn(ClockedCache.prototype, 'get').mockImplementation(function (
    this: ClockedCache<unknown>,
    key: string,
    load: () => Promise<unknown>,
  ) {
    return get.call(this, key, () => {
      loads.push(key);
      return load();
    });
  });
});
afterAll(() => {
  vi.restoreAllMocks();
});
afterEach(() => {
  loads = [];
});
loads = [];

const userOf = async (email: string) =>
  (
    await t.deps.database.db
      .select({ id: users.id, clientId: users.clientId })
      .from(users)
      .where(eq(users.email, email))
  )[0]!;
const status = async (token: string, url = '/api/invoices') =>
  (await t.inject({ method: 'GET', url, token })).statusCode;

describe('the callers the access check keeps', () => {
  it('reads a caller and its company once, then answers from what it keeps while nothing they read changes', async () => {
    const { id, clientId } = await userOf(DEMO.companyAdmin);
    loads = [];
    // The login's session details read the company (after the login's own writes).
    const token = await t.login(DEMO.companyAdmin);
    for (let i = 0; i < 3; i++) expect(await status(token)).toBe(200);
    for (let i = 0; i < 2; i++) expect(await status(token, '/api/Account/GetClientInfo')).toBe(200);
    const day = helsinkiDay(new Date());
    expect(loads).toEqual([`${clientId} ${day}`, `${id} ${day}`]);
  });

  it("shows this instance's change to the company in the next session details", async () => {
    const token = await t.login(DEMO.companyAdmin);
    const info = async () =>
      (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token })).json() as {
        companyName: string;
        operators: { id: number; name: string }[];
      };
    const before = await info();
    const { clientId } = await userOf(DEMO.companyAdmin);
    await t.deps.database.db
      .update(clients)
      .set({ companyName: 'Pohjola Rakennus Uusi Oy' })
      .where(eq(clients.id, clientId!));
    expect((await info()).companyName).toBe('Pohjola Rakennus Uusi Oy');
    const [op] = before.operators;
    await t.deps.database.db.update(operators).set({ name: 'Elisa Oyj' }).where(eq(operators.id, op.id));
    expect((await info()).operators.find((o) => o.id === op.id)?.name).toBe('Elisa Oyj');
    await t.deps.database.db
      .update(clients)
      .set({ companyName: before.companyName })
      .where(eq(clients.id, clientId!));
    await t.deps.database.db.update(operators).set({ name: op.name }).where(eq(operators.id, op.id));
  });

  it("sees this instance's own write on the next request: permissions, deactivation", async () => {
    const token = await t.login(DEMO.clientUser);
    const { id } = await userOf(DEMO.clientUser);
    expect(await status(token, '/api/dashboard/cost-usage')).toBe(200);
    await t.deps.database.db
      .update(users)
      .set({ permissions: ['general'] })
      .where(eq(users.id, id));
    expect(await status(token, '/api/dashboard/cost-usage')).toBe(403);
    await t.deps.database.db.update(users).set({ permissions: null }).where(eq(users.id, id));
    expect(await status(token, '/api/dashboard/cost-usage')).toBe(200);

    // In a transaction: seen once it commits, and not at all when it is rolled back.
    await t.deps.database.db
      .transaction(async (tx) => {
        await tx.update(users).set({ status: 'inactive' }).where(eq(users.id, id));
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await status(token, '/api/dashboard/cost-usage')).toBe(200);
    await t.deps.database.db.transaction(async (tx) => {
      await tx.update(users).set({ status: 'inactive' }).where(eq(users.id, id));
    });
    expect(await status(token, '/api/dashboard/cost-usage')).toBe(401);
    await t.deps.database.db.update(users).set({ status: 'active' }).where(eq(users.id, id));
  });

  it('keeps callers per day: a contract that ends today locks the company out after midnight', async () => {
    // A minute before the next midnight (in Europe/Helsinki, the app's day), within the token's
    // lifetime.
    const now = t.deps.now();
    const midnight = helsinkiDayStart(addDays(helsinkiDay(now), 1)).getTime();
    let moved = 0;
    const move = (ms: number) => {
      t.advanceClock(ms);
      moved += ms;
    };
    move(midnight - now.getTime() - 60_000);
    try {
      const token = await t.login(DEMO.otherCompanyAdmin);
      const { clientId } = await userOf(DEMO.otherCompanyAdmin);
      await t.deps.database.db
        .update(clientContracts)
        .set({ endDate: helsinkiDay(t.deps.now()) })
        .where(and(eq(clientContracts.clientId, clientId!), eq(clientContracts.status, 'active')));
      loads = [];
      expect(await status(token)).toBe(200);
      expect(await status(token)).toBe(200);
      expect(loads).toHaveLength(1);
      move(120_000);
      expect(await status(token)).toBe(403);
      expect(loads).toHaveLength(2);
    } finally {
      t.advanceClock(-moved);
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "sees another instance's change once its notification arrives (PostgreSQL)",
    async () => {
      const token = await t.login(DEMO.consultant);
      expect(await status(token, '/api/Account/GetClientInfo')).toBe(200);
      expect(await status(token, '/api/Account/GetClientInfo')).toBe(200);
      // A second instance on the same database, as behind a load balancer.
      const [{ name }] = (
        await t.deps.database.db.execute<{ name: string }>(sql`select current_database() as name`)
      ).rows;
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const other = await openDatabase({ url: url.toString() });
      try {
        const clock = t.deps.database.changes;
        const before = clock.generation;
        await other.db.update(users).set({ status: 'inactive' }).where(eq(users.email, DEMO.consultant));
        await vi.waitFor(() => expect(clock.generation).toBeGreaterThan(before), { timeout: 5_000 });
        expect(await status(token, '/api/Account/GetClientInfo')).toBe(401);
        await other.db.update(users).set({ status: 'active' }).where(eq(users.email, DEMO.consultant));
      } finally {
        await other.close();
      }
    },
  );
});
