/**
 * The invoice parse child process (started by parse-runner.ts; never imported by the API process).
 * It alone loads the invoice readers (@kulu/invoices: MuPDF for PDFs, the Finvoice XML reader), so
 * their globals, polyfills and memory stay out of the server. Messages over IPC (advanced serialization):
 *   in:  { id, pdf: Uint8Array, inflateLimitBytes, memoryLimitBytes }
 *   out: { ready: true } once loaded, then { id, ok: true, invoice, ms } | { id, ok: false, code, message }
 *   (`ms`: how long the check and the parse took in here, for the job's phase timing)
 * Before the PDF library sees a file, its streams are decoded and counted (inflate-check.ts: streamed,
 * nothing kept): a file that expands beyond the limit, or whose streams cannot be followed, fails as
 * `expands_too_much`. MuPDF's memory on this thread (WebAssembly) may not grow past the memory
 * limit: a growth that would take the process's resident memory above 90 % of it is refused, MuPDF's
 * allocation fails and the parse fails as `out_of_memory` (the runner's watchdog covers the rest:
 * page readers on worker threads, the JavaScript heap).
 */
// The file entry alone: the Finvoice reader is small; the PDF reader (MuPDF, about 1.5 s to load)
// loads on the first PDF, so a child started for an e-invoice answers at once.
import { InvoiceError } from '@kulu/invoices/errors';
import { parseInvoiceFile, sniffInvoiceFormat } from '@kulu/invoices/file';
import { inflatedSize } from '@kulu/invoices/pdf';

interface Request {
  id: number;
  pdf: Uint8Array;
  inflateLimitBytes: number;
  memoryLimitBytes: number;
}

const send = (m: object) => process.send?.(m);

/** The resident memory MuPDF's growth may take the process to, and whether it was refused. */
const wasm = { limit: Infinity, refused: false };
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, pages: number) {
  if (process.memoryUsage.rss() + pages * 65536 > wasm.limit) {
    wasm.refused = true;
    throw new RangeError('WebAssembly.Memory.grow(): the parse would pass its memory limit');
  }
  return grow.call(this, pages);
};

process.on('message', (m: Request) => {
  void (async () => {
    const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
    const began = performance.now();
    wasm.limit = m.memoryLimitBytes * 0.9;
    wasm.refused = false;
    try {
      // Compressed streams are a PDF's; an e-invoice (XML) is read as it is, within the same caps.
      const pdf = sniffInvoiceFormat(m.pdf) === 'pdf';
      const check = pdf ? await inflatedSize(m.pdf, m.inflateLimitBytes) : { within: true };
      if (!check.within) {
        const message =
          'reason' in check && check.reason
            ? `the file cannot be checked before reading (${check.reason})`
            : `the file expands beyond ${mb(m.inflateLimitBytes)} MB`;
        send({ id: m.id, ok: false, code: 'expands_too_much', message });
        return;
      }
      // IPC hands a Buffer back as a Buffer; the PDF library wants a plain Uint8Array.
      const { invoice } = await parseInvoiceFile(
        new Uint8Array(m.pdf.buffer, m.pdf.byteOffset, m.pdf.byteLength),
      );
      send({ id: m.id, ok: true, invoice, ms: performance.now() - began });
    } catch (e) {
      if (wasm.refused) {
        send({
          id: m.id,
          ok: false,
          code: 'out_of_memory',
          message: `parsing needed more than ${mb(m.memoryLimitBytes)} MB of memory`,
        });
        return;
      }
      send({
        id: m.id,
        ok: false,
        code: e instanceof InvoiceError ? e.code : 'internal',
        message: e instanceof Error ? e.message : String(e),
      });
    }
  })();
});
// The parent going away ends the child (no orphan parse processes).
process.on('disconnect', () => process.exit(0));
send({ ready: true });
