import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { activityLog } from '../db/schema/index.js';
import { demoUser } from '../test/client-wing.js';
import { createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { logActivity } from './activity-log.js';

let t: TestApp;
let admin: string;
let adminId: number;

const logOf = (entity: string, entityId: number) =>
  t.deps.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.entity, entity), eq(activityLog.entityId, entityId)))
    .orderBy(desc(activityLog.id));

type Currency = { name: string; abbreviation: string; symbol: string };
const addCurrency = (payload: Currency) =>
  t.inject({ method: 'POST', url: '/api/masters/currencies', token: admin, payload });
const editCurrency = (id: number, payload: Currency) =>
  t.inject({ method: 'PUT', url: `/api/masters/currencies/${id}`, token: admin, payload });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
  adminId = (await demoUser(t, DEMO.admin)).id;
});
afterAll(async () => {
  await t?.close();
});

describe('activity log', () => {
  it('writes one row with who, before and after for a master update, without master-specific code', async () => {
    const created = await addCurrency({ name: 'Ruotsin kruunu', abbreviation: 'SEK', symbol: 'kr' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const updated = await editCurrency(id, { name: 'Swedish krona', abbreviation: 'SEK', symbol: 'kr' });
    expect(updated.statusCode, updated.body).toBe(200);

    const rows = await logOf('currencies', id);
    expect(rows.map((r) => r.action)).toEqual(['update', 'create']);
    const [update, create] = rows;
    expect(update).toMatchObject({
      userId: adminId,
      clientId: null,
      area: 'masters',
      before: { id, name: 'Ruotsin kruunu', abbreviation: 'SEK', symbol: 'kr' },
      after: { id, name: 'Swedish krona', abbreviation: 'SEK', symbol: 'kr' },
    });
    expect(create).toMatchObject({ before: null, after: { name: 'Ruotsin kruunu' } });
    expect(update.at).toBeInstanceOf(Date);

    const deleted = await t.inject({ method: 'DELETE', url: `/api/masters/currencies/${id}`, token: admin });
    expect(deleted.statusCode).toBe(200);
    const [del] = await logOf('currencies', id);
    expect(del).toMatchObject({ action: 'delete', before: { name: 'Swedish krona' }, after: null });
  });

  it('leaves no row for a refused write', async () => {
    const a = await addCurrency({ name: 'Norjan kruunu', abbreviation: 'NOK', symbol: 'kr' });
    const b = await addCurrency({ name: 'Tanskan kruunu', abbreviation: 'DKK', symbol: 'kr' });
    const id = b.json().id as number;
    const before = await logOf('currencies', id);
    // The same name as another row: refused inside the transaction.
    const refused = await editCurrency(id, {
      name: a.json().name as string,
      abbreviation: 'DKK',
      symbol: 'kr',
    });
    expect(refused.statusCode).toBe(409);
    expect(await logOf('currencies', id)).toEqual(before);
  });

  it('rolls back with the transaction it was written in', async () => {
    const { db } = t.deps.database;
    await expect(
      db.transaction(async (tx) => {
        await logActivity(tx, {
          userId: adminId,
          area: 'masters',
          action: 'update',
          entity: 'rollback-probe',
          entityId: 1,
          before: { a: 1 },
          after: { a: 2 },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await logOf('rollback-probe', 1)).toEqual([]);
  });
});
