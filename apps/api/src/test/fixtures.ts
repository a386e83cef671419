// Test helpers (imported by tests only): the test apps the upload, storage and invoice tests set
// up alike, each created before a file's tests and closed after.
import { afterAll, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.js';
import { markFailed } from '../modules/invoices/invoices.service.js';
import {
  clientIdOf,
  createTestApp,
  DEMO,
  demoTokens,
  limitDemoClientUser,
  type LimitedClientUser,
  type TestApp,
} from './helpers.js';
import { storedBytes, uploadFiles } from './uploads.js';

/** A demo user signed in on the file's own test app. */
export class SignedIn {
  t!: TestApp;
  token!: string;

  constructor(
    readonly email: string,
    private readonly env: Record<string, string> = {},
  ) {}

  async setUp(): Promise<void> {
    this.t = await createTestApp(this.env);
    this.token = await this.t.login(this.email);
  }

  /** The clock moves on (and the user signs in again: a session does not last days). */
  async later(ms: number): Promise<void> {
    this.t.advanceClock(ms);
    this.token = await this.t.login(this.email);
  }
}

/** The uploader of the upload and storage tests: the demo company admin, and their client. */
export class Uploader extends SignedIn {
  clientId!: number;

  constructor(env: Record<string, string>) {
    super(DEMO.companyAdmin, env);
  }

  override async setUp(): Promise<void> {
    await super.setUp();
    this.clientId = await clientIdOf(this.t, this.email);
  }

  /** Bytes of the client's stored invoice files. */
  stored = (): Promise<number> => storedBytes(this.t, this.clientId);

  /** Uploads a file; an accepted one fails (as its parse would) so the next upload may start. */
  async uploadAndFail(data: Buffer, name = 'junk.pdf') {
    const res = await uploadFiles(this.t, this.token, [{ name, data }]);
    if (res.statusCode === 200) {
      const id = res.json().results[0].invoiceId as number;
      await markFailed(this.t.deps, id, 'invalidInvoice', 'not an invoice');
    }
    return res;
  }
}

/**
 * `who`, which sets itself up on a test app of its own (its `t`): set up before the file's tests
 * (within `timeout`), its app closed after.
 */
export function useOwnApp<S extends { t: TestApp; setUp(): Promise<void> }>(who: S, timeout = 120_000): S {
  beforeAll(() => who.setUp(), timeout);
  afterAll(async () => {
    await who.t?.close();
  });
  return who;
}

/** `email` (the demo company admin by default) signed in on the file's test app with `env`. */
export const useSignedIn = (
  email: string = DEMO.companyAdmin,
  env: Record<string, string> = {},
  timeout = 120_000,
) => useOwnApp(new SignedIn(email, env), timeout);

/** The uploader on the file's test app with `env`. */
export const useUploader = (env: Record<string, string> = {}): Uploader => useOwnApp(new Uploader(env));

/** The demo identities the invoice and Scope tests sign in as. */
export const SCOPE_CALLERS = ['admin', 'companyAdmin', 'otherCompanyAdmin', 'clientUser'] as const;
type DemoTokens = Record<(typeof SCOPE_CALLERS)[number], string>;

/**
 * The app the invoice tests share: jobs running (no schedules), the demo client user allowed to
 * upload (restricted to their sub-company) but not to delete, and a token per demo identity.
 */
export class InvoiceTestApp {
  t!: TestApp;
  tok!: DemoTokens;
  /** The demo company admin's client. */
  pohjola!: number;

  async setUp(): Promise<void> {
    this.t = await createTestApp({}, { jobs: true });
    await this.t.deps.database.db
      .update(users)
      .set({ permissions: ['general', 'invoices.upload'] })
      .where(eq(users.email, DEMO.clientUser));
    this.tok = await demoTokens(this.t, SCOPE_CALLERS);
    this.pohjola = await clientIdOf(this.t, DEMO.companyAdmin);
  }
}

/** The invoice tests' app for the file's tests (set up within `timeout`). */
export const useInvoiceTestApp = (timeout: number): InvoiceTestApp =>
  useOwnApp(new InvoiceTestApp(), timeout);

/**
 * The demo client user limited to one sub-company with `permissions` (limitDemoClientUser) on
 * the file's own test app, and a token per demo identity: the Scope tests' set-up.
 */
export class LimitedClientUserApp implements LimitedClientUser {
  t!: TestApp;
  tok!: DemoTokens;
  userId!: number;
  clientId!: number;
  subA!: number;
  subB!: number;

  constructor(
    private readonly permissions: string[],
    private readonly opts: { jobs?: boolean },
  ) {}

  async setUp(): Promise<void> {
    this.t = await createTestApp({}, this.opts);
    Object.assign(this, await limitDemoClientUser(this.t, this.permissions));
    this.tok = await demoTokens(this.t, SCOPE_CALLERS);
  }
}

/** The limited client user's app (`opts.jobs`: with the job workers) for the file's tests. */
export const useLimitedClientUser = (
  permissions: string[],
  opts: { jobs?: boolean } = {},
): LimitedClientUserApp => useOwnApp(new LimitedClientUserApp(permissions, opts));
