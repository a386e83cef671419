import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateInvoice, generatePlainPdf } from '@kulu/invoices';
import { bombPdf } from '@kulu/invoices/pdf/bomb-pdf';
import { pagesSharingFontBomb } from '@kulu/invoices/pdf/hostile-pdf';
import {
  childCommand,
  lastParseStats,
  parseChildPid,
  parseInChild,
  processCpuMs,
  stopParseChild,
  warmParseChild,
} from './parse-runner.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(() => stopParseChild());

/**
 * Parsing `bomb` with the inflate pre-check off and a memory cap of `capMb` ends as out of memory,
 * the child's peak resident memory above `peakMb.above` (the bomb was read) and at most `peakMb.atMost`.
 */
async function expectStoppedOutOfMemory(
  bomb: Buffer,
  capMb: number,
  peakMb: { above: number; atMost: number },
) {
  const res = await parseInChild(bomb, { maxMemoryMb: capMb, inflateLimitMb: 1_000_000 }).catch((e) => e);
  expect(res).toMatchObject({
    code: 'out_of_memory',
    message: `parsing needed more than ${capMb} MB of memory`,
  });
  expect(lastParseStats().peakRssMb).toBeGreaterThan(peakMb.above);
  expect(lastParseStats().peakRssMb).toBeLessThanOrEqual(peakMb.atMost);
}

describe('parse in a child process', () => {
  it('parses, reports bad input, and survives a timeout with a fresh child', async () => {
    const { pdf, expected } = await generateInvoice({ operator: 'dna', subscriptions: 5, seed: 9 });
    expect(await parseInChild(pdf)).toEqual(expected);
    await expect(parseInChild(await generatePlainPdf(['Ei lasku']))).rejects.toMatchObject({
      code: 'not_a_valid_invoice',
    });
    await expect(parseInChild(pdf, { timeoutMs: 1 })).rejects.toMatchObject({ code: 'timeout' });
    expect(await parseInChild(pdf)).toEqual(expected);
    // Where the time went (the parse job's phases): a new child's start, the parse in it, the rest.
    const { startMs, childMs, totalMs } = lastParseStats();
    expect(startMs).toBeGreaterThan(0);
    expect(childMs).toBeGreaterThan(0);
    expect(totalMs).toBeGreaterThan(startMs! + childMs!);
  }, 60_000);

  it("counts the child's own parse time against the limit, not the time the server's event loop was busy (issue 37)", async () => {
    // A big import's follow-up work once held the API's event loop for seconds: another client's
    // small invoice, parsed in well under its limit, then failed as a timeout.
    const { pdf, expected } = await generateInvoice({ operator: 'dna', subscriptions: 5, seed: 9 });
    expect(await parseInChild(pdf)).toEqual(expected); // the child is up, its PDF library loaded
    const parsing = parseInChild(pdf, { timeoutMs: 1500 });
    await new Promise((r) => setImmediate(r)); // the file is on its way to the child
    const busyUntil = performance.now() + 3000;
    while (performance.now() < busyUntil); // this process's event loop held past the limit
    expect(await parsing).toEqual(expected);
    expect(processCpuMs(process.pid)).toBeGreaterThan(0);
    // A parse that really takes its limit still stops (the child's CPU time counts). Big enough to
    // take many clock ticks of CPU (the kernel counts a process's time in 10 ms ticks: the small
    // invoice above can end before its first tick is counted).
    const big = await generateInvoice({ operator: 'dna', subscriptions: 300, seed: 9 });
    await expect(parseInChild(big.pdf, { timeoutMs: 1 })).rejects.toMatchObject({ code: 'timeout' });
  }, 60_000);

  it('starts a child ahead of the parse that then uses it, and ends it if no parse comes', async () => {
    await stopParseChild();
    warmParseChild({ idleMs: 60_000 });
    const warmed = parseChildPid();
    expect(warmed).not.toBeNull();
    warmParseChild(); // one is running: left as it is
    expect(parseChildPid()).toBe(warmed);
    const { pdf, expected } = await generateInvoice({ operator: 'dna', subscriptions: 2, seed: 29 });
    expect(await parseInChild(pdf)).toEqual(expected);
    expect(parseChildPid()).toBe(warmed);
    await stopParseChild();
    warmParseChild({ idleMs: 0 });
    const unused = parseChildPid();
    expect(unused).not.toBeNull();
    await expect.poll(() => alive(unused!), { timeout: 30_000, interval: 50 }).toBe(false);
    expect(parseChildPid()).toBeNull();
  }, 60_000);

  it('ends the child once idle and starts a new one for the next parse', async () => {
    const { pdf, expected } = await generateInvoice({ operator: 'telia', subscriptions: 3, seed: 19 });
    expect(await parseInChild(pdf, { idleMs: 0 })).toEqual(expected);
    const idle = parseChildPid();
    expect(idle).not.toBeNull();
    await expect.poll(() => alive(idle!), { timeout: 30_000, interval: 50 }).toBe(false);
    expect(parseChildPid()).toBeNull();
    expect(await parseInChild(pdf)).toEqual(expected);
    expect(parseChildPid()).not.toBeNull();
    expect(parseChildPid()).not.toBe(idle);
  }, 60_000);

  it('stops a child whose PDF library needs more than the cap, its memory never above the cap', async () => {
    // The inflate pre-check is switched off, so the PDF library itself inflates a 1 GB font
    // program into its WebAssembly memory, whose growth is refused at 90 % of the cap.
    await expectStoppedOutOfMemory(await bombPdf(1024, { in: 'font' }), 300, { above: 150, atMost: 300 });
    const { pdf } = await generateInvoice({ operator: 'elisa', subscriptions: 40, seed: 3 });
    expect((await parseInChild(pdf)).subscriptions).toHaveLength(40);
  }, 60_000);

  it('kills the child before its whole memory passes the cap on a 40-page file of bombs', async () => {
    // 40 pages sharing a font whose program inflates to 1 GB; the pre-check is off. Where the machine
    // has the cores, pages are read on worker threads, each with its own copy of the PDF library,
    // whose memory only the watchdog sees: it reads the child's resident memory every 10 ms and kills
    // it a margin below the cap.
    // Worker threads' memory is only sampled (every 10 ms): on a loaded machine (CI runs the suites
    // in parallel) a late reading may see the child past the cap before it is killed. The main
    // thread's bound is exact (the test above); here the kill must come within a quarter of the cap.
    await expectStoppedOutOfMemory(await pagesSharingFontBomb(40, 1024), 400, { above: 200, atMost: 500 });
    const { pdf, expected } = await generateInvoice({ operator: 'dna', subscriptions: 5, seed: 9 });
    expect(await parseInChild(pdf)).toEqual(expected);
  }, 90_000);

  it('refuses a decompression bomb before reading it, using a fraction of the cap', async () => {
    const bomb = await bombPdf(2048);
    expect(bomb.length).toBeLessThan(3 * 1024 * 1024);
    await expect(parseInChild(bomb, { maxMemoryMb: 512 })).rejects.toMatchObject({
      code: 'expands_too_much',
      message: 'the file expands beyond 256 MB',
    });
    expect(lastParseStats().peakRssMb).toBeLessThan(400);
  }, 60_000);

  it('starts the TypeScript child through tsx, and the compiled child with plain node', () => {
    const ts = childCommand(384, 'file:///srv/api/src/modules/invoices/pipeline/parse-runner.ts');
    expect(ts).toHaveLength(4);
    expect(ts[0]).toBe('--import');
    expect(fileURLToPath(ts[1])).toMatch(/node_modules[\\/]tsx[\\/]/);
    expect(ts.slice(2)).toEqual([
      '--max-old-space-size=384',
      '/srv/api/src/modules/invoices/pipeline/parse-child.ts',
    ]);
    expect(childCommand(384, 'file:///srv/api/dist/parse-runner.js')).toEqual([
      '--max-old-space-size=384',
      '/srv/api/dist/parse-child.js',
    ]);
  });
});
