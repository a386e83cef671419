/**
 * The invoice parse child process (started by parse-runner.ts; never imported by the API process).
 * It alone loads the invoice readers (@kulu/invoices: MuPDF for PDFs, the Finvoice XML reader), so
 * their globals, polyfills and memory stay out of the server. Messages over IPC (advanced serialization):
 *   in:  { id, pdf: Uint8Array, inflateLimitBytes }
 *   out: { ready: true } once loaded, then { id, ok: true, invoice } | { id, ok: false, code, message }
 * Before the PDF library sees a file, its FlateDecode streams are inflated and counted (streamed,
 * nothing kept): a file that expands beyond the limit fails as `expands_too_much`.
 */
// The file entry alone: the Finvoice reader is small; the PDF reader (MuPDF, about 1.5 s to load)
// loads on the first PDF, so a child started for an e-invoice answers at once.
import { InvoiceError } from '@kulu/invoices/errors';
import { parseInvoiceFile, sniffInvoiceFormat } from '@kulu/invoices/file';
import { inflatedSize } from './inflate-check.js';

interface Request {
  id: number;
  pdf: Uint8Array;
  inflateLimitBytes: number;
}

const send = (m: object) => process.send?.(m);

process.on('message', (m: Request) => {
  void (async () => {
    try {
      // Compressed streams are a PDF's; an e-invoice (XML) is read as it is, within the same caps.
      const pdf = sniffInvoiceFormat(m.pdf) === 'pdf';
      const check = pdf ? await inflatedSize(m.pdf, m.inflateLimitBytes) : { within: true };
      if (!check.within) {
        const mb = Math.round(m.inflateLimitBytes / (1024 * 1024));
        send({ id: m.id, ok: false, code: 'expands_too_much', message: `the file expands beyond ${mb} MB` });
        return;
      }
      // IPC hands a Buffer back as a Buffer; the PDF library wants a plain Uint8Array.
      const { invoice } = await parseInvoiceFile(
        new Uint8Array(m.pdf.buffer, m.pdf.byteOffset, m.pdf.byteLength),
      );
      send({ id: m.id, ok: true, invoice });
    } catch (e) {
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
