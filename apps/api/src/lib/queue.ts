import PgBoss from 'pg-boss';
import { and, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../db/client.js';
import type { Config } from '../config.js';

/** Queue names (pg-boss 10: each is created before use). */
export const QUEUE = {
  parseInvoice: 'parse-invoice',
  sendMail: 'send-mail',
  fetchInvoices: 'fetch-invoices',
  /** Monthly: one fetch-invoices job per client on automated upload. */
  automationMonthly: 'automation-monthly',
  /** Monthly: "No uploads for this month" reminders. */
  uploadReminder: 'upload-reminder',
  /** Daily: the provider's lead reminders of the day. */
  leadReminder: 'lead-reminder',
  /** Daily: operator contract end date reminders of the day. */
  operatorContractReminder: 'operator-contract-reminder',
  /** First start of a demo install: generate and upload the demo invoices. */
  demoInvoices: 'demo-invoices',
  /** Recompute one client's optimization results (docs/decisions/0006-optimization.md). */
  optimizeClient: 'optimize-client',
  /** Build one scheduled Excel export of the report archive (modules/report-exports). */
  buildReportExport: 'build-report-export',
  /** Daily: remove archived exports older than EXPORT_RETENTION_DAYS. */
  reportExportsCleanup: 'report-exports-cleanup',
  failedInvoiceFilesCleanup: 'failed-invoice-files-cleanup',
  /** Alert rules of one imported invoice (modules/alerts, docs/decisions/0023-alerts.md). */
  evaluateAlerts: 'evaluate-alerts',
  /** Daily: the date-based alert rules (invoice missing, contract ending). */
  alertsDaily: 'alerts-daily',
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

/**
 * No job of `queue` waits or runs for the row `match` names (a condition on the job, `j`): a row
 * committed whose send failed, or whose job is gone, is sent again by a sweep.
 */
export const noLiveJob = (queue: QueueName, match: SQL): SQL =>
  sql`not exists (select 1 from pgboss.job j where j.name = ${queue} and j.state < 'completed' and ${match})`;

/**
 * A sweep's resend: each `id` (in order) of the rows `waiting` selects that no job of `queue` waits
 * or runs for (`match`, the condition naming the row on the job `j`, as in `noLiveJob`) is sent
 * again by `send`. Returns how many were sent.
 */
export async function resendLost(
  db: Executor,
  queue: QueueName,
  lost: { id: AnyPgColumn<{ data: number; notNull: true }>; waiting: SQL; match: SQL },
  send: (id: number) => Promise<unknown>,
): Promise<number> {
  const rows = await db
    .selectDistinct({ id: lost.id })
    .from(lost.id.table)
    .where(and(lost.waiting, noLiveJob(queue, lost.match)))
    .orderBy(lost.id);
  for (const r of rows) await send(r.id);
  return rows.length;
}

/**
 * Queues with a pg-boss policy other than `standard`. `stately` + a singletonKey per client: at most
 * one job of a key waiting and one running, so many imports in a row queue one run and no two runs
 * of one client overlap, whichever instance works them.
 */
const QUEUE_POLICY: Partial<Record<QueueName, 'stately'>> = { [QUEUE.optimizeClient]: 'stately' };

/** After the parse time limit, this long is left for the import before a parse job expires. */
export const PARSE_JOB_MARGIN_SECONDS = 60;

/**
 * Send options of a parse-invoice job: it expires (and is retried) when the parse time limit plus
 * the import margin has passed, not after pg-boss's default 15 minutes.
 */
export function parseJobOptions(config: Pick<Config, 'PARSE_TIMEOUT_SECONDS'>): PgBoss.SendOptions {
  return { expireInSeconds: config.PARSE_TIMEOUT_SECONDS + PARSE_JOB_MARGIN_SECONDS };
}

/** Who runs a job (a process of an instance), as stamped on it while it is active. */
export interface JobOwner {
  host?: string;
  pid?: number;
  boot?: string;
}

/** An active job as the queue's table holds it (`activeJobs`). */
export interface ActiveJob {
  id: string;
  /** `invoiceId` of its data, as text (null: none). */
  invoiceId: string | null;
  owner: JobOwner | null;
  /** Its heartbeat (or, unstamped, its start) is older than asked. */
  stale: boolean;
}

export type JobHandler<T> = (job: {
  id: string;
  data: T;
  retryCount: number;
  retryLimit: number;
  /** How long the job waited in the queue before a worker took it (database clock), when known. */
  queuedMs?: number;
}) => Promise<void>;

/**
 * pg-boss 10 on the application's own database (PGlite through its `executeSql` adapter, or the
 * PostgreSQL pool), so that jobs are durable with the data they work on. The queue starts lazily
 * on the first `send`; workers and schedules are added by `startJobs` (server start, or tests).
 */
export class JobQueue {
  private boss: PgBoss | null = null;
  private starting: Promise<PgBoss> | null = null;
  private stopped = false;
  /** Set once stop() has returned: pg-boss's late bookkeeping no longer reaches the database. */
  private detached = false;
  private readonly inflight = new Set<Promise<unknown>>();
  /** This instance's workers by queue (pg-boss worker ids). */
  private readonly workers = new Map<QueueName, string[]>();

  constructor(
    private readonly database: Database,
    private readonly options: {
      pollingIntervalSeconds?: number;
      retryLimit?: number;
      retryDelay?: number;
      retryBackoff?: boolean;
    } = {},
  ) {}

  /**
   * pg-boss's queries. pg-boss 10 completes and fails a job without awaiting it (manager.js
   * `onFetch`), so such a query can outlive stop(): stop() waits for the ones under way, and one
   * issued after it is dropped: it never settles, as nothing awaits it (the job stays active,
   * expires and is retried; handlers are idempotent), instead of reaching a closed pool as an
   * unhandled rejection.
   */
  private executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.detached) return new Promise(() => {});
    const query = this.database.executeSql(text, values);
    this.inflight.add(query);
    query.then(
      () => this.inflight.delete(query),
      () => this.inflight.delete(query),
    );
    return query;
  }

  get started(): boolean {
    return this.boss !== null;
  }

  private ensure(): Promise<PgBoss> {
    if (this.stopped) return Promise.reject(new Error('the job queue is stopped'));
    this.starting ??= (async () => {
      const boss = new PgBoss({
        db: { executeSql: (text, values) => this.executeSql(text, values) },
        retryLimit: this.options.retryLimit ?? 3,
        retryDelay: this.options.retryDelay ?? 10,
        retryBackoff: this.options.retryBackoff ?? true,
        expireInMinutes: 15,
        archiveCompletedAfterSeconds: 7 * 24 * 3600,
      });
      boss.on('error', (e) => {
        if (!this.stopped) console.error('job queue:', e);
      });
      await boss.start();
      for (const name of Object.values(QUEUE)) {
        const policy = QUEUE_POLICY[name];
        await boss.createQueue(name, policy ? { name, policy } : undefined);
      }
      this.boss = boss;
      return boss;
    })();
    return this.starting;
  }

  async start(): Promise<void> {
    await this.ensure();
  }

  /**
   * Sends a job; this instance's own workers of its queue look for it at once instead of at their
   * next poll (up to `pollingIntervalSeconds` later: half a second of every upload's way to
   * *uploaded*, issue 24). Other instances' workers find it when they poll.
   */
  async send(name: QueueName, data: object, options: PgBoss.SendOptions = {}): Promise<string | null> {
    const boss = await this.ensure();
    const id = await boss.send(name, data, options);
    if (id && !options.startAfter) for (const w of this.workers.get(name) ?? []) boss.notifyWorker(w);
    return id;
  }

  async work<T>(name: QueueName, handler: JobHandler<T>, pollingIntervalSeconds?: number): Promise<void> {
    const boss = await this.ensure();
    const worker = await boss.work<T>(
      name,
      {
        includeMetadata: true,
        batchSize: 1,
        pollingIntervalSeconds: pollingIntervalSeconds ?? this.options.pollingIntervalSeconds ?? 0.5,
      },
      async (jobs) => {
        for (const job of jobs) {
          await handler({
            id: job.id,
            data: job.data,
            retryCount: job.retryCount,
            retryLimit: job.retryLimit,
            queuedMs: job.startedOn && job.createdOn ? +job.startedOn - +job.createdOn : undefined,
          });
        }
      },
    );
    this.workers.set(name, [...(this.workers.get(name) ?? []), worker]);
  }

  /** Fails a job the pg-boss way: back to `retry` while retries remain, else `failed`. */
  async fail(name: QueueName, id: string, data: object): Promise<void> {
    await (await this.ensure()).fail(name, id, data);
  }

  async schedule(name: QueueName, cron: string, data: object = {}): Promise<void> {
    await (await this.ensure()).schedule(name, cron, data, { tz: 'Europe/Helsinki' });
  }

  /** Jobs of a queue not yet finished (created, retry or active). */
  async pending(name: QueueName): Promise<number> {
    const boss = await this.ensure();
    // pg-boss counts states before `before`: created, retry and active (a running job is not done).
    return boss.getQueueSize(name, { before: 'completed' });
  }

  // The queue's own table (pgboss.job) is read and written here only: the parts of the application
  // that need its state ask these (issue 38). Jobs "about an invoice" carry `invoiceId` in their data.

  private async rows<R>(text: string, values: unknown[]): Promise<R[]> {
    return ((await this.database.executeSql(text, values)) as { rows: R[] }).rows;
  }

  /**
   * Unfinished jobs of `name` about the other invoices of the client `invoiceId` belongs to (decision
   * 0019's fair priority). The queue must have started (its tables exist).
   */
  async clientJobsAhead(name: QueueName, invoiceId: number): Promise<number> {
    const [row] = await this.rows<{ ahead: number }>(
      `select count(*)::int as ahead from pgboss.job j
         join invoices i on i.id = (j.data->>'invoiceId')::int
        where j.name = $1 and j.state < 'completed'
          and i.client_id = (select client_id from invoices where id = $2) and i.id <> $2`,
      [name, invoiceId],
    );
    return row?.ahead ?? 0;
  }

  /** Seconds the jobs of `name` about the client's invoices ran in the last hour (a running one up to now). */
  async clientSecondsLastHour(name: QueueName, clientId: number): Promise<number> {
    const [row] = await this.rows<{ seconds: number }>(
      `select coalesce(sum(extract(epoch from
                (case when j.state = 'active' then now() else j.completed_on end)
                - greatest(j.started_on, now() - interval '1 hour'))), 0)::float8 as seconds
         from pgboss.job j join invoices i on i.id = (j.data->>'invoiceId')::int
        where j.name = $1 and i.client_id = $2 and j.started_on is not null
          and (j.state = 'active' or j.completed_on > now() - interval '1 hour')`,
      [name, clientId],
    );
    return Math.max(0, Number(row?.seconds ?? 0));
  }

  /** Writes who runs an active job, and a heartbeat (`beat`: now), into its `output` (unused while active). */
  async stampActive(name: QueueName, id: string, owner: JobOwner): Promise<void> {
    await this.database.executeSql(
      `update pgboss.job
          set output = jsonb_build_object('host', $3::text, 'pid', $4::int, 'boot', $5::text, 'beat', now())
        where name = $1 and id = $2::uuid and state = 'active'`,
      [name, id, owner.host, owner.pid, owner.boot],
    );
  }

  /** The active jobs of `name`: their owner stamp and whether it (or their start) is older than `staleSeconds`. */
  async activeJobs(name: QueueName, staleSeconds: number): Promise<ActiveJob[]> {
    return this.rows<ActiveJob>(
      `select id::text, data->>'invoiceId' as "invoiceId", output as owner,
              coalesce((output->>'beat')::timestamptz, started_on) < now() - ($2::int * interval '1 second') as stale
         from pgboss.job where name = $1 and state = 'active'`,
      [name, staleSeconds],
    );
  }

  /** Compare-and-set of an active job's `output`: true when it was still `from` and is now `to`. */
  async takeOverActive(name: QueueName, id: string, from: object | null, to: object): Promise<boolean> {
    const rows = await this.rows(
      `update pgboss.job set output = $3::jsonb
         where name = $1 and id = $2::uuid and state = 'active' and output is not distinct from $4::jsonb
         returning id`,
      [name, id, JSON.stringify(to), from == null ? null : JSON.stringify(from)],
    );
    return rows.length > 0;
  }

  /** A job waiting to be retried starts now rather than after its delay; false when it is not (failed for good). */
  async retryNow(name: QueueName, id: string): Promise<boolean> {
    const rows = await this.rows(
      `update pgboss.job set start_after = now() where name = $1 and id = $2::uuid and state = 'retry' returning state`,
      [name, id],
    );
    return rows.length > 0;
  }

  /** Graceful: stops fetching, waits for running handlers (up to `timeoutMs`). Idempotent. */
  async stop(timeoutMs = 20_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const boss = this.starting ? await this.starting.catch(() => null) : null;
    if (boss) await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
    this.detached = true;
    await Promise.allSettled([...this.inflight]);
    this.boss = null;
  }
}
