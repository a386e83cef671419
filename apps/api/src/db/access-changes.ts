import pg from 'pg';
import { NOTICE_CHANNELS, type NoticeChannel, type Notices } from './notices.js';

/** The channel migration 0013's triggers notify when what the access check reads changes. */
export const ACCESS_CHANNEL = 'kulu_access';

/**
 * Has what the access check and the session details read (users, a client user's limits, clients,
 * their contracts and operators) changed?
 * (issue 13, docs/decisions/0017). A counter that moves on every change this process can know of,
 * so that a cache can keep an answer only while the counter stands where it stood when the answer
 * was read: an answer read before a change is never kept after it.
 *
 * It moves when the database notifies a change (migration 0013's triggers, on commit: any
 * instance's writes, and anyone's in psql) and, on a PostgreSQL server, when this process's own
 * writes complete (before the caller sees its write done, whereas the notification arrives a moment
 * later). `live` says whether notifications reach this process at all: while they don't (the
 * listening connection is down), nothing may be cached.
 */
export class ChangeClock {
  private count = 0;
  private listening = false;

  get generation(): number {
    return this.count;
  }

  /** Notifications reach this process (caching is safe). */
  get live(): boolean {
    return this.listening;
  }

  tick(): void {
    this.count++;
  }

  /** Notifications start or stop reaching this process; either way what was read before is old. */
  setLive(live: boolean): void {
    this.listening = live;
    this.count++;
  }
}

/** A statement that writes (DML, DDL), other than the job queue's own bookkeeping. */
const WRITE_START = /^\s*(insert|update|delete|merge|truncate|create|alter|drop|copy|do|call)\b/i;
const CTE_WRITE = /\b(insert\s+into|update\s+\S+\s+set|delete\s+from)\b/i;
const QUEUE_ONLY = /\bpgboss\./;

export function isWrite(text: string): boolean {
  if (QUEUE_ONLY.test(text)) return false;
  if (WRITE_START.test(text)) return true;
  return /^\s*with\b/i.test(text) && CTE_WRITE.test(text);
}

/**
 * The clock moves after this connection's writes are done: a write outside a transaction when it
 * completes; inside one, when the transaction ends (committed or rolled back: a rolled-back write
 * changed nothing, but telling the two apart is not worth it). `txStatus` is the connection's state
 * once a statement completes (PostgreSQL's ReadyForQuery: 'I' idle, 'T' in a transaction, 'E' failed).
 */
export class WriteTracker {
  private dirty = false;

  constructor(private readonly clock: ChangeClock) {}

  /** Before sending `text`: must `completed` be called when it completes? */
  sending(text: string): boolean {
    if (!this.dirty && isWrite(text)) this.dirty = true;
    return this.dirty;
  }

  /** After a statement completed (or failed). */
  completed(txStatus: string | null): void {
    if (this.dirty && txStatus !== 'T' && txStatus !== 'E') {
      this.dirty = false;
      this.clock.tick();
    }
  }
}

/**
 * One connection per process that LISTENs to the access channel and moves `clock` on each
 * notification. Lost (server restart, network), the clock is not live until it listens again; it
 * tries again after 0.5 s, doubling up to 30 s. The same connection LISTENs to the other channels
 * (db/notices.ts) and passes their notifications to `notices`; listening again, it tells their
 * listeners that some may have been missed.
 */
export async function listenForAccessChanges(
  connectionString: string,
  clock: ChangeClock,
  log: (line: string) => void = (line) => console.error(line),
  notices?: Notices,
): Promise<{ close(): Promise<void> }> {
  let current: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = 500;

  const schedule = () => {
    if (closed) return;
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
    delay = Math.min(delay * 2, 30_000);
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString, keepAlive: true });
    current = c;
    const lost = (err?: Error) => {
      if (current !== c) return;
      current = null;
      clock.setLive(false);
      if (!closed && err) log(`database: access notifications lost (${err.message}); retrying`);
      c.end().catch(() => {});
      schedule();
    };
    c.on('error', lost);
    c.on('end', () => lost(new Error('connection ended')));
    c.on('notification', (msg) => {
      if (msg.channel === ACCESS_CHANNEL) clock.tick();
      else notices?.emit(msg.channel as NoticeChannel, msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${ACCESS_CHANNEL}`);
      if (notices) for (const channel of NOTICE_CHANNELS) await c.query(`LISTEN ${channel}`);
    } catch (e) {
      lost(e as Error);
      return;
    }
    if (current !== c || closed) return;
    delay = 500;
    clock.setLive(true);
    notices?.missed();
  };

  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const c = current;
      current = null;
      clock.setLive(false);
      await c?.end().catch(() => {});
    },
  };
}

/**
 * Answers kept while `clock` stands still: an answer is kept only if the clock did not move while
 * it was read, all are dropped when it moves, and nothing is kept while the clock is not live.
 * Bounded (`max` entries, then it starts over) and aged (`maxAgeMs`: a bound on how long an answer
 * could outlive a change whose notification was lost without the connection noticing). What `load`
 * answers is frozen, deeply: requests share what is kept, and none may change it.
 */
export class ClockedCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private seen = -1;

  constructor(
    private readonly clock: ChangeClock,
    private readonly max = 10_000,
    private readonly maxAgeMs = 60_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.clock.live) return deepFreeze(await load());
    const generation = this.clock.generation;
    if (generation !== this.seen) {
      this.entries.clear();
      this.seen = generation;
    }
    const kept = this.entries.get(key);
    if (kept && performance.now() - kept.at < this.maxAgeMs) return kept.value;
    const value = deepFreeze(await load());
    // The clock only moves forward: standing where it stood, nothing was dropped meanwhile.
    if (this.clock.live && this.clock.generation === generation) {
      if (this.entries.size >= this.max) this.entries.clear();
      this.entries.set(key, { value, at: performance.now() });
    }
    return value;
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.clock.live && this.clock.generation === this.seen ? this.entries.size : 0;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
