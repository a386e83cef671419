import { count, eq } from 'drizzle-orm';
import { ROLE } from '@kulu/shared';
import { clients, operators, users } from '../schema/index.js';
import { hashPassword } from '../../lib/passwords.js';
import type { Config } from '../../config.js';
import type { Deps } from '../../types.js';
import { seedCatalogue, seedDemoCatalogue } from './catalogue.js';

export const BASE_OPERATORS = ['Elisa', 'Telia', 'DNA'];

/**
 * The settings that change what bootstrap writes (with the clock's day): the test suites clone a
 * database seeded once only when these equal the template's (test/template.ts). Add any setting
 * bootstrap comes to read.
 */
export const SEED_SETTINGS = [
  'DEMO_DATA',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
] as const satisfies readonly (keyof Config)[];

/** What demo mode adds to the start-up data (demo/index.ts); production code never imports it. */
export interface DemoSeed {
  /** The first provider admin when ADMIN_EMAIL / ADMIN_PASSWORD are not given. */
  admin: { email: string; password: string; fullName: string };
  /** Loads the demo organisation into an empty database. */
  load(deps: Deps): Promise<void>;
}

/**
 * Start-up data, idempotent: the Finnish operators; the first provider admin from ADMIN_EMAIL /
 * ADMIN_PASSWORD when the database has no users (demo defaults when DEMO_DATA is on); the demo
 * clients on first start of a demo install (from `demoSeed`, given by the caller in demo mode). Returns
 * what it did, for the log.
 */
export async function bootstrap(deps: Deps, demoSeed?: DemoSeed): Promise<string[]> {
  const { db } = deps.database;
  const { config } = deps;
  const demo = config.DEMO_DATA ? demoSeed : undefined;
  const done: string[] = [];
  await db
    .insert(operators)
    .values(BASE_OPERATORS.map((name) => ({ name })))
    .onConflictDoNothing();
  const catalogue = await seedCatalogue(deps);
  if (catalogue) done.push(catalogue);

  const [{ n: userCount }] = await db.select({ n: count() }).from(users);
  if (userCount === 0) {
    const email = config.ADMIN_EMAIL ?? demo?.admin.email;
    const password = config.ADMIN_PASSWORD ?? demo?.admin.password;
    if (!email || !password) {
      throw new Error(
        'Invalid configuration:\n  ADMIN_EMAIL, ADMIN_PASSWORD: required to create the first provider admin of a new database',
      );
    }
    await db.insert(users).values({
      email,
      passwordHash: await hashPassword(password),
      fullName: demo && !config.ADMIN_EMAIL ? demo.admin.fullName : 'Administrator',
      roleId: ROLE.providerAdmin,
      activated: true,
    });
    done.push(`created provider admin ${email}`);
  }

  if (config.DEMO_DATA) {
    const [{ n: clientCount }] = await db.select({ n: count() }).from(clients);
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.roleId, ROLE.consultant));
    if (demo && clientCount === 0 && !admin) {
      await demo.load(deps);
      done.push('loaded demo data');
    }
    const demoCatalogue = await seedDemoCatalogue(deps);
    if (demoCatalogue) done.push(demoCatalogue);
  }
  return done;
}
