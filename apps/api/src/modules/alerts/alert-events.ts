import type { ServerResponse } from 'node:http';
import type { AlertCount, AlertEventsQuery } from '@kulu/shared';
import type { Db } from '../../db/client.js';
import { ALERTS_CHANNEL, type Notices } from '../../db/notices.js';
import type { Scope } from '../../lib/scope.js';
import { countOpen } from './alerts.service.js';

/**
 * The bell's push (issue 37): `GET /api/alerts/events` answers a stream of server-sent events, a
 * `count` event (`{ open, high }`, as `GET /api/alerts/count`) whenever the caller's open alerts
 * differ from what their bell shows. Any instance's change reaches every instance: the alerts'
 * triggers notify `kulu_alerts` on commit with the clients touched (migration 0023), each instance
 * listens (db/notices.ts) and counts again for its streams of a client named. A stream ends after
 * `seconds` (the client opens a new one with its current token: a deactivated user or an expired
 * token loses the push within that time) and when the server closes.
 */
export interface AlertStreamTiming {
  /** How long one stream lasts. */
  seconds: number;
  /** A comment line this often keeps proxies from closing a quiet stream. */
  heartbeatSeconds: number;
}

export const ALERT_STREAM_TIMING: AlertStreamTiming = { seconds: 300, heartbeatSeconds: 25 };

/** Whether a notification's payload (client ids, or empty: any client) concerns the scope. */
export const concerns = (scope: Scope, payload: string): boolean =>
  payload === '' || payload.split(',').some((id) => scope.canSeeClient(Number(id)));

export class AlertStreams {
  private readonly ends = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly notices: Notices,
    private readonly timing: AlertStreamTiming = ALERT_STREAM_TIMING,
  ) {}

  /** How many streams are open (tests). */
  get size(): number {
    return this.ends.size;
  }

  /**
   * Streams the count of the scope's open alerts on `res` (its head not yet written): at once if it
   * differs from `shown`, then on every change of it.
   */
  open(scope: Scope, shown: AlertEventsQuery, res: ServerResponse): void {
    let last: { open: number; high?: number } = shown;
    let closed = false;
    let counting = false;
    let again = false;
    const write = (text: string) => {
      if (!closed) res.write(text);
    };
    const differs = (c: AlertCount) =>
      c.open !== last.open || (last.high !== undefined && c.high !== last.high);
    // One count at a time; notifications while counting make one more count after it.
    const recount = async () => {
      if (counting) {
        again = true;
        return;
      }
      counting = true;
      try {
        do {
          again = false;
          const c = await countOpen(this.db, scope);
          if (!closed && differs(c)) {
            last = c;
            write(`event: count\ndata: ${JSON.stringify(c)}\n\n`);
          }
        } while (again && !closed);
      } catch (err) {
        if (!closed) console.error('alerts: counting for a stream failed:', err);
        end();
      } finally {
        counting = false;
      }
    };
    const stopListening = this.notices.on(ALERTS_CHANNEL, (payload) => {
      if (concerns(scope, payload)) void recount();
    });
    const heartbeat = setInterval(() => write(': still here\n\n'), this.timing.heartbeatSeconds * 1000);
    const expiry = setTimeout(() => end(), this.timing.seconds * 1000);
    const end = () => {
      if (closed) return;
      closed = true;
      stopListening();
      clearInterval(heartbeat);
      clearTimeout(expiry);
      this.ends.delete(end);
      res.end();
    };
    this.ends.add(end);
    res.on('close', end);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // A buffering proxy (nginx) would hold the events back.
      'x-accel-buffering': 'no',
    });
    write('retry: 3000\n\n');
    void recount();
  }

  /** Ends every open stream (the server is closing). */
  closeAll(): void {
    for (const end of [...this.ends]) end();
  }
}
