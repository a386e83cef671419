// Positioned text of PDF pages through MuPDF (npm `mupdf`, Artifex's WebAssembly build).
// Plain JavaScript on purpose: it also runs as a worker thread (see extract.ts), and a worker must
// start under plain Node whatever runs the parent (tsx, vitest, a bundled CLI).
// Types: mupdf-pages.d.mts.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { wasm } from './mupdf-hook.mjs';

// Loaded after the hook has run, also where a bundler hoists static imports above inlined code (a
// static `import 'mupdf'` in a bundle evaluates before the hook and MuPDF misses its module object).
const mupdf = await import('mupdf');

// MuPDF reports repairs and oddities on stderr by default; a bad file gives an error instead.
mupdf.setLog({ error() {}, warning() {} });
// Only text is read: no colour management (setting up lcms2 costs ~65 ms per thread).
mupdf.disableICC();

const SCALE = 100; // asJSON prints integer coordinates: scale by 100 for 1/100 pt precision

/** Opens PDF bytes; throws mupdf's own error for an unreadable file. */
export function openPdf(bytes) {
  return mupdf.Document.openDocument(bytes, 'application/pdf');
}

/** Where MuPDF's structured-text getters are reachable, the walk below reads them directly. */
const GETTERS = [
  '_wasm_stext_page_get_first_block',
  '_wasm_stext_block_get_next',
  '_wasm_stext_block_get_type',
  '_wasm_stext_block_get_first_line',
  '_wasm_stext_line_get_next',
  '_wasm_stext_line_get_wmode',
  '_wasm_stext_line_get_bbox',
  '_wasm_stext_line_get_first_char',
  '_wasm_stext_char_get_next',
  '_wasm_stext_char_get_c',
  '_wasm_stext_char_get_origin',
  '_wasm_stext_char_get_size',
];
export const hasDirectWalk = GETTERS.every((name) => typeof wasm[name] === 'function') && 'HEAPF32' in wasm;

/**
 * The text of page `index` (0-based) as MuPDF's lines (runs of text on one baseline without a
 * column gap): `strs[i]` with `nums[4i…4i+3]` = x (origin of the first character), y (baseline, from
 * the top), width (to the right edge of the last character) and font size (of the first character),
 * in PDF points. `how` picks the reader: `direct` (default where available) or `json`.
 */
export function readPage(doc, index, how = hasDirectWalk ? 'direct' : 'json') {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const stext = page.toStructuredText('');
    const out = { width: x1 - x0, height: y1 - y0, strs: [], values: [] };
    try {
      if (how === 'direct') walkDirect(stext.pointer, x0, y0, out);
      else walkJson(stext.asJSON(SCALE), x0, y0, out);
    } finally {
      stext.destroy();
    }
    return { width: out.width, height: out.height, strs: out.strs, nums: Float64Array.from(out.values) };
  } finally {
    page.destroy();
  }
}

function walkDirect(stextPage, x0, y0, out) {
  const codes = [];
  for (
    let block = wasm._wasm_stext_page_get_first_block(stextPage);
    block;
    block = wasm._wasm_stext_block_get_next(block)
  ) {
    if (wasm._wasm_stext_block_get_type(block) !== 0) continue; // 0: text
    for (
      let line = wasm._wasm_stext_block_get_first_line(block);
      line;
      line = wasm._wasm_stext_line_get_next(line)
    ) {
      const first = wasm._wasm_stext_line_get_first_char(line);
      if (!first || wasm._wasm_stext_line_get_wmode(line) !== 0) continue;
      codes.length = 0;
      for (let ch = first; ch; ch = wasm._wasm_stext_char_get_next(ch)) {
        const c = wasm._wasm_stext_char_get_c(ch);
        codes.push(c >= 0 && c <= 0x10ffff ? c : 0xfffd);
      }
      const str = String.fromCodePoint(...codes);
      if (!str.trim()) continue;
      const size = wasm._wasm_stext_char_get_size(first);
      // The getters return pointers to floats in MuPDF's memory; read them before the next call.
      const origin = wasm._wasm_stext_char_get_origin(first) >> 2;
      const x = wasm.HEAPF32[origin];
      const y = wasm.HEAPF32[origin + 1];
      const bbox = wasm._wasm_stext_line_get_bbox(line) >> 2;
      const right = wasm.HEAPF32[bbox + 2];
      out.strs.push(str);
      out.values.push(x - x0, y - y0, right - x, size);
    }
  }
}

function walkJson(json, x0, y0, out) {
  for (const block of JSON.parse(json).blocks) {
    if (block.type !== 'text') continue;
    for (const line of block.lines) {
      if (line.wmode !== 0 || !line.text.trim()) continue;
      out.strs.push(line.text);
      out.values.push(
        line.x / SCALE - x0,
        line.y / SCALE - y0,
        (line.bbox.x + line.bbox.w - line.x) / SCALE,
        line.font.size / SCALE,
      );
    }
  }
}

/** Pages `first`…`last - 1` of an open document. */
export function readPages(doc, first, last) {
  const pages = [];
  for (let i = first; i < last; i++) pages.push(readPage(doc, i));
  return pages;
}

if (!isMainThread && workerData?.kind === 'kulu-mupdf-pages') {
  const { bytes, first, last } = workerData;
  let doc;
  try {
    doc = openPdf(bytes);
    const pages = readPages(doc, first, last);
    parentPort.postMessage(
      { pages },
      pages.map((p) => p.nums.buffer),
    );
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  } finally {
    doc?.destroy();
  }
}
