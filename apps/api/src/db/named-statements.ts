import crypto from 'node:crypto';
import pg from 'pg';
import { WriteTracker, type ChangeClock } from './access-changes.js';

/**
 * Server-side prepared statements for the queries the API repeats (issue 13, decision 0017).
 *
 * drizzle sends every query as an unnamed statement, so PostgreSQL parses and plans it again on
 * every request. For the invoice list that planning cost about seven times its execution (pgbench on
 * the list's own SQL: 1,580 queries/s unnamed, 11,400 named). This pg `Client` gives a statement a
 * name, derived from its text, from the second time the process sends that text: each connection
 * then parses it once and PostgreSQL keeps its plan (a custom plan for the first five runs, then
 * the generic plan when it costs no more, PostgreSQL's own rule).
 *
 * Bounded: only SELECT / INSERT / UPDATE / DELETE / WITH statements (never DDL or transaction
 * control), at most `maxNamed` texts per process (the first ones to repeat, the hot paths of a
 * running server), so a backend never holds more than that many. Texts are counted in a bounded
 * map. A query that already has a name (drizzle's `.prepare(name)`), a text-only call (pg-boss, raw
 * SQL) or a cursor is left as it is. Values stay bound parameters: a name never carries data.
 */
export interface NamedStatementOptions {
  /** Sightings of a text before it is named (2: the second run is named). */
  after?: number;
  /** Most texts named per process. */
  maxNamed?: number;
  /** Most texts counted before the count starts over. */
  maxCounted?: number;
}

const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Decides which statement texts get a name, and which name (one decider per pool). */
export class StatementNamer {
  private readonly seen = new Map<string, number>();
  private readonly named = new Map<string, string>();
  private readonly after: number;
  private readonly maxNamed: number;
  private readonly maxCounted: number;

  constructor(opts: NamedStatementOptions = {}) {
    this.after = opts.after ?? 2;
    this.maxNamed = opts.maxNamed ?? 128;
    this.maxCounted = opts.maxCounted ?? 10_000;
  }

  /** The name for this text, or undefined to send it unnamed. */
  nameFor(text: string): string | undefined {
    const known = this.named.get(text);
    if (known !== undefined) return known;
    if (this.named.size >= this.maxNamed || !PREPARABLE.test(text)) return undefined;
    const times = (this.seen.get(text) ?? 0) + 1;
    if (times < this.after) {
      if (this.seen.size >= this.maxCounted) this.seen.clear();
      this.seen.set(text, times);
      return undefined;
    }
    this.seen.delete(text);
    const name = `kulu_${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    this.named.set(text, name);
    return name;
  }

  /** How many texts have a name (for tests). */
  get size(): number {
    return this.named.size;
  }
}

interface PlainQueryConfig {
  text: string;
  name?: string;
  submit?: unknown;
}

const isPlainConfig = (c: unknown): c is PlainQueryConfig =>
  typeof c === 'object' &&
  c !== null &&
  typeof (c as PlainQueryConfig).text === 'string' &&
  (c as PlainQueryConfig).name === undefined &&
  typeof (c as PlainQueryConfig).submit !== 'function';

/**
 * A pg `Client` class whose repeated queries are named by `namer` (for `new pg.Pool({ Client })`),
 * and whose writes move `clock` once they are done (db/access-changes.ts), whether they come with a
 * callback (through `pool.query`) or as a promise (a checked-out client, a transaction).
 */
export function namingClient(namer: StatementNamer, clock?: ChangeClock): typeof pg.Client {
  class NamingClient extends pg.Client {
    private readonly writes = clock ? new WriteTracker(clock) : null;

    // pg's query() has many overloads; this one forwards every argument as it came.
    override query(...args: unknown[]): never {
      const [config] = args;
      const plain = isPlainConfig(config);
      if (plain) {
        const name = namer.nameFor(config.text);
        if (name !== undefined) args[0] = { ...config, name };
      }
      const text = typeof config === 'string' ? config : plain ? config.text : undefined;
      const send = super.query as (...a: unknown[]) => never;
      if (!this.writes || text === undefined || !this.writes.sending(text)) return send.apply(this, args);
      const done = () => this.writes!.completed(this.getTransactionStatus());
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (err: unknown, res: unknown) => {
          done();
          (callback as (e: unknown, r: unknown) => void)(err, res);
        };
        return send.apply(this, args);
      }
      const result = send.apply(this, args) as unknown;
      if (!(result instanceof Promise)) return result as never;
      return result.then(
        (res) => {
          done();
          return res;
        },
        (err: unknown) => {
          done();
          throw err;
        },
      ) as never;
    }
  }
  return NamingClient;
}
