import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/helpers.js';
import { JobQueue, QUEUE } from './queue.js';

/**
 * A migrated fresh database, its queue, and a mail job handler that reports when it starts and
 * then waits until `release()`; `done` resolves when the handler has ended.
 */
async function heldJob() {
  const { database, drop } = await freshDatabase();
  await database.migrate();
  const queue = new JobQueue(database, { retryLimit: 0 });
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let ended!: () => void;
  const done = new Promise<void>((r) => (ended = r));
  const handler = async () => {
    started();
    await released;
    ended();
  };
  return { database, drop, queue, running, release, done, handler };
}

describe('the job queue when it stops', () => {
  const rejections: unknown[] = [];
  const onRejection = (e: unknown) => rejections.push(e);
  afterEach(() => {
    process.off('unhandledRejection', onRejection);
  });

  it('lets no bookkeeping of a job that outlived stop() reach the closed database', async () => {
    process.on('unhandledRejection', onRejection);
    const { database, drop, queue, running, release, handler } = await heldJob();
    await queue.work(QUEUE.sendMail, handler);
    await queue.send(QUEUE.sendMail, { to: 'a@example.com' });
    await running;
    // The handler is still running when the graceful stop gives up (pg-boss waits at least 1 s).
    await queue.stop(1000);
    await database.close();
    await drop();
    // The job ends now: pg-boss completes it without awaiting the query (manager.js onFetch).
    release();
    await new Promise((r) => setTimeout(r, 300));
    expect(rejections).toEqual([]);
  }, 60_000);

  it('counts a running job as pending until it ends (a wait for the queue to drain must not stop early)', async () => {
    const { database, drop, queue, running, release, done, handler } = await heldJob();
    try {
      await queue.work(QUEUE.sendMail, handler);
      await queue.send(QUEUE.sendMail, { to: 'a@example.com' });
      await running;
      expect(await queue.pending(QUEUE.sendMail)).toBe(1);
      release();
      await done;
      await expect.poll(() => queue.pending(QUEUE.sendMail), { timeout: 10_000 }).toBe(0);
    } finally {
      release();
      await queue.stop(1000);
      await database.close();
      await drop();
    }
  }, 60_000);

  it("hands a job sent by this instance to its own worker at once, not at the worker's next poll", async () => {
    const { database, drop } = await freshDatabase();
    await database.migrate();
    // A poll every 30 s: the job is taken within seconds only if sending it wakes the worker.
    const queue = new JobQueue(database, { retryLimit: 0, pollingIntervalSeconds: 30 });
    try {
      const took: number[] = [];
      await queue.work(QUEUE.sendMail, async (job) => {
        took.push(job.queuedMs ?? -1);
      });
      // The worker's first poll (at its start) has found nothing; it now waits 30 s.
      await new Promise((r) => setTimeout(r, 500));
      await queue.send(QUEUE.sendMail, { to: 'a@example.com' });
      await expect.poll(() => took.length, { timeout: 10_000, interval: 50 }).toBe(1);
      expect(took[0]).toBeGreaterThanOrEqual(0);
      expect(took[0]).toBeLessThan(10_000);
    } finally {
      await queue.stop(1000);
      await database.close();
      await drop();
    }
  }, 60_000);
});
