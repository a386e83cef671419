import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_MAX_BYTES, MESSAGES } from '@kulu/shared';
import { startJobs } from '../jobs/index.js';
import { parseTimeLimitSeconds } from '../modules/invoices/pipeline/parse-invoice.js';
import { QUEUE } from '../lib/queue.js';
import { loadConfig } from '../config.js';
import { BUYER, createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { nestedFormBomb } from '@kulu/invoices/pdf/bomb-pdf';
import { generateInvoiceOutOfProcess, settled, uploadFiles, uploadStreamed } from '../test/uploads.js';

/**
 * Issue 23, finding 3: one company could starve every tenant's invoice parsing. Parses ran one at
 * a time, first in first out across clients, up to 120 s each; two 2.5 KB PDFs whose page draws
 * nested form objects 10^10 times made another client's 5-page invoice wait 238.6 s.
 */

describe("a file's parse time limit", () => {
  const config = loadConfig({});

  it('scales with the file size from a short base to the cap', () => {
    // Defaults: 5 s + 100 s per MB, at most 120 s.
    expect(parseTimeLimitSeconds(2_500, config)).toBe(5.2);
    expect(parseTimeLimitSeconds(100 * 1024, config)).toBe(14.8);
    expect(parseTimeLimitSeconds(20 * 1024 * 1024, config)).toBe(120);
    expect(parseTimeLimitSeconds(nestedFormBomb().length, config)).toBeLessThan(6);
  });

  it('never exceeds PARSE_TIMEOUT_SECONDS', () => {
    const capped = { ...config, PARSE_TIMEOUT_SECONDS: 3 };
    expect(parseTimeLimitSeconds(0, capped)).toBe(3);
  });
});

describe('one client flooding the parse queue', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};

  beforeAll(async () => {
    // A small budget (3.5 s an hour) and short limits (2.5 s a bomb) keep the test short; on the
    // old queue (no scaled limit) the cap of 3 s applies to each bomb.
    t = await createTestApp({
      PARSE_TIMEOUT_SECONDS: '3',
      PARSE_TIMEOUT_BASE_SECONDS: '2.5',
      PARSE_BUDGET_SECONDS_PER_HOUR: '3.5',
    });
    for (const k of ['companyAdmin', 'otherCompanyAdmin'] as const) tok[k] = await t.login(DEMO[k]);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  async function startedOn(invoiceId: number): Promise<number> {
    const { rows } = (await t.deps.database.executeSql(
      `select started_on from pgboss.job where name = $1 and (data->>'invoiceId')::int = $2
         order by created_on desc limit 1`,
      [QUEUE.parseInvoice, invoiceId],
    )) as { rows: Array<{ started_on: Date | string }> };
    return new Date(rows[0].started_on).getTime();
  }

  it("parses another client's invoice before the flooding client's second file", async () => {
    expect(nestedFormBomb().length).toBeLessThan(3000);
    // Client A queues four bombs in one request, then client B one honest invoice; the
    // queue's workers start after both (as when a flood sits in the queue when B uploads).
    const flood = await uploadFiles(
      t,
      tok.companyAdmin,
      [1, 2, 3, 4].map((i) => ({ name: `bomb-${i}.pdf`, data: nestedFormBomb(i) })),
    );
    expect(flood.statusCode).toBe(200);
    const bombs: number[] = flood.json().results.map((r: { invoiceId: number }) => r.invoiceId);
    expect(bombs).toHaveLength(4);
    const honest = generateInvoiceOutOfProcess({
      operator: 'dna',
      subscriptions: 10,
      seed: 2301,
      buyer: BUYER.saimaa,
    });
    const other = await uploadFiles(t, tok.otherCompanyAdmin, [{ name: 'dna.pdf', data: honest }]);
    expect(other.statusCode).toBe(200);
    const invoiceB: number = other.json().results[0].invoiceId;

    await startJobs(t.deps, { schedules: false });
    const honestB = await settled(t, tok.otherCompanyAdmin, invoiceB, 120_000);
    const flooded = [];
    for (const id of bombs) flooded.push(await settled(t, tok.companyAdmin, id, 120_000));
    // At most one of A's parses ran before B's: B's started before A's second.
    const startedB = await startedOn(invoiceB);
    const startedA = await Promise.all(bombs.map(startedOn));
    expect(startedA.filter((s) => s < startedB)).toHaveLength(1);
    expect(honestB.uploadState).toBe('uploaded');
    for (const inv of flooded) {
      expect(inv.uploadState).toBe('failed');
      expect(inv.errorCode).toBe('invoiceParseTimeout');
    }
  }, 240_000);

  it("refuses the client's uploads with 429 once its parse time of the hour is used, before reading their bodies", async () => {
    // A's four bombs ran at least 2.5 s each: over the 3.5 s budget. A 20 MB upload is answered
    // without its body being read (no more than the stream buffered ahead), not streamed into
    // storage to be dropped.
    const big = uploadStreamed(t, tok.companyAdmin, INVOICE_MAX_BYTES);
    const res = await big.res;
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({
      code: 'parseBudgetExhausted',
      message: MESSAGES.parseBudgetExhausted.en,
    });
    expect(res.json().results).toBeUndefined();
    expect(big.counter.read).toBeLessThan(4 * 1024 * 1024);
    expect(big.length).toBeGreaterThan(INVOICE_MAX_BYTES);
    // The API description names the refusal.
    const { paths } = t.app.swagger() as unknown as {
      paths: Record<string, Record<string, { responses: object }>>;
    };
    expect(Object.keys(paths['/api/invoices'].post.responses)).toContain('429');
    // In Finnish for a Finnish-speaking user.
    await t.deps.database.executeSql(`update users set language_id = 2 where email = $1`, [
      DEMO.companyAdmin,
    ]);
    const fiToken = await t.login(DEMO.companyAdmin);
    const fi = await uploadFiles(t, fiToken, [{ name: 'bomb-6.pdf', data: nestedFormBomb(6) }]);
    expect(fi.statusCode).toBe(429);
    expect(fi.json()).toMatchObject({
      code: 'parseBudgetExhausted',
      message: MESSAGES.parseBudgetExhausted.fi,
    });
  });
});
