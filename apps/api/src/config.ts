import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Kulu <no-reply@kulu.fi>'),
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/, 'must be an http:// or https:// address without query')
    .optional(),
  TRUST_PROXY: z.string().optional(),
  /** Where the app's "source code" link points (AGPL §13); by default this server's own archive. */
  SOURCE_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+(\/\S*)?$/, 'must be an http:// or https:// address')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
    .optional(),
  TOKEN_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  RESET_TOKEN_TTL_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 30)
    .default(24),
  ACTIVATION_TOKEN_TTL_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 60)
    .default(72),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_LOCK_MINUTES: z.coerce
    .number()
    .min(0.01)
    .max(24 * 60)
    .default(15),
  LOGIN_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /**
   * Mails a stranger can have sent to one address (reset links, "someone tried to sign up with your
   * address") in an hour, counted in the database across instances; beyond it a reset is refused
   * (429) and a sign-up notice is not sent.
   */
  MAIL_PER_RECIPIENT_PER_HOUR: z.coerce.number().int().min(1).default(3),
  /** Sign-ups from one client address (IP) in an hour (429 beyond it, before any password is hashed). */
  SIGNUP_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Sign-ups on the whole service in an hour, every instance together (429 beyond it). */
  SIGNUP_PER_HOUR: z.coerce.number().int().min(1).default(100),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  /**
   * The demo clients, users and invoices (with the demo admin's public password). Unset, it is on
   * only for the embedded default outside production: with DATABASE_URL or NODE_ENV=production the
   * demo is off unless asked for (demoDefault).
   */
  DEMO_DATA: bool.optional(),
  COOKIE_SECURE: bool.default(false),
  /**
   * Origins (`https://app.example.fi`, comma-separated) whose pages may call the API from the
   * browser: the web app built with VITE_API_BASE and served from another origin. None by default.
   */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((o) => /^https?:\/\/[^/?#\s]+$/.test(o)), {
      message: 'must be a comma list of origins such as https://app.example.fi (no path)',
    }),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Hard cap on the memory (whole RSS) of the child process that parses one invoice PDF. */
  PARSE_MAX_MEMORY_MB: z.coerce.number().int().min(64).max(65536).default(512),
  /**
   * Wall-clock limit of one invoice parse, the most any file gets; the parse job expires a minute
   * after it. A file's own limit scales with its size (PARSE_TIMEOUT_BASE_SECONDS + _PER_MB).
   */
  PARSE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** The parse time limit of the smallest file (a file's limit: base + per MB of file, at most the cap). */
  PARSE_TIMEOUT_BASE_SECONDS: z.coerce.number().min(0.1).max(3600).default(5),
  /** Parse time a file is allowed per MB of its size, above the base. */
  PARSE_TIMEOUT_SECONDS_PER_MB: z.coerce.number().min(0).max(3600).default(100),
  /**
   * Parse time one client may use in a rolling hour (its parse jobs' running time); beyond it,
   * uploads are refused with 429 (parseBudgetExhausted) until older parses leave the hour.
   */
  PARSE_BUDGET_SECONDS_PER_HOUR: z.coerce.number().min(1).max(360_000).default(900),
  /** Days a scheduled Excel export is kept in the report archive; a daily job removes older ones. */
  EXPORT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** A scheduled export of at least this many rows mails its requester when it is ready. */
  EXPORT_MAIL_MIN_ROWS: z.coerce.number().int().min(0).default(10_000),
  /**
   * Invoice upload bytes this instance holds at once: the bytes its uploads in progress have
   * actually sent (a declared length holds nothing). An upload that would not fit is answered 429
   * before its body is read, one whose bytes pass it as they arrive is cut off with 429.
   */
  UPLOAD_IN_FLIGHT_MB: z.coerce.number().int().min(1).max(65536).default(2048),
  /**
   * The share of one client (company) of UPLOAD_IN_FLIGHT_MB: its uploads in progress hold at most
   * this many received bytes, so its slow uploads never take another client's room (429
   * clientUploadsBusy beyond it). At least one full upload (20 × 20 MB) to let it through.
   */
  UPLOAD_IN_FLIGHT_PER_CLIENT_MB: z.coerce.number().int().min(1).max(65536).default(512),
  /**
   * The longest an invoice upload may take to arrive; a slower one is cut off and what it streamed
   * removed. It bounds how long a request holds the bytes in flight, and the sweep of files no row
   * names spares any file younger than twice this (at least an hour): an upload's files are named by
   * its invoices only once its body has arrived.
   */
  UPLOAD_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1800),
  /** Days the file of a failed invoice is kept (the invoice and its reason stay); a daily job removes it. */
  FAILED_FILE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** Invoice file storage of one client; an upload that would pass it is refused (413). */
  CLIENT_STORAGE_QUOTA_MB: z.coerce.number().int().min(1).default(5120),
  /** Invoice upload bytes one client may send in 24 hours (429 beyond it). */
  CLIENT_DAILY_UPLOAD_MB: z.coerce.number().int().min(1).default(2048),
  /**
   * Cost elements one client's own uploads may add (names the shared list does not know are kept
   * as the client's own, never shown to another client); the lines of further new names go to the
   * client's "Other charges" element of their operator, and the activity log says why.
   */
  CLIENT_COST_ELEMENTS_MAX: z.coerce.number().int().min(1).max(100_000).default(1000),
});

/** What Fastify's `trustProxy` gets: nothing trusted, a hop count, or the proxies' addresses/CIDRs. */
export type TrustProxy = false | number | string[];

export type Config = Omit<z.infer<typeof envSchema>, 'PUBLIC_URL' | 'TRUST_PROXY' | 'DEMO_DATA'> & {
  dataDir: string;
  DEMO_DATA: boolean;
  /** The base of every link in mails; never taken from a request's headers. */
  PUBLIC_URL: string;
  TRUST_PROXY: TrustProxy;
};

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: empty/`false` (default) trusts no forwarded header; a number trusts that many hops;
 * otherwise a comma list of addresses, CIDRs or the names loopback, linklocal, uniquelocal.
 * `true` (trust every sender) is refused: any client could then choose its own address.
 */
function parseTrustProxy(raw: string | undefined): TrustProxy | string {
  const v = (raw ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  const items = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (PROXY_NAMES.has(item)) continue;
    const [addr, bits, extra] = item.split('/');
    const family = net.isIP(addr);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !bitsOk || extra !== undefined) {
      return `"${item}" is not an address, a CIDR, loopback, linklocal or uniquelocal (a hop count or a comma list)`;
    }
  }
  return items;
}

/**
 * DEMO_DATA when the environment does not say: a production install (NODE_ENV=production, or a
 * PostgreSQL server of its own in DATABASE_URL) never gets the demo admin and its public password
 * by omission; `npm start` on the embedded default is the demo.
 */
export function demoDefault(cfg: { NODE_ENV: string; DATABASE_URL?: string }): boolean {
  return cfg.NODE_ENV !== 'production' && !cfg.DATABASE_URL;
}

/** Reads and validates the environment; throws one message that lists every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty PUBLIC_URL, TRUST_PROXY, SOURCE_URL or DEMO_DATA (as compose files and .env templates
  // write them) is unset.
  const given = { ...env };
  for (const key of ['PUBLIC_URL', 'TRUST_PROXY', 'SOURCE_URL', 'DEMO_DATA'] as const)
    if (given[key] === '') delete given[key];
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = { ...parsed.data, DEMO_DATA: parsed.data.DEMO_DATA ?? demoDefault(parsed.data) };
  if (cfg.NODE_ENV === 'production' && cfg.DATABASE_URL && !cfg.JWT_SECRET) {
    throw new Error(
      'Invalid configuration:\n  JWT_SECRET: required in production with DATABASE_URL, so that every instance signs tokens alike',
    );
  }
  const trustProxy = parseTrustProxy(cfg.TRUST_PROXY);
  if (typeof trustProxy === 'string') throw new Error(`Invalid configuration:\n  TRUST_PROXY: ${trustProxy}`);
  // Links in mails need a fixed origin. A demo or a server on loopback may default to
  // http://localhost:PORT; a production server listening on the network must name its own.
  let publicUrl = cfg.PUBLIC_URL?.replace(/\/+$/, '');
  if (!publicUrl) {
    if (cfg.DEMO_DATA || LOCAL_HOSTS.has(cfg.HOST) || cfg.NODE_ENV === 'test') {
      publicUrl = `http://localhost:${cfg.PORT}`;
    } else {
      throw new Error(
        'Invalid configuration:\n  PUBLIC_URL: required when the server listens on the network without demo data (the base of the links in mails, e.g. https://kulu.example.fi)',
      );
    }
  }
  return { ...cfg, PUBLIC_URL: publicUrl, TRUST_PROXY: trustProxy, dataDir: path.resolve(cfg.DATA_DIR) };
}
