import {
  type InflateBudget,
  type ZipEntry,
  ZipFormatError,
  ZipLimitError,
  zipEntries,
  zipEntryChunks,
} from '../zip.js';

/**
 * Reading the first sheet of an uploaded .xlsx as rows of cell texts, in bounded memory and time
 * whatever the file claims (docs/security.md, issue 23 findings 1 and 2):
 *  - only the parts a sheet's texts need are inflated: the workbook, its relationships, the
 *    styles (which numbers are dates), the first worksheet and the shared strings. Media, drawings,
 *    other sheets and anything else are never touched;
 *  - every part is inflated chunk by chunk and scanned as it comes (a small streaming XML scanner,
 *    no DOM); the bytes really inflated are counted across the parts, never the sizes the zip
 *    declares, and reading stops at `maxInflated`;
 *  - the sheet is read row by row and reading stops at the first value in a row past `maxRows`,
 *    so a small file of millions of rows costs no more than the rows allowed;
 *  - a shared string is kept only when a cell read uses it.
 * Cell texts as exceljs gave them before: numbers as written (`String(number)`), dates (a number
 * in a date format) as YYYY-MM-DD, booleans as `true`/`false`, rich text joined, formulas by their
 * cached result, errors empty.
 */

export type XlsxReadFailure = 'unreadable' | 'tooLarge' | 'tooManyRows' | 'tooManyColumns';

export class XlsxReadError extends Error {
  constructor(readonly reason: XlsxReadFailure) {
    super(`xlsx: ${reason}`);
  }
}

export interface XlsxReadLimits {
  /** Most bytes the parts read may inflate to, together. */
  maxInflated: number;
  /** Last sheet row (1-based) that may hold a value. */
  maxRows: number;
  /** Last column (1-based) that may hold a value. */
  maxColumns: number;
}

/**
 * The first worksheet's rows, as the sheet numbers them (index 0 = row 1; a row without values is
 * []), each row's cells from column A (a cell without a value is ''). No worksheet: [].
 */
export async function readFirstSheet(data: Buffer, limits: XlsxReadLimits): Promise<string[][]> {
  try {
    return await readSheet(data, limits);
  } catch (err) {
    if (err instanceof ZipLimitError) throw new XlsxReadError('tooLarge');
    if (err instanceof ZipFormatError) throw new XlsxReadError('unreadable');
    throw err;
  }
}

// ---- the parts --------------------------------------------------------------------------------------

const SHEET_MAX_ROW = 1_048_576;
const SHEET_MAX_COLUMN = 16_384;

async function readSheet(data: Buffer, limits: XlsxReadLimits): Promise<string[][]> {
  const entries = zipEntries(data);
  if (!entries) throw new XlsxReadError('unreadable');
  const parts = new Map<string, ZipEntry>();
  for (const e of entries) parts.set(partKey(e.name), e);
  const budget: InflateBudget = { left: limits.maxInflated };

  const rootRels = await readRels(data, parts, budget, '_rels/.rels', '');
  const bookPath = relTarget(rootRels, 'officeDocument') ?? 'xl/workbook.xml';
  const book = parts.get(partKey(bookPath));
  if (!book) throw new XlsxReadError('unreadable');
  const bookDir = bookPath.includes('/') ? bookPath.slice(0, bookPath.lastIndexOf('/') + 1) : '';
  const bookRels = await readRels(
    data,
    parts,
    budget,
    `${bookDir}_rels/${bookPath.slice(bookDir.length)}.rels`,
    bookDir,
  );

  const workbook = new WorkbookScan();
  await scanPart(data, book, budget, workbook);
  // The first sheet of the workbook's order that is a worksheet (not a chart sheet).
  let sheetPath: string | undefined;
  for (const id of workbook.sheetIds) {
    const rel = bookRels.get(id);
    if (rel && rel.type.endsWith('/worksheet') && parts.has(partKey(rel.target))) {
      sheetPath = rel.target;
      break;
    }
  }
  if (!sheetPath && !bookRels.size && parts.has(partKey(`${bookDir}worksheets/sheet1.xml`)))
    sheetPath = `${bookDir}worksheets/sheet1.xml`;
  if (!sheetPath) return [];

  const stylesPath = relTarget(bookRels, 'styles') ?? `${bookDir}styles.xml`;
  const styles = parts.get(partKey(stylesPath));
  const dateStyles = new StylesScan();
  if (styles) await scanPart(data, styles, budget, dateStyles);

  const sheet = new SheetScan(limits, dateStyles.dateXfs, workbook.date1904);
  await scanPart(data, parts.get(partKey(sheetPath))!, budget, sheet);

  const rows: (string | number)[][] = Array.from(
    { length: sheet.rows.length },
    (_, i) => sheet.rows[i] ?? [],
  );
  const needed = new Set<number>();
  for (const row of rows) for (const c of row) if (typeof c === 'number') needed.add(c);
  let strings = new Map<number, string>();
  if (needed.size) {
    const sstPath = relTarget(bookRels, 'sharedStrings') ?? `${bookDir}sharedStrings.xml`;
    const sst = parts.get(partKey(sstPath));
    if (sst) {
      const scan = new SharedStringsScan(needed);
      await scanPart(data, sst, budget, scan);
      strings = scan.strings;
    }
  }
  return rows.map((row) => row.map((c) => (typeof c === 'number' ? (strings.get(c) ?? '') : c)));
}

/** Part names compare without a leading slash and without case (OPC part names). */
const partKey = (name: string) => name.replace(/^\/+/, '').toLowerCase();

interface Rel {
  type: string;
  target: string;
}

/** A relationships part: id → type and target (resolved against `baseDir`); empty when absent. */
async function readRels(
  data: Buffer,
  parts: Map<string, ZipEntry>,
  budget: InflateBudget,
  path: string,
  baseDir: string,
): Promise<Map<string, Rel>> {
  const entry = parts.get(partKey(path));
  const scan = new RelsScan(baseDir);
  if (entry) await scanPart(data, entry, budget, scan);
  return scan.rels;
}

/** The target of the first relationship whose type ends with `/kind`. */
function relTarget(rels: Map<string, Rel>, kind: string): string | undefined {
  for (const rel of rels.values()) if (rel.type.endsWith(`/${kind}`)) return rel.target;
  return undefined;
}

/** A relationship target as a part name: absolute (`/xl/…`) or relative to `baseDir` (`../`). */
function resolveTarget(baseDir: string, target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : baseDir + target;
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return out.join('/');
}

/** Inflates one part and feeds it to `handler` as it comes; stops when the handler is done. */
async function scanPart(data: Buffer, entry: ZipEntry, budget: InflateBudget, handler: XmlHandler) {
  const scanner = new XmlScanner(handler);
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of zipEntryChunks(data, entry, budget)) {
    scanner.write(decoder.decode(chunk, { stream: true }));
    if (handler.done) return;
  }
  scanner.write(decoder.decode());
}

// ---- what each part gives -------------------------------------------------------------------------

class RelsScan implements XmlHandler {
  done = false;
  wantsText = false;
  readonly rels = new Map<string, Rel>();
  constructor(private readonly baseDir: string) {}
  open(name: string, attrs: string) {
    if (name !== 'Relationship' || this.rels.size >= 10_000) return;
    const id = attr(attrs, 'Id');
    const target = attr(attrs, 'Target');
    if (id === undefined || target === undefined || attr(attrs, 'TargetMode') === 'External') return;
    this.rels.set(id, { type: attr(attrs, 'Type') ?? '', target: resolveTarget(this.baseDir, target) });
  }
  close() {}
  text() {}
}

class WorkbookScan implements XmlHandler {
  done = false;
  wantsText = false;
  date1904 = false;
  readonly sheetIds: string[] = [];
  open(name: string, attrs: string) {
    if (name === 'workbookPr') {
      const v = attr(attrs, 'date1904');
      this.date1904 = v === '1' || v === 'true';
    } else if (name === 'sheet' && this.sheetIds.length < 10_000) {
      const id = attr(attrs, 'id');
      if (id !== undefined) this.sheetIds.push(id);
    }
  }
  close(name: string) {
    if (name === 'sheets') this.done = true;
  }
  text() {}
}

/** Built-in number formats that are dates or times (as exceljs reads them). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);
/** Cell formats looked at; Excel itself allows about 64,000. */
const MAX_CELL_FORMATS = 65_536;

/** A format code shows a date or time when, outside quotes and brackets, it has y m d h s or b. */
const isDateFormat = (code: string) =>
  /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

/** Which cell formats (`s` of a cell, an index into cellXfs) show a number as a date. */
class StylesScan implements XmlHandler {
  done = false;
  wantsText = false;
  readonly dateXfs = new Uint8Array(MAX_CELL_FORMATS);
  private custom = new Map<number, boolean>();
  private inCellXfs = false;
  private depth = 0;
  private xf = 0;
  open(name: string, attrs: string) {
    if (name === 'numFmt' && this.custom.size < MAX_CELL_FORMATS) {
      const id = Number(attr(attrs, 'numFmtId'));
      if (Number.isInteger(id)) this.custom.set(id, isDateFormat(attr(attrs, 'formatCode') ?? ''));
    } else if (name === 'cellXfs') {
      this.inCellXfs = true;
      this.depth = 0;
    } else if (this.inCellXfs) {
      if (name === 'xf' && this.depth === 0) {
        const id = Number(attr(attrs, 'numFmtId') ?? 0);
        const date = id !== 0 && (this.custom.get(id) ?? BUILTIN_DATE_FORMATS.has(id));
        if (date && this.xf < MAX_CELL_FORMATS) this.dateXfs[this.xf] = 1;
        this.xf++;
      }
      this.depth++;
    }
  }
  close(name: string) {
    if (name === 'cellXfs') {
      this.inCellXfs = false;
      this.done = true;
    } else if (this.inCellXfs) this.depth--;
  }
  text() {}
}

/** Excel's `_xHHHH_` escapes of characters XML can't carry. */
const unescapeExcel = (s: string) =>
  s.includes('_x')
    ? s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : s;

/** Keeps the texts of the shared strings whose index is in `needed` (rich text runs joined). */
class SharedStringsScan implements XmlHandler {
  done = false;
  readonly strings = new Map<number, string>();
  private index = -1;
  private last = -1;
  private keep = false;
  private inT = false;
  private phonetic = 0;
  private text_ = '';
  constructor(private readonly needed: Set<number>) {
    for (const i of needed) if (i > this.last) this.last = i;
  }
  get wantsText() {
    return this.keep && this.inT && this.phonetic === 0;
  }
  open(name: string) {
    if (name === 'si') {
      this.index++;
      this.keep = this.needed.has(this.index);
      this.text_ = '';
    } else if (name === 't') this.inT = true;
    else if (name === 'rPh') this.phonetic++;
  }
  close(name: string) {
    if (name === 't') this.inT = false;
    else if (name === 'rPh') this.phonetic--;
    else if (name === 'si') {
      if (this.keep) this.strings.set(this.index, unescapeExcel(this.text_));
      this.keep = false;
      if (this.index >= this.last) this.done = true;
    }
  }
  text(s: string) {
    this.text_ += s;
  }
}

/**
 * The cells of a worksheet's sheetData: rows by their number, each a list of cell texts (a number
 * is the index of a shared string, resolved once the sheet is read). Stops at `</sheetData>`.
 */
class SheetScan implements XmlHandler {
  done = false;
  readonly rows: (string | number)[][] = [];
  private inData = false;
  private row = 0;
  private col = 0;
  private type = 'n';
  private style = 0;
  private value: string | null = null;
  private inline: string | null = null;
  private formula = false;
  private capture: 'v' | 't' | null = null;
  private inInline = false;
  private phonetic = 0;
  constructor(
    private readonly limits: XlsxReadLimits,
    private readonly dateXfs: Uint8Array,
    private readonly date1904: boolean,
  ) {}
  get wantsText() {
    return this.capture !== null;
  }
  open(name: string, attrs: string) {
    if (!this.inData) {
      if (name === 'sheetData') this.inData = true;
      return;
    }
    switch (name) {
      case 'row': {
        const r = attr(attrs, 'r');
        this.row = r === undefined ? this.row + 1 : /^\d{1,7}$/.test(r) ? Number(r) : 0;
        if (this.row < 1 || this.row > SHEET_MAX_ROW) throw new XlsxReadError('unreadable');
        this.col = 0;
        break;
      }
      case 'c': {
        const ref = attr(attrs, 'r');
        this.col = ref === undefined ? this.col + 1 : columnOf(ref);
        if (this.col < 1 || this.col > SHEET_MAX_COLUMN) throw new XlsxReadError('unreadable');
        this.type = attr(attrs, 't') ?? 'n';
        this.style = Number(attr(attrs, 's') ?? 0) || 0;
        this.value = null;
        this.inline = null;
        this.formula = false;
        break;
      }
      case 'v':
        this.value ??= '';
        this.capture = 'v';
        break;
      case 'f':
        this.formula = true;
        break;
      case 'is':
        this.inline ??= '';
        this.inInline = true;
        break;
      case 't':
        if (this.inInline && this.phonetic === 0) this.capture = 't';
        break;
      case 'rPh':
        this.phonetic++;
        break;
    }
  }
  close(name: string) {
    if (!this.inData) return;
    switch (name) {
      case 'v':
      case 't':
        this.capture = null;
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'rPh':
        this.phonetic--;
        break;
      case 'c':
        this.endCell();
        break;
      case 'sheetData':
        this.done = true;
        break;
    }
  }
  text(s: string) {
    if (this.capture === 'v') this.value += s;
    else this.inline += s;
  }
  private endCell() {
    if (this.value === null && this.inline === null && !this.formula) return;
    if (this.row > this.limits.maxRows) throw new XlsxReadError('tooManyRows');
    if (this.col > this.limits.maxColumns) throw new XlsxReadError('tooManyColumns');
    const cells = (this.rows[this.row - 1] ??= []);
    while (cells.length < this.col - 1) cells.push('');
    cells[this.col - 1] = this.cellValue();
  }
  /** The cell's text, or the index of its shared string. */
  private cellValue(): string | number {
    const v = this.value;
    if (this.formula) {
      if (v === null) return '';
      if (this.type === 'str') return v;
      if (this.type === 'b') return bool(v);
      if (this.type === 'e') return '';
      return this.number(v);
    }
    if (this.type === 'inlineStr' || (v === null && this.inline !== null))
      return unescapeExcel(this.inline ?? v ?? '');
    if (v === null) return '';
    switch (this.type) {
      case 's': {
        const i = Number(v.trim());
        return Number.isInteger(i) && i >= 0 ? i : '';
      }
      case 'str':
        return v;
      case 'b':
        return bool(v);
      case 'e':
        return '';
      case 'd':
        return v.trim().slice(0, 10);
      default:
        return this.number(v);
    }
  }
  private number(v: string): string {
    const n = parseFloat(v);
    if (Number.isNaN(n)) return v.trim();
    if (this.style > 0 && this.style < this.dateXfs.length && this.dateXfs[this.style]) {
      const date = new Date(Math.round((n - 25569 + (this.date1904 ? 1462 : 0)) * 86_400_000));
      if (!Number.isNaN(date.getTime())) return date.toISOString().slice(0, 10);
    }
    return String(n);
  }
}

const bool = (v: string) => String(parseInt(v, 10) !== 0);

/** The column (1-based) of a cell reference such as `AB12`; 0 when it is not one. */
function columnOf(ref: string): number {
  const m = /^\$?([A-Za-z]{1,3})\$?\d*$/.exec(ref);
  if (!m) return 0;
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return col;
}

// ---- a streaming XML scanner ----------------------------------------------------------------------

interface XmlHandler {
  /** Set by the handler when it has what it needs: reading the part stops. */
  done: boolean;
  /** Whether the text at this point is wanted (text is decoded only then). */
  readonly wantsText: boolean;
  /** An element opens (its local name, without a namespace prefix; its raw attributes). */
  open(name: string, attrs: string): void;
  /** An element closes (also right after `open` for `<empty/>`). */
  close(name: string): void;
  text(text: string): void;
}

/** Longest piece (a tag, a text, a comment) the scanner holds while waiting for its end. */
const MAX_PENDING = 1024 * 1024;

/**
 * Cuts XML arriving in pieces into tags and texts, holding only the unfinished piece between
 * writes. Enough XML for the parts of a workbook: elements, attributes, texts with the predefined
 * and numeric entities, CDATA; comments and processing instructions are skipped. A document type
 * declaration (never in an .xlsx; the door to entity expansion) or a piece longer than 1 MB makes
 * the part unreadable.
 */
class XmlScanner {
  private pending = '';
  constructor(private readonly h: XmlHandler) {}

  write(chunk: string) {
    const s = this.pending + chunk;
    const h = this.h;
    let i = 0;
    while (!h.done) {
      const lt = s.indexOf('<', i);
      if (lt < 0) break;
      if (lt > i) {
        if (h.wantsText) h.text(decodeXml(s.slice(i, lt)));
        i = lt;
      }
      const next = s.charCodeAt(lt + 1);
      let end: number;
      if (next === 0x21 /* ! */) {
        if (s.startsWith('<!--', lt)) {
          end = s.indexOf('-->', lt + 4);
          if (end < 0) break;
          i = end + 3;
        } else if (s.startsWith('<![CDATA[', lt)) {
          end = s.indexOf(']]>', lt + 9);
          if (end < 0) break;
          if (h.wantsText) h.text(s.slice(lt + 9, end));
          i = end + 3;
        } else if (s.length - lt < 9) break;
        else throw new XlsxReadError('unreadable');
        continue;
      }
      if (next === 0x3f /* ? */) {
        end = s.indexOf('?>', lt + 2);
        if (end < 0) break;
        i = end + 2;
        continue;
      }
      end = tagEnd(s, lt + 1);
      if (end < 0) break;
      this.tag(s.slice(lt + 1, end));
      i = end + 1;
    }
    this.pending = h.done ? '' : s.slice(i);
    if (this.pending.length > MAX_PENDING) throw new XlsxReadError('unreadable');
  }

  private tag(raw: string) {
    if (raw.charCodeAt(0) === 0x2f /* / */) {
      this.h.close(localName(raw.slice(1).trim()));
      return;
    }
    const empty = raw.endsWith('/');
    const body = empty ? raw.slice(0, -1) : raw;
    const m = /^[^\s/]+/.exec(body);
    if (!m) throw new XlsxReadError('unreadable');
    const name = localName(m[0]);
    this.h.open(name, body.slice(m[0].length));
    if (empty) this.h.close(name);
  }
}

/** Where a tag that starts at `from` ends (its `>` outside quoted values); -1 when not yet. */
function tagEnd(s: string, from: number): number {
  let quote = 0;
  for (let j = from; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x3e /* > */) return j;
    else if (c === 0x22 || c === 0x27) quote = c;
  }
  return -1;
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

const attrPatterns = new Map<string, RegExp>();

/** An attribute's value (entities decoded), by its local name; undefined when it is not there. */
function attr(attrs: string, name: string): string | undefined {
  let re = attrPatterns.get(name);
  if (!re) {
    re = new RegExp(`(?:^|\\s)(?:[^\\s=:]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attrPatterns.set(name, re);
  }
  const m = re.exec(attrs);
  return m ? decodeXml(m[1] ?? m[2]) : undefined;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9A-Fa-f]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos);/g, (whole, e: string) => {
    if (e[0] !== '#') return ENTITIES[e];
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
