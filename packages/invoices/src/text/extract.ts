import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PdfReadError } from '../errors.js';
import type { TextDocument, TextItem, TextPage } from '../types.js';
import { buildLines } from './layout.js';

export interface ExtractOptions {
  /** Refuse documents with more pages than this (default 5000). */
  maxPages?: number;
}

const PDF_MAGIC = '%PDF-';

/** True when the bytes start like a PDF (`%PDF-` within the first 1024 bytes, as readers allow). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes(PDF_MAGIC);
}

/**
 * Reads a PDF with pdf.js (legacy build, no worker thread, no eval, no font loading) into pages of
 * positioned text items merged into lines (top-down y, items sorted by x). Bad input gives a
 * PdfReadError, never a crash.
 */
export async function extractText(pdf: Uint8Array, options: ExtractOptions = {}): Promise<TextDocument> {
  const maxPages = options.maxPages ?? 5000;
  if (pdf.length === 0) throw new PdfReadError('not_a_pdf', 'not a PDF: the file is empty');
  if (!looksLikePdf(pdf))
    throw new PdfReadError('not_a_pdf', 'not a PDF: the file does not start with %PDF-');

  let doc: PDFDocumentProxy | undefined;
  const task = getDocument({
    // pdf.js may transfer (detach) the buffer it gets: give it a copy.
    data: pdf.slice(),
    useWorkerFetch: false,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    doc = await task.promise;
    if (doc.numPages > maxPages) {
      throw new PdfReadError(
        'unreadable_pdf',
        `the PDF has ${doc.numPages} pages, more than the ${maxPages} allowed`,
      );
    }
    const pages: TextPage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items: TextItem[] = [];
      for (const raw of content.items) {
        if (!('str' in raw) || !raw.str.trim()) continue;
        const [a, b, , , e, f] = raw.transform as number[];
        // Font size from the text matrix (handles scaled text); height is 0 for some fonts.
        const size = Math.hypot(a, b) || raw.height || 10;
        items.push({
          str: raw.str,
          x: e - viewport.viewBox[0],
          y: viewport.viewBox[3] - f,
          width: raw.width,
          height: size,
        });
      }
      pages.push({ number: n, width: viewport.width, height: viewport.height, lines: buildLines(items, n) });
      page.cleanup();
    }
    return { pages };
  } catch (err) {
    if (err instanceof PdfReadError) throw err;
    if ((err as { name?: string } | null)?.name === 'PasswordException') {
      throw new PdfReadError(
        'encrypted_pdf',
        'the PDF is encrypted (password protected) and cannot be read',
        {
          cause: err,
        },
      );
    }
    const detail = err instanceof Error ? err.message : String(err);
    throw new PdfReadError('unreadable_pdf', `the PDF cannot be read: ${detail}`, { cause: err });
  } finally {
    await (doc ? doc.destroy() : task.destroy()).catch(() => undefined);
  }
}
