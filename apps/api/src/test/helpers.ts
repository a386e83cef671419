import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { createDeps } from '../deps.js';
import { assertRunsOnPostgres } from './database-files.js';
import { startJobs, stopJobs } from '../jobs/index.js';
import { JobQueue } from '../lib/queue.js';
import { buildApp } from '../app.js';
import { bootstrap } from '../db/seed/bootstrap.js';
import { DEMO_PASSWORD, demoSeed } from '../demo/index.js';
import { demoContract } from '../demo/data.js';
import { and, asc, eq, ne } from 'drizzle-orm';
import {
  clientContracts,
  operators,
  subCompanies,
  userCostCenters,
  userSubCompanies,
  users,
} from '../db/schema/index.js';
import type { Deps } from '../types.js';
import {
  cloneTemplate,
  databaseUrl,
  demoTemplate,
  dropDatabase,
  importDemo,
  seededTemplate,
  seedsLikeTemplate,
} from './template.js';

export { DEMO_PASSWORD };

export const DEMO = {
  admin: 'admin@kulu.fi',
  consultant: 'konsultti@kulu.fi',
  companyAdmin: 'anna.virtanen@pohjolarakennus.fi',
  clientUser: 'mikko.korhonen@pohjolarakennus.fi',
  otherCompanyAdmin: 'jussi.makinen@saimaanlogistiikka.fi',
  otherClientUser: 'sanna.laine@saimaanlogistiikka.fi',
} as const;

/**
 * The demo companies as a generated invoice prints its buyer (`generateInvoice({ buyer })`): an
 * import checks the printed business id against the client's.
 */
export const BUYER = {
  pohjola: { name: 'Pohjola Rakennus Oy', businessId: '2345678-0' },
  saimaa: { name: 'Saimaan Logistiikka Oy', businessId: '0737546-2' },
} as const;

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * Opens a fresh database: in-memory PGlite by default, or a new randomly named database on the
 * PostgreSQL server of TEST_DATABASE_URL (dropped again by `drop`). With `seeded`, it is a copy of
 * the template database (test/template.ts): migrated and seeded as a default test app.
 */
export async function freshDatabase(
  opts: { seeded?: boolean; demo?: boolean } = {},
): Promise<{ database: Database; drop: () => Promise<void> }> {
  await assertRunsOnPostgres();
  if (opts.demo) return cloneTemplate(await demoTemplate());
  if (opts.seeded) return cloneTemplate(await seededTemplate());
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const database = await openDatabase({});
    return { database, drop: async () => {} };
  }
  const name = `kulu_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = await openDatabase({ url: databaseUrl(base, name) });
  return { database, drop: () => dropDatabase(base, name) };
}

/** A loopback SMTP server that keeps what it receives. */
async function startSmtp(): Promise<{ url: string; mails: ReceivedMail[]; close: () => Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((r) => server.close(() => r())) };
}

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  mails: ReceivedMail[];
  /** Shift the clock the app sees (token expiry, link expiry, locks). */
  advanceClock(ms: number): void;
  inject(opts: InjectOptions & { token?: string; csrf?: boolean }): Promise<LightMyRequestResponse>;
  login(email: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A test app on a database of its own. With `demo`, the database holds what a demo install's first
 * start imports (every demo invoice, parsed): a copy of the demo template (test/template.ts), or,
 * with TEST_DB_TEMPLATE=off, imported by this app itself. With `jobs`, its job workers run (without
 * the schedules), as an upload's parse and the queued work need.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: { demo?: boolean; jobs?: boolean } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-test-'));
  const smtp = await startSmtp();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'true',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'http://kulu.test',
    // Every test file signs in from one address: the shared per-IP budget of the public account
    // calls is tested where a test sets it (trust-proxy, bootstrap), not spent by the others.
    LOGIN_RATE_PER_MINUTE: '1000',
    ...env,
  });
  // The default seed comes copied from the template; other settings seed their own (SEED_SETTINGS).
  const seeded = seedsLikeTemplate(config);
  if (opts.demo && !seeded && process.env.TEST_DB_TEMPLATE !== 'off')
    throw new Error('the demo template is seeded with the default settings only');
  const { database, drop } = await freshDatabase({ seeded, demo: opts.demo && seeded });
  if (!seeded) await database.migrate();
  let offset = 0;
  const deps = createDeps(config, database, {
    now: () => new Date(Date.now() + offset),
    // Jobs start only where a test calls startJobs(t.deps); retries come quickly.
    jobs: new JobQueue(database, { retryLimit: 1, retryDelay: 1, retryBackoff: false }),
  });
  try {
    if (!seeded) await bootstrap(deps, demoSeed);
    if (opts.demo && !seeded) await importDemo(deps);
  } catch (e) {
    // A refused start must not leave its database (or the SMTP server) behind.
    await database.close();
    await drop();
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const app = await buildApp(deps);
  await app.ready();
  if (opts.jobs) await startJobs(deps, { schedules: false });

  const xsrf = 'test-xsrf-token-0123456789abcdef';
  const inject: TestApp['inject'] = ({ token, csrf = true, headers, ...opts }) =>
    app.inject({
      ...opts,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(csrf ? { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf } : {}),
        ...headers,
      },
    });

  return {
    app,
    deps,
    config,
    mails: smtp.mails,
    advanceClock: (ms) => {
      offset += ms;
    },
    inject,
    async login(email, password = DEMO_PASSWORD) {
      const res = await inject({ method: 'POST', url: '/api/Account/login', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
      return res.json().access_token as string;
    },
    async close() {
      await app.close();
      // The workers, their sweeps and the parse child (what startJobs started, if a test did).
      await stopJobs(deps);
      await database.close();
      await drop();
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second API instance on the test app's database, as behind a load balancer: its own process
 * memory and, on PostgreSQL, its own connections (PGlite is one process: the same database).
 */
export async function secondInstance(
  t: Pick<TestApp, 'deps'>,
): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const url = t.deps.database.url;
  const database = url ? await openDatabase({ url }) : t.deps.database;
  const app = await buildApp({ ...t.deps, database });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      if (database !== t.deps.database) await database.close();
    },
  };
}

/** A received mail's text, quoted-printable decoded. */
export function mailText(mail: ReceivedMail): string {
  const unfolded = mail.raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unfolded.length; i++) {
    const hex = unfolded.slice(i + 1, i + 3);
    if (unfolded[i] === '=' && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(unfolded[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The link a mail carries (reset or activation). */
export function linkToken(mail: ReceivedMail): string {
  const m = /token=([A-Za-z0-9_-]+)/.exec(mailText(mail));
  if (!m) throw new Error('no token link in mail');
  return m[1];
}

/** Follows `mail`'s activation link as the app does: POST /api/Account/Activate setting `password`. */
export function activateByMail(t: Pick<TestApp, 'inject'>, mail: ReceivedMail, password: string) {
  return t.inject({
    method: 'POST',
    url: '/api/Account/Activate',
    payload: { token: linkToken(mail), password, confirmPassword: password },
  });
}

/**
 * Gives a client (a company or a consultant firm) the demo's active contract, so that its users are
 * not locked out (lib/contract-access.ts): for fixtures that add clients of their own.
 */
export async function addActiveContract(t: Pick<TestApp, 'deps'>, clientId: number): Promise<void> {
  await t.deps.database.db.insert(clientContracts).values(demoContract(clientId, t.deps.now()));
}

/** A signed-in demo identity with the role and permissions its session carries. */
export interface DemoCaller {
  name: string;
  token: string;
  roleId: number;
  permissions: string[];
}

/** Every demo identity signed in, with its role and permissions (the route-table walks use them). */
export async function demoCallers(t: TestApp): Promise<DemoCaller[]> {
  const callers: DemoCaller[] = [];
  for (const [name, email] of Object.entries(DEMO)) {
    const token = await t.login(email);
    const info = (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token })).json() as {
      roleID: number;
      acessPermissions: string[];
    };
    callers.push({ name, token, roleId: info.roleID, permissions: info.acessPermissions });
  }
  return callers;
}

/** A token per named demo identity, each signed in on `t` in turn. */
export async function demoTokens<K extends keyof typeof DEMO>(
  t: Pick<TestApp, 'login'>,
  names: readonly K[],
): Promise<Record<K, string>> {
  const tok = {} as Record<K, string>;
  for (const k of names) tok[k] = await t.login(DEMO[k]);
  return tok;
}

/** The client a demo login belongs to (its users row's client). */
export async function clientIdOf(t: Pick<TestApp, 'deps'>, email: string): Promise<number> {
  const [me] = await t.deps.database.db
    .select({ clientId: users.clientId })
    .from(users)
    .where(eq(users.email, email));
  return me!.clientId!;
}

/** The id of the operator named `name` (the catalogue's Elisa, Telia, DNA…). */
export async function operatorIdOf(t: Pick<TestApp, 'deps'>, name: string): Promise<number> {
  const [op] = await t.deps.database.db
    .select({ id: operators.id })
    .from(operators)
    .where(eq(operators.name, name));
  return op!.id;
}

/** The demo client user after `limitDemoClientUser`: its client, its one sub-company and another. */
export interface LimitedClientUser {
  userId: number;
  clientId: number;
  /** The user's own sub-company. */
  subA: number;
  /** Another sub-company of the same client, outside the user's reach. */
  subB: number;
}

/**
 * Makes the demo client user a user limited to its one sub-company, with no cost-center limit and
 * exactly `permissions`: the identity the Scope tests of dashboards, subscriptions, optimization
 * and alerts read as.
 */
export async function limitDemoClientUser(
  t: Pick<TestApp, 'deps'>,
  permissions: string[],
): Promise<LimitedClientUser> {
  const { db } = t.deps.database;
  const [u] = await db
    .select({ id: users.id, clientId: users.clientId })
    .from(users)
    .where(eq(users.email, DEMO.clientUser));
  const clientId = u.clientId!;
  await db.update(users).set({ permissions }).where(eq(users.id, u.id));
  await db.delete(userCostCenters).where(eq(userCostCenters.userId, u.id));
  const own = await db
    .select({ id: userSubCompanies.subCompanyId })
    .from(userSubCompanies)
    .where(eq(userSubCompanies.userId, u.id));
  if (own.length !== 1) throw new Error(`the demo client user has ${own.length} sub-companies, not 1`);
  const [other] = await db
    .select({ id: subCompanies.id })
    .from(subCompanies)
    .where(and(eq(subCompanies.clientId, clientId), ne(subCompanies.id, own[0].id)))
    .orderBy(asc(subCompanies.id))
    .limit(1);
  return { userId: u.id, clientId, subA: own[0].id, subB: other.id };
}
