import type { AlertCount } from '@kulu/shared';
import { apiUrl } from '../../lib/api-base';

/**
 * The bell's push (issue 37 item 14): `GET /api/alerts/events` streams a `count` event whenever the
 * user's open alerts differ from what the bell shows. The route takes the bearer token, which an
 * EventSource cannot send, so the stream is read with fetch. A stream the server ends (after 5
 * minutes) is opened again at once; a failed one after a growing pause (1 s, 2 s, 4 s … 60 s). It
 * stops for good when the session ends (the signal, a 401 or no token) or the server has no such
 * route: the bell's poll then carries on alone.
 */

/** Splits a server-sent event stream's text, chunk by chunk, into events (name, data). */
export function eventStreamParser(onEvent: (name: string, data: string) => void): (chunk: string) => void {
  let buffer = '';
  let name = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length) onEvent(name || 'message', data.join('\n'));
      name = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  };
  return (chunk) => {
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    lines.forEach(line);
  };
}

export interface AlertCountStream {
  /** The counts the bell shows now (sent with each new stream), if it knows them. */
  shown: () => AlertCount | undefined;
  onCount: (count: AlertCount) => void;
  /** Whether a stream is open (the bell polls only while none is). */
  onLive: (live: boolean) => void;
  getToken: () => string | null;
  signal: AbortSignal;
  fetch?: typeof fetch;
  /** The pause before the n-th attempt in a row after failures (n ≥ 1). */
  backoffMs?: (failures: number) => number;
  /** A stream quiet this long is taken as lost (the server's heartbeat comes every 25 s). */
  quietMs?: number;
}

export const BACKOFF_MAX_MS = 60_000;
export const backoff = (failures: number): number =>
  Math.min(BACKOFF_MAX_MS, 1000 * 2 ** Math.min(failures - 1, 6));

/** Streams that end sooner than this count as failures (a proxy closing them at once). */
const SHORT_STREAM_MS = 10_000;

/** Why following ends for good rather than trying again. */
class Stop extends Error {}

/** Follows the open-alert count until the signal aborts or the session has ended. */
export async function followAlertCount(opts: AlertCountStream): Promise<void> {
  const { signal } = opts;
  const doFetch = opts.fetch ?? fetch.bind(globalThis);
  const pause = opts.backoffMs ?? backoff;
  let failures = 0;
  while (!signal.aborted) {
    const started = Date.now();
    try {
      await readStream(opts, doFetch);
    } catch (e) {
      if (e instanceof Stop || signal.aborted) break;
    } finally {
      opts.onLive(false);
    }
    failures = Date.now() - started < SHORT_STREAM_MS ? failures + 1 : 0;
    if (failures > 0) await sleep(pause(failures), signal);
  }
}

async function readStream(opts: AlertCountStream, doFetch: typeof fetch): Promise<void> {
  const token = opts.getToken();
  if (!token) throw new Stop();
  const shown = opts.shown();
  const query = new URLSearchParams({ open: String(shown?.open ?? 0) });
  if (shown) query.set('high', String(shown.high));
  // The stream's own abort: the caller's signal, or a stream gone quiet.
  const own = new AbortController();
  const follow = () => own.abort();
  opts.signal.addEventListener('abort', follow);
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const heard = () => {
    clearTimeout(quiet);
    quiet = setTimeout(follow, opts.quietMs ?? 60_000);
  };
  try {
    heard();
    const res = await doFetch(apiUrl(`/api/alerts/events?${query}`), {
      headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
      cache: 'no-store',
      signal: own.signal,
    });
    // Signed out, no longer allowed, or a server without the route: the poll alone.
    if ([401, 403, 404].includes(res.status)) throw new Stop();
    if (!res.ok || !res.body) throw new Error(`alert events answered ${res.status}`);
    opts.onLive(true);
    const parse = eventStreamParser((name, data) => {
      if (name === 'count') opts.onCount(JSON.parse(data) as AlertCount);
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      heard();
      parse(value);
    }
  } finally {
    clearTimeout(quiet);
    opts.signal.removeEventListener('abort', follow);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
