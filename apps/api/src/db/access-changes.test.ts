import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  ACCESS_CHANNEL,
  ChangeClock,
  ClockedCache,
  isWrite,
  listenForAccessChanges,
  WriteTracker,
} from './access-changes.js';
import { namingClient, StatementNamer } from './named-statements.js';

const liveClock = () => {
  const clock = new ChangeClock();
  clock.setLive(true);
  return clock;
};

describe('what counts as a write', () => {
  it('counts DML and DDL of the app, in any case and after a CTE, but not reads or the queue', () => {
    for (const text of [
      'insert into "users" ("email") values ($1)',
      '  UPDATE users SET status = $1',
      'delete from "user_sub_companies" where "user_id" = $1',
      'truncate clients',
      'create table t (id int)',
      'with gone as (delete from "client_contracts" where id = $1 returning id) select count(*) from gone',
      'with x as (select 1) update "users" set "full_name" = $1',
    ]) {
      expect(isWrite(text), text).toBe(true);
    }
    for (const text of [
      'select "id" from "users" where "id" = $1',
      'with x as (select id from users) select * from x',
      'begin',
      'commit',
      'with next as (select id from pgboss.job for update skip locked) update pgboss.job j set state = $1',
      'insert into pgboss.job (id) values ($1)',
    ]) {
      expect(isWrite(text), text).toBe(false);
    }
  });
});

describe('a connection’s writes move the clock once done', () => {
  it('moves it when a write outside a transaction completes, not for reads', () => {
    const clock = new ChangeClock();
    const writes = new WriteTracker(clock);
    expect(writes.sending('select 1')).toBe(false);
    expect(clock.generation).toBe(0);
    expect(writes.sending('update users set status = $1')).toBe(true);
    expect(clock.generation).toBe(0);
    writes.completed('I');
    expect(clock.generation).toBe(1);
    expect(writes.sending('select 1')).toBe(false);
  });

  it('inside a transaction, moves it when the transaction ends, not before', () => {
    const clock = new ChangeClock();
    const writes = new WriteTracker(clock);
    writes.sending('begin');
    writes.completed('T');
    writes.sending('delete from user_cost_centers where user_id = $1');
    writes.completed('T');
    expect(writes.sending('select 1')).toBe(true); // still tracked: the commit is what counts
    writes.completed('T');
    expect(clock.generation).toBe(0);
    writes.sending('commit');
    writes.completed('I');
    expect(clock.generation).toBe(1);
  });

  it('a failed transaction moves it when rolled back', () => {
    const clock = new ChangeClock();
    const writes = new WriteTracker(clock);
    writes.sending('insert into clients (name) values ($1)');
    writes.completed('E');
    expect(clock.generation).toBe(0);
    writes.sending('rollback');
    writes.completed('I');
    expect(clock.generation).toBe(1);
  });

  it('the pool’s client moves it after a write completes, by callback and by promise', async () => {
    let status = 'I';
    const calls: unknown[][] = [];
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(((...args: unknown[]) => {
      calls.push(args);
      const cb = args.at(-1);
      if (typeof cb === 'function') {
        setImmediate(() => (cb as (e: unknown, r: unknown) => void)(null, { rows: [] }));
        return undefined;
      }
      return new Promise((r) => setImmediate(() => r({ rows: [] })));
    }) as never);
    const statusSpy = vi
      .spyOn(pg.Client.prototype, 'getTransactionStatus')
      .mockImplementation(() => status as never);
    try {
      const clock = new ChangeClock();
      const Client = namingClient(new StatementNamer(), clock);
      const client = new Client();
      // Through pool.query: text and values with a callback.
      const answered = await new Promise<unknown>((resolve) =>
        client.query('update users set status = $1', ['inactive'], (_e: unknown, r: unknown) => resolve(r)),
      );
      expect(answered).toEqual({ rows: [] });
      expect(clock.generation).toBe(1);
      // A checked-out client in a transaction: promises, moved only by the commit.
      status = 'T';
      await client.query({ text: 'insert into user_sub_companies (user_id) values ($1)', values: [1] });
      expect(clock.generation).toBe(1);
      status = 'I';
      await client.query('commit');
      expect(clock.generation).toBe(2);
      await client.query({ text: 'select * from users where id = $1', values: [1] });
      expect(clock.generation).toBe(2);
      expect(calls).toHaveLength(4);
    } finally {
      spy.mockRestore();
      statusSpy.mockRestore();
    }
  });
});

describe('answers kept while the clock stands still', () => {
  it('keeps an answer and gives it again without loading', async () => {
    const cache = new ClockedCache<number>(liveClock());
    const load = vi.fn(async () => 7);
    expect(await cache.get('a', load)).toBe(7);
    expect(await cache.get('a', load)).toBe(7);
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.size).toBe(1);
  });

  it('forgets everything when the clock moves', async () => {
    const clock = liveClock();
    const cache = new ClockedCache<number>(clock);
    let n = 0;
    const load = async () => ++n;
    expect(await cache.get('a', load)).toBe(1);
    clock.tick();
    expect(cache.size).toBe(0);
    expect(await cache.get('a', load)).toBe(2);
    expect(await cache.get('a', load)).toBe(2);
  });

  it('does not keep an answer read while the clock moved', async () => {
    const clock = liveClock();
    const cache = new ClockedCache<string>(clock);
    // The change commits while the old row is on its way.
    expect(
      await cache.get('a', async () => {
        clock.tick();
        return 'old';
      }),
    ).toBe('old');
    expect(await cache.get('a', async () => 'new')).toBe('new');
  });

  it('keeps nothing while changes cannot reach the process', async () => {
    const clock = new ChangeClock();
    const cache = new ClockedCache<number>(clock);
    const load = vi.fn(async () => 1);
    await cache.get('a', load);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(2);
    clock.setLive(true);
    await cache.get('a', load);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(3);
    clock.setLive(false);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('is bounded, and ages answers out', async () => {
    const cache = new ClockedCache<number>(liveClock(), 3, 1_000);
    for (let i = 0; i < 3; i++) await cache.get(String(i), async () => i);
    expect(cache.size).toBe(3);
    await cache.get('3', async () => 3);
    expect(cache.size).toBe(1);
    const now = vi.spyOn(performance, 'now').mockReturnValue(performance.now() + 1_001);
    try {
      expect(await cache.get('3', async () => 33)).toBe(33);
    } finally {
      now.mockRestore();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('listening for access changes (PostgreSQL)', () => {
  const url = process.env.TEST_DATABASE_URL!;

  it('moves the clock on a notification, and is not live while its connection is lost', async () => {
    const clock = new ChangeClock();
    const logged: string[] = [];
    const listener = await listenForAccessChanges(url, clock, (l) => logged.push(l));
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      expect(clock.live).toBe(true);
      const before = clock.generation;
      await other.query(`select pg_notify('${ACCESS_CHANNEL}', '')`);
      await vi.waitFor(() => expect(clock.generation).toBeGreaterThan(before), { timeout: 5_000 });

      // Its connection is killed (a server restart, an administrator): not live, then back.
      await other.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where query = 'LISTEN ${ACCESS_CHANNEL}' and datname = current_database() and pid <> pg_backend_pid()`,
      );
      await vi.waitFor(() => expect(clock.live).toBe(false), { timeout: 5_000 });
      expect(logged.join('\n')).toMatch(/access notifications lost/);
      await vi.waitFor(() => expect(clock.live).toBe(true), { timeout: 10_000 });
      const again = clock.generation;
      await other.query(`select pg_notify('${ACCESS_CHANNEL}', '')`);
      await vi.waitFor(() => expect(clock.generation).toBeGreaterThan(again), { timeout: 5_000 });
    } finally {
      await other.end();
      await listener.close();
    }
    expect(clock.live).toBe(false);
  });
});
