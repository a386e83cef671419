import { describe, expect, it } from 'vitest';
import type { AlertCount } from '@kulu/shared';
import { backoff, eventStreamParser, followAlertCount } from './alert-events';

/** A fetch answering each call with the next of `answers` (a status, or a stream of chunks). */
function fakeFetch(answers: Array<number | string[]>) {
  const calls: Array<{ url: string; auth: string | null }> = [];
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), auth: new Headers(init?.headers).get('Authorization') });
    const answer = answers.shift();
    if (answer === undefined) {
      // Open until aborted, as a live stream.
      return new Response(
        new ReadableStream({
          start(c) {
            init?.signal?.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
          },
        }),
        { status: 200 },
      );
    }
    if (typeof answer === 'number') return new Response('{}', { status: answer });
    const body = new ReadableStream({
      start(c) {
        for (const chunk of answer) c.enqueue(new TextEncoder().encode(chunk));
        c.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
  return { fn, calls };
}

describe('the alert events stream parser', () => {
  it('splits events across chunks, skips comments and joins data lines', () => {
    const events: Array<[string, string]> = [];
    const parse = eventStreamParser((name, data) => events.push([name, data]));
    parse('retry: 3000\n\n: still here\n\nevent: count\ndata: {"open":');
    parse('3,"high":1}\n\ndata: a\r\ndata: b\r\n\r\n');
    expect(events).toEqual([
      ['count', '{"open":3,"high":1}'],
      ['message', 'a\nb'],
    ]);
  });
});

describe('following the open-alert count', () => {
  it('sends the shown count with the token, takes each count event and opens a new stream when one ends', async () => {
    const { fn, calls } = fakeFetch([
      ['event: count\ndata: {"open":4,"high":1}\n\n'],
      ['event: count\ndata: {"open":5,"high":2}\n\n'],
    ]);
    const stop = new AbortController();
    let shown: AlertCount | undefined;
    const counts: AlertCount[] = [];
    const done = followAlertCount({
      shown: () => shown,
      onCount: (c) => {
        counts.push(c);
        shown = c;
        if (counts.length === 2) setTimeout(() => stop.abort(), 0);
      },
      onLive: () => undefined,
      getToken: () => 'tok',
      signal: stop.signal,
      fetch: fn,
      backoffMs: () => 0,
    });
    await done;
    expect(counts).toEqual([
      { open: 4, high: 1 },
      { open: 5, high: 2 },
    ]);
    expect(calls[0]).toEqual({ url: '/api/alerts/events?open=0', auth: 'Bearer tok' });
    expect(calls[1]!.url).toBe('/api/alerts/events?open=4&high=1');
  });

  it('tries again after a failed answer with a growing pause, and stops for good on a 401', async () => {
    const { fn, calls } = fakeFetch([500, 503, 401]);
    const pauses: number[] = [];
    await followAlertCount({
      shown: () => undefined,
      onCount: () => undefined,
      onLive: () => undefined,
      getToken: () => 'tok',
      signal: new AbortController().signal,
      fetch: fn,
      backoffMs: (n) => {
        pauses.push(backoff(n));
        return 0;
      },
    });
    expect(calls).toHaveLength(3);
    expect(pauses).toEqual([1000, 2000]);
    expect(backoff(20)).toBe(60_000);
  });

  it('says when a stream is live, and ends it when the signal aborts (signing out)', async () => {
    const { fn } = fakeFetch([]);
    const stop = new AbortController();
    const live: boolean[] = [];
    const done = followAlertCount({
      shown: () => ({ open: 2, high: 0 }),
      onCount: () => undefined,
      onLive: (l) => {
        live.push(l);
        if (l) stop.abort();
      },
      getToken: () => 'tok',
      signal: stop.signal,
      fetch: fn,
    });
    await done;
    expect(live).toEqual([true, false]);
  });

  it('opens no stream without a token', async () => {
    const { fn, calls } = fakeFetch([]);
    await followAlertCount({
      shown: () => undefined,
      onCount: () => undefined,
      onLive: () => undefined,
      getToken: () => null,
      signal: new AbortController().signal,
      fetch: fn,
    });
    expect(calls).toHaveLength(0);
  });
});
