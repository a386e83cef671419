import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { namingClient, StatementNamer } from './named-statements.js';

describe('naming repeated statements', () => {
  it('names a statement from its second run on, the same name for the same text', () => {
    const namer = new StatementNamer();
    const text = 'select id from invoices where client_id = $1';
    expect(namer.nameFor(text)).toBeUndefined();
    const name = namer.nameFor(text);
    expect(name).toMatch(/^kulu_[\w-]{24}$/);
    expect(namer.nameFor(text)).toBe(name);
    expect(namer.nameFor(`${text} `)).toBeUndefined();
  });

  it('never names DDL or transaction control, however often it runs', () => {
    const namer = new StatementNamer({ after: 1 });
    for (const text of ['create table t (id int)', 'begin', 'commit', 'alter table t add c int', 'vacuum']) {
      expect(namer.nameFor(text)).toBeUndefined();
      expect(namer.nameFor(text)).toBeUndefined();
    }
    expect(namer.nameFor('  WITH x as (select 1) select * from x')).toBeDefined();
    expect(namer.nameFor('update t set c = $1')).toBeDefined();
  });

  it('names at most maxNamed texts, then sends the rest unnamed', () => {
    const namer = new StatementNamer({ after: 1, maxNamed: 3 });
    const names = Array.from({ length: 5 }, (_, i) => namer.nameFor(`select ${i}`));
    expect(names.filter(Boolean)).toHaveLength(3);
    expect(names.slice(3)).toEqual([undefined, undefined]);
    expect(namer.nameFor('select 0')).toBe(names[0]);
    expect(namer.size).toBe(3);
  });

  it('counts a bounded number of texts', () => {
    const namer = new StatementNamer({ maxCounted: 2 });
    namer.nameFor('select 1');
    namer.nameFor('select 2');
    namer.nameFor('select 3'); // the count starts over here
    expect(namer.nameFor('select 1')).toBeUndefined();
    expect(namer.nameFor('select 3')).toBeDefined();
  });

  it('names the repeated queries it forwards to pg, and leaves named, text-only and cursor calls alone', () => {
    const forwarded: unknown[] = [];
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(((config: unknown) => {
      forwarded.push(config);
      return Promise.resolve({ rows: [] });
    }) as never);
    try {
      const Client = namingClient(new StatementNamer());
      const client = new Client();
      const config = { text: 'select * from invoices where id = $1', rowMode: 'array' };
      void client.query(config, [1]);
      void client.query(config, [2]);
      void client.query({ text: 'select 1', name: 'mine' });
      void client.query('select 2');
      void client.query('select 2');
      const cursor = { text: 'select 3', submit: () => {} };
      void client.query(cursor);
      void client.query(cursor);
      expect(forwarded[0]).toBe(config);
      expect(forwarded[1]).toEqual({ ...config, name: expect.stringMatching(/^kulu_/) });
      expect(config).not.toHaveProperty('name');
      expect(forwarded.slice(2)).toEqual([
        { text: 'select 1', name: 'mine' },
        'select 2',
        'select 2',
        cursor,
        cursor,
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'prepares a repeated query once on its connection and answers it as before (PostgreSQL)',
    async () => {
      // Plain SELECTs touching no table: the server's own database will do.
      const Client = namingClient(new StatementNamer());
      const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        const ask = (n: number) =>
          client.query({ text: 'select $1::int + 1 as next', values: [n] }).then((r) => r.rows[0].next);
        expect(await ask(1)).toBe(2);
        expect(await ask(2)).toBe(3);
        expect(await ask(3)).toBe(4);
        const prepared = await client.query(
          "select name, statement from pg_prepared_statements where statement like 'select $1::int%'",
        );
        expect(prepared.rows).toHaveLength(1);
        expect(prepared.rows[0].name).toMatch(/^kulu_/);
        // Text-only calls (pg-boss, raw SQL) stay unnamed.
        await client.query('select 41 + 1');
        await client.query('select 41 + 1');
        const all = await client.query('select count(*)::int as n from pg_prepared_statements');
        expect(all.rows[0].n).toBe(1);
      } finally {
        await client.end();
      }
    },
  );
});
