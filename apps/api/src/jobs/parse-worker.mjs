// Worker thread of the invoice parse (see parse-runner.ts). Plain JavaScript so that a bare
// `new Worker()` can start it under tsx, vitest or node alike; the TypeScript parser package is
// loaded through tsx's programmatic loader, once per worker. Messages: {id, pdf} in,
// {id, ok, invoice | code, message} out.
import { parentPort } from 'node:worker_threads';

const { tsImport } = await import('tsx/esm/api');
const { parseInvoice, InvoiceError } = await tsImport('@kulu/invoices', import.meta.url);

parentPort.on('message', async ({ id, pdf }) => {
  try {
    const invoice = await parseInvoice(new Uint8Array(pdf));
    parentPort.postMessage({ id, ok: true, invoice });
  } catch (e) {
    const known = e instanceof InvoiceError;
    parentPort.postMessage({
      id,
      ok: false,
      code: known ? e.code : 'internal',
      message: e instanceof Error ? e.message : String(e),
    });
  }
});
parentPort.postMessage({ ready: true });
