import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, type Database } from '../db/client.js';
import { operators, users } from '../db/schema/index.js';
import { createTestApp, DEMO, type TestApp } from './helpers.js';
import {
  DEMO_TEMPLATE_SOURCES,
  TEMPLATE_SOURCES,
  cloneTemplate,
  dropTemplate,
  ensureTemplate,
  seedsLikeTemplate,
  templateKey,
  type Template,
} from './template.js';

describe('test apps cloned from the template database', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('do not see each other’s writes, and a later clone starts from the seed again', async () => {
    const a = await createTestApp();
    apps.push(a);
    const b = await createTestApp();
    apps.push(b);
    expect(seedsLikeTemplate(a.config)).toBe(true);

    await a.deps.database.db
      .update(users)
      .set({ fullName: 'Vain A' })
      .where(eq(users.email, DEMO.clientUser));
    await a.deps.database.db.insert(operators).values({ name: 'Vain A Oy' });

    const c = await createTestApp();
    apps.push(c);
    for (const other of [b, c]) {
      const [u] = await other.deps.database.db
        .select({ fullName: users.fullName })
        .from(users)
        .where(eq(users.email, DEMO.clientUser));
      expect(u.fullName).toBe('Mikko Korhonen');
      expect(
        await other.deps.database.db.select().from(operators).where(eq(operators.name, 'Vain A Oy')),
      ).toEqual([]);
    }
    // The seed is all there: a demo login works in the clone.
    expect(await c.login(DEMO.companyAdmin)).toBeTruthy();
  });

  it('are not used when a setting changes the seed', async () => {
    const t = await createTestApp({
      DEMO_DATA: 'false',
      ADMIN_EMAIL: 'root@kulu.fi',
      ADMIN_PASSWORD: 'Root!2026x',
    });
    apps.push(t);
    expect(seedsLikeTemplate(t.config)).toBe(false);
    const emails = (await t.deps.database.db.select({ email: users.email }).from(users)).map((u) => u.email);
    expect(emails).toEqual(['root@kulu.fi']);
  });
});

describe('the template key', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-template-test-'));
  const built: Template[] = [];
  const dir = process.env.TEST_TEMPLATE_DIR;
  afterEach(() => {
    if (dir === undefined) delete process.env.TEST_TEMPLATE_DIR;
    else process.env.TEST_TEMPLATE_DIR = dir;
  });
  afterAll(async () => {
    for (const tpl of built) await dropTemplate(tpl);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('changes with the day and with any migration', () => {
    const copy = path.join(tmp, 'migrations');
    fs.cpSync(MIGRATIONS_DIR, copy, { recursive: true });
    const day = new Date('2026-03-04T12:00:00Z');
    const before = templateKey({ sources: [copy], day });
    expect(templateKey({ sources: [copy], day })).toBe(before);
    expect(before.startsWith('20260304_')).toBe(true);
    expect(templateKey({ sources: [copy], day: new Date('2026-03-05T00:00:00Z') })).not.toBe(before);
    const last = fs
      .readdirSync(copy)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .at(-1)!;
    fs.appendFileSync(path.join(copy, last), '\n-- changed\n');
    expect(templateKey({ sources: [copy], day })).not.toBe(before);
  });

  it('of the demo template is its own, and changes with any source the demo import runs', () => {
    const day = new Date('2026-03-04T12:00:00Z');
    const demo = templateKey({ sources: DEMO_TEMPLATE_SOURCES, day, variant: 'demo' });
    expect(demo).not.toBe(templateKey({ day }));
    expect(demo).toMatch(/^20260304_[0-9a-f]{16}_demo(_|$)/);
    // The generator and parser (packages/invoices), the optimizer and the whole API are sources of
    // the demo template, not of the seeded one: a change to how an invoice is read builds it anew.
    const root = path.resolve(MIGRATIONS_DIR, '../../../../..');
    for (const dir of ['packages/invoices/src', 'packages/optimizer/src', 'apps/api/src']) {
      expect(fs.existsSync(path.join(root, dir)), dir).toBe(true);
      expect(DEMO_TEMPLATE_SOURCES).toContain(path.join(root, dir));
      expect(TEMPLATE_SOURCES).not.toContain(path.join(root, dir));
    }
    expect(DEMO_TEMPLATE_SOURCES).toEqual(expect.arrayContaining(TEMPLATE_SOURCES));
  });

  it('of a changed migration builds a new template, once for parallel callers, and clones copy it', async () => {
    process.env.TEST_TEMPLATE_DIR = path.join(tmp, 'tarballs');
    const copy = path.join(tmp, 'changing');
    fs.cpSync(MIGRATIONS_DIR, copy, { recursive: true });
    let builds = 0;
    const build = (marker: string) => async (database: Database) => {
      builds++;
      await database.executeSql(
        `create table template_marker (key text); insert into template_marker values ('${marker}')`,
      );
    };

    const first = templateKey({ sources: [copy] });
    const a = await Promise.all([
      ensureTemplate(first, build('first')),
      ensureTemplate(first, build('first')),
    ]);
    built.push(a[0]);
    expect(a.map((t) => t.built).sort()).toEqual([false, true]);
    expect(builds).toBe(1);
    expect((await ensureTemplate(first, build('first'))).built).toBe(false);
    expect(builds).toBe(1);

    fs.appendFileSync(path.join(copy, '0000_init.sql'), '\n-- changed\n');
    const second = templateKey({ sources: [copy] });
    const b = await ensureTemplate(second, build('second'));
    built.push(b);
    expect(b.built).toBe(true);
    expect(b.source).not.toBe(a[0].source);
    expect(builds).toBe(2);

    for (const [tpl, marker] of [
      [a[0], 'first'],
      [b, 'second'],
    ] as const) {
      const { database, drop } = await cloneTemplate(tpl);
      try {
        expect((await database.executeSql('select key from template_marker')).rows).toEqual([
          { key: marker },
        ]);
      } finally {
        await database.close();
        await drop();
      }
    }
  });
});
