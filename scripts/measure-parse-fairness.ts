/**
 * Issue 23, finding 3, measured once for docs/security.md: while one client floods the parse queue
 * with 20 nested-form CPU-bomb PDFs (one request), how long another client's 5-page invoice takes
 * (three in a row)
 * from its upload to "uploaded", on the compiled server (`npm start -- --no-web`, embedded
 * database, demo data, default limits). Run: node --import tsx scripts/measure-parse-fairness.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nestedFormBomb } from '@kulu/invoices/pdf/bomb-pdf';
import {
  ADMIN,
  api,
  COMPANY_ADMIN,
  fivePagePdf,
  freePort,
  login,
  OTHER_ADMIN,
  running,
  settle,
  sleep,
  start,
  stop,
  uploadForm as form,
  type Run,
} from './bench-lib.js';

const ROUNDS = 3;

async function stateOf(run: Run, token: string, id: number) {
  return (await api(run, 'GET', `/api/invoices/${id}`, { token })).uploadState as string;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-fair-'));
try {
  const run = await start(await freePort(), dataDir, {}, ['--no-web']);
  await settle(run, await login(run, ADMIN));
  const flooder = await login(run, COMPANY_ADMIN);
  const other = await login(run, OTHER_ADMIN);
  const bombs = Array.from({ length: 20 }, (_, i) => ({
    name: `bomb-${i + 1}.pdf`,
    data: nestedFormBomb(100 + i),
  }));
  const t0 = performance.now();
  const flood = await api(run, 'POST', '/api/invoices', { token: flooder, body: form(bombs) });
  const bombIds = (flood.results as Array<{ invoiceId?: number }>).flatMap((r) =>
    r.invoiceId ? [r.invoiceId] : [],
  );
  console.log(`flood: ${bombIds.length} of 20 bombs (${bombs[0].data.length} bytes each) accepted`);
  await sleep(1000);
  for (let round = 1; round <= ROUNDS; round++) {
    const pdf = await fivePagePdf(2400 + round);
    const began = performance.now();
    const res = await api(run, 'POST', '/api/invoices', {
      token: other,
      body: form([{ name: `dna-${round}.pdf`, data: pdf }]),
    });
    const id = (res.results as Array<{ invoiceId: number }>)[0].invoiceId;
    let state = 'in_progress';
    while (state === 'in_progress') {
      await sleep(100);
      state = await stateOf(run, other, id);
    }
    const seconds = (performance.now() - began) / 1000;
    const states = await Promise.all(bombIds.map((b) => stateOf(run, flooder, b)));
    const done = states.filter((s) => s !== 'in_progress').length;
    console.log(
      `round ${round}: the other client's 5-page invoice (${pdf.length} bytes) ${state} after ${seconds.toFixed(1)} s ` +
        `(at ${((performance.now() - t0) / 1000).toFixed(1)} s into the flood, ${done} of ${bombIds.length} bombs done)`,
    );
  }
  const states = await Promise.all(
    bombIds.map((b) => api(run, 'GET', `/api/invoices/${b}`, { token: flooder })),
  );
  console.log(
    `bombs: ${[...new Set(states.map((s) => `${s.uploadState} ${s.errorCode ?? ''}`))].join(', ')}`,
  );
  await stop(run);
} finally {
  for (const r of running) await stop(r);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
