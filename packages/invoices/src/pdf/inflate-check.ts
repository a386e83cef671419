import { Decryption } from './crypt.js';
import { bytesOf, type Chunks, counted, decode, type Filter, filterOf, Meter, OverLimit } from './filters.js';
import {
  Budget,
  findHeaders,
  isRegular,
  Lexer,
  NULL,
  Parser,
  skipBack,
  SyntaxFailure,
  Tok,
  Uncheckable,
  type Value,
} from './syntax.js';

/**
 * A pre-check of a PDF before any PDF library reads it (issue 23, findings 1 and 6): every stream is
 * decoded through its real filter chain and what each filter outputs is counted, streamed and thrown
 * away piece by piece; above `limitBytes` the check stops at once. A decompression bomb (a 2 MB file
 * whose content stream inflates to gigabytes) is refused having used a few megabytes, not the
 * gigabytes a PDF reader would allocate. Pure node (no PDF library); runs in the parse child.
 *
 * What it follows, as MuPDF (the reader behind @kulu/invoices) does:
 * - streams are found from `N G obj` headers anywhere in the file (not from the xref table, which may
 *   lie), including objects hidden inside other streams' data; a stream's data ends at the first
 *   `endstream` at or after its /Length (direct, or an indirect object resolved by scanning the
 *   file, also inside object streams);
 * - /Filter (or /F), DecodeParms (or /DP): names, arrays, indirect objects, any number of stages;
 *   FlateDecode, LZWDecode (with its EarlyChange), RunLengthDecode, ASCIIHexDecode, ASCII85Decode
 *   and BrotliDecode are decoded; each stage's output counts, and so do the raw bytes read;
 * - filters it does not decode pass their input through, counted as their output (JPXDecode,
 *   unknown names); DCTDecode also counts the pixels of the JPEG's frame; CCITTFaxDecode and
 *   JBIG2Decode count their input on images (a reader extracting text never decodes images) and are
 *   refused on any other stream;
 * - a file encrypted with an empty password (which MuPDF opens without asking) is decrypted first,
 *   or by the stream's Crypt filter (pdf-crypt.ts);
 * - every stream counts 16 KiB and every object 512 bytes more (MuPDF opens the content streams of
 *   a page all at once: 20,000 tiny ones took 320 MB);
 * - where the file gives two answers (an object defined twice, a key given twice) every answer is
 *   counted; the longest /Length is used.
 * What it cannot follow it refuses (`reason`) instead of guessing: an indirect /Filter, /Length or
 * /DecodeParms whose object is nowhere in the file, a stream keyword after a dictionary that belongs
 * to no readable object, more than 32 filters or 16 ways to decode one stream, a damaged Flate
 * stream that feeds another filter, objects that overlap so much that reading them would take more
 * than twice the file. Not followed (the watchdog covers them): inline images inside content
 * streams, sizes stated by Type 3 fonts, functions and shadings. The memory watchdog of the parse
 * child (parse-runner.ts) stays the guarantee.
 */
export async function inflatedSize(
  pdf: Uint8Array,
  limitBytes: number,
): Promise<{ within: boolean; bytes: number; reason?: string }> {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const meter = new Meter(limitBytes);
  try {
    await check(buf, meter);
    return { within: true, bytes: meter.total };
  } catch (e) {
    if (e instanceof OverLimit) return { within: false, bytes: meter.total };
    if (e instanceof Uncheckable) return { within: false, bytes: meter.total, reason: e.reason };
    throw e;
  }
}

/** Counted for every stream besides its data (about what MuPDF holds per open content stream). */
export const STREAM_OVERHEAD = 16 * 1024;
/** Counted for every object (MuPDF's xref entry and parsed object). */
export const OBJECT_OVERHEAD = 512;

/** The keys of a stream dictionary the check reads; the rest are read through and dropped. */
const STREAM_KEYS = new Set([
  'Filter',
  'F',
  'DecodeParms',
  'DP',
  'Length',
  'Type',
  'N',
  'First',
  'Width',
  'Height',
  'Encrypt',
  'ID',
]);
const TRAILER_KEYS = new Set(['Encrypt', 'ID']);
const MAX_FILTERS = 32;
/** Ways to decode one stream (chains × decryptions × object numbers) where the file is ambiguous. */
const MAX_VARIANTS = 16;
const MAX_REF_DEPTH = 16;
/** Decoded object streams kept to look objects up in, in all. */
const OBJSTM_KEEP = 16 * 1024 * 1024;

interface Stream {
  /** Where its `stream` keyword is. */
  at: number;
  dataStart: number;
  /** Every object header that leads to it (usually one): its number and the value before `stream`. */
  defs: { num: number; gen: number; dict: Value }[];
}

interface Decoded {
  content: Buffer;
  /** Whether `content` is all of it. */
  whole: boolean;
}

interface ObjectStream extends Decoded {
  first: number;
  members: Map<number, number[]>;
}

const get = (v: Value, key: string): Value[] => (v.k === 'dict' ? (v.entries.get(key) ?? []) : []);

async function check(buf: Buffer, meter: Meter): Promise<void> {
  const budget = new Budget(2 * buf.length + 1024 * 1024);
  const headers = findHeaders(buf);
  meter.add(headers.count * OBJECT_OVERHEAD);
  const doc = new Doc(buf, headers, budget);

  const streams = new Map<number, Stream>();
  for (let h = 0; h < headers.count; h++) {
    let found: ReturnType<Parser['indirect']>;
    try {
      found = new Parser(new Lexer(buf, headers.at[h], budget), 4096, STREAM_KEYS).indirect();
    } catch (e) {
      if (e instanceof SyntaxFailure) continue;
      throw e;
    }
    if (found.streamAt < 0) continue;
    const def = { num: headers.nums[h], gen: headers.gens[h], dict: found.value };
    const known = streams.get(found.streamAt);
    if (known) known.defs.push(def);
    else {
      streams.set(found.streamAt, { at: found.streamAt, dataStart: found.dataStart, defs: [def] });
      meter.add(STREAM_OVERHEAD);
    }
  }
  refuseOrphans(buf, streams);

  const all = [...streams.values()];
  const typed = (s: Stream, type: string) =>
    s.defs.some((d) =>
      get(d.dict, 'Type').some((t) => doc.resolveSoft(t).some((x) => x.k === 'name' && x.v === type)),
    );
  doc.decryptions = decryptions(
    doc,
    all.filter((s) => typed(s, 'XRef')),
  );
  // Object streams first: the objects in them may be what other streams' filters and lengths are.
  const objectStreams = all.filter((s) => typed(s, 'ObjStm'));
  for (const s of objectStreams) {
    for (const decoded of await decodeStream(doc, s, meter, true)) doc.addObjectStream(s, decoded);
  }
  for (const s of all) if (!objectStreams.includes(s)) await decodeStream(doc, s, meter, false);
}

/** A `stream` keyword right after a dictionary (`>> stream`) that no object header leads to. */
function refuseOrphans(buf: Buffer, streams: Map<number, Stream>) {
  const word = Buffer.from('stream', 'latin1');
  for (let i = buf.indexOf(word); i >= 0; i = buf.indexOf(word, i + word.length)) {
    if ((i > 0 && isRegular(buf[i - 1])) || (i + 6 < buf.length && isRegular(buf[i + 6]))) continue;
    if (streams.has(i)) continue;
    const p = skipBack(buf, i - 1);
    if (p >= 1 && buf[p] === 0x3e && buf[p - 1] === 0x3e) {
      throw new Uncheckable('a stream follows a dictionary that belongs to no readable object');
    }
  }
}

/**
 * How the file's streams are decrypted with an empty password (none when it is not encrypted, or
 * when the empty password does not open it): from every trailer and cross-reference stream.
 */
function decryptions(doc: Doc, xrefStreams: Stream[]): Decryption[] {
  const trailers: Value[] = xrefStreams.flatMap((s) => s.defs.map((d) => d.dict));
  const word = Buffer.from('trailer', 'latin1');
  const buf = doc.buf;
  for (let i = buf.indexOf(word); i >= 0; i = buf.indexOf(word, i + word.length)) {
    if ((i > 0 && isRegular(buf[i - 1])) || (i + 7 < buf.length && isRegular(buf[i + 7]))) continue;
    const lx = new Lexer(buf, i + word.length, doc.budget);
    try {
      if (lx.next() === Tok.OPEN_DICT) trailers.push(new Parser(lx, 4096, TRAILER_KEYS).dict(1, true));
    } catch (e) {
      if (!(e instanceof SyntaxFailure)) throw e;
    }
  }
  const found = new Map<string, Decryption>();
  for (const trailer of trailers) {
    for (const encrypt of get(trailer, 'Encrypt').flatMap((v) => doc.resolveSoft(v))) {
      const ids = get(trailer, 'ID')
        .flatMap((v) => doc.resolveSoft(v))
        .flatMap((v) => (v.k === 'array' && v.items[0] ? doc.resolveSoft(v.items[0]) : []))
        .map((v) => (v.k === 'str' ? v.v : Buffer.alloc(0)));
      for (const id of ids.length ? ids : [Buffer.alloc(0)]) {
        const d = Decryption.open(encrypt, id, (v) => doc.resolveSoft(v)[0] ?? NULL);
        if (d) found.set(d.key.toString('hex'), d);
      }
    }
  }
  return [...found.values()];
}

/**
 * Decodes one stream in each of the ways the file allows (usually one), counting; with `keep`,
 * returns what each decoded to (as much as fits the object streams' allowance).
 */
async function decodeStream(doc: Doc, s: Stream, meter: Meter, keep: boolean): Promise<Decoded[]> {
  if (s.defs.some(({ dict: d }) => d.k === 'skipped' || (d.k === 'dict' && d.cut))) {
    throw new Uncheckable('a stream dictionary too large to read');
  }
  const end = doc.streamEnd(s);
  const image = s.defs.every(({ dict }) => get(dict, 'Width').length > 0 && get(dict, 'Height').length > 0);
  const xref = s.defs.some(({ dict }) =>
    get(dict, 'Type').some((t) => doc.resolveSoft(t).some((x) => x.k === 'name' && x.v === 'XRef')),
  );
  const variants: { chain: Filter[]; num: number; gen: number; decryption: Decryption | null }[] = [];
  for (const def of s.defs) {
    for (const chain of doc.chains(def.dict)) {
      if (!image && chain.some((f) => f.kind === 'image')) {
        throw new Uncheckable('an image filter (CCITTFax, JBIG2) on a stream that is not an image');
      }
      // Cross-reference streams are never encrypted.
      const ways = xref || !doc.decryptions.length ? [null] : doc.decryptions;
      for (const decryption of ways) variants.push({ chain, num: def.num, gen: def.gen, decryption });
    }
  }
  const distinct = new Map(
    variants.map((v) => [JSON.stringify([v.chain, v.num, v.gen, v.decryption?.key]), v]),
  );
  if (distinct.size > MAX_VARIANTS) throw new Uncheckable('too many possible ways to decode one stream');
  const kept: Decoded[] = [];
  for (const { chain, num, gen, decryption } of distinct.values()) {
    let src: Chunks = counted(bytesOf(doc.buf, s.dataStart, end), meter);
    // As MuPDF: the document's stream decryption first, unless the chain names a crypt filter.
    if (decryption && !chain.some((f) => f.kind === 'crypt'))
      src = counted(decryption.decrypt(src, num, gen), meter);
    chain.forEach((f, i) => {
      const input = src;
      if (f.kind === 'crypt')
        src = decryption ? decryption.decrypt(input, num, gen, f.name ?? 'Identity') : input;
      else src = decode(f, input, meter, i === chain.length - 1);
      src = counted(src, meter);
    });
    const pieces: Buffer[] = [];
    let size = 0;
    let whole = true;
    for await (const piece of src) {
      if (!keep) continue;
      if (doc.kept + piece.length <= OBJSTM_KEEP) {
        pieces.push(Buffer.from(piece));
        doc.kept += piece.length;
        size += piece.length;
      } else whole = false;
    }
    if (keep) kept.push({ content: Buffer.concat(pieces, size), whole });
  }
  return kept;
}

/** The file's objects, looked up by number (every definition found), and its streams' extents. */
class Doc {
  /** Header indices by object number. */
  private readonly byNum: Uint32Array;
  private readonly values = new Map<number, Value>();
  private readonly objectStreams: ObjectStream[] = [];
  private readonly memberValues = new Map<string, Value>();
  /** Where every `endstream` is. */
  private readonly endstreams: Int32Array;
  /** Bytes of decoded object streams kept. */
  kept = 0;
  decryptions: Decryption[] = [];

  constructor(
    readonly buf: Buffer,
    private readonly headers: ReturnType<typeof findHeaders>,
    readonly budget: Budget,
  ) {
    const order = new Uint32Array(headers.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => headers.nums[a] - headers.nums[b] || a - b);
    this.byNum = order;
    let ends = new Int32Array(256);
    let n = 0;
    const word = Buffer.from('endstream', 'latin1');
    for (let i = buf.indexOf(word); i >= 0; i = buf.indexOf(word, i + word.length)) {
      if (n === ends.length) {
        const more = new Int32Array(n * 2);
        more.set(ends);
        ends = more;
      }
      ends[n++] = i;
    }
    this.endstreams = ends.subarray(0, n);
  }

  /** Every value the file gives object `num` (as a plain object or inside an object stream). */
  lookup(num: number): Value[] {
    const found: Value[] = [];
    const { nums } = this.headers;
    let lo = 0;
    let hi = this.byNum.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (nums[this.byNum[mid]] < num) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.byNum.length && nums[this.byNum[i]] === num; i++)
      found.push(this.valueAt(this.byNum[i]));
    this.objectStreams.forEach((os, index) => {
      for (const offset of os.members.get(num) ?? []) found.push(this.memberAt(os, index, num, offset));
    });
    return found;
  }

  private valueAt(h: number): Value {
    let v = this.values.get(h);
    if (v) return v;
    try {
      v = new Parser(new Lexer(this.buf, this.headers.at[h], this.budget)).indirect().value;
    } catch (e) {
      // An object MuPDF cannot parse resolves to null there too.
      if (!(e instanceof SyntaxFailure)) throw e;
      v = NULL;
    }
    this.values.set(h, v);
    return v;
  }

  private memberAt(os: ObjectStream, index: number, num: number, offset: number): Value {
    const key = `${index}:${num}:${offset}`;
    let v = this.memberValues.get(key);
    if (v) return v;
    const at = os.first + offset;
    if (at >= os.content.length && !os.whole) {
      throw new Uncheckable('an object is in an object stream too large to look into');
    }
    try {
      v = new Parser(new Lexer(os.content, at, this.budget)).member();
    } catch (e) {
      if (!(e instanceof SyntaxFailure)) throw e;
      v = NULL;
    }
    this.memberValues.set(key, v);
    return v;
  }

  addObjectStream(s: Stream, { content, whole }: Decoded) {
    const ints = (key: string) =>
      s.defs
        .flatMap((d) => get(d.dict, key).flatMap((v) => this.resolveSoft(v)))
        .map((v) => (v.k === 'int' ? v.v : 0));
    const n = Math.min(Math.max(0, ...ints('N')), 1_000_000);
    const first = Math.max(0, ...ints('First'));
    const members = new Map<number, number[]>();
    // Reading the member table and the members costs what the content holds.
    this.budget.left += content.length;
    const lx = new Lexer(content, 0, this.budget, Math.min(first, content.length));
    for (let i = 0; i < n; i++) {
      if (lx.next() !== Tok.INT) break;
      const num = lx.num;
      if (lx.next() !== Tok.INT) break;
      const list = members.get(num);
      if (list) list.push(lx.num);
      else members.set(num, [lx.num]);
    }
    this.objectStreams.push({ content, whole, first, members });
  }

  /** Resolves indirect references: every value the file gives (empty if the object is missing). */
  resolveSoft(v: Value, depth = 0): Value[] {
    if (v.k !== 'ref') return [v];
    if (depth >= MAX_REF_DEPTH) throw new Uncheckable('a chain of indirect references too long');
    return this.lookup(v.num).flatMap((x) => this.resolveSoft(x, depth + 1));
  }

  /** As resolveSoft, but an object that is nowhere in the file cannot be checked. */
  resolve(v: Value, what: string): Value[] {
    const all = this.resolveSoft(v);
    if (!all.length) throw new Uncheckable(`a stream's /${what} refers to an object that is not in the file`);
    return all;
  }

  /**
   * Where the stream's data ends for MuPDF: the first `endstream` at or after /Length bytes (0 when
   * missing or not a number), or the end of the file; the longest where /Length has several values.
   */
  streamEnd(s: Stream): number {
    let end = s.dataStart;
    for (const { dict } of s.defs) {
      const given = get(dict, 'Length');
      const lengths = given.length ? given.flatMap((v) => this.resolve(v, 'Length')) : [NULL];
      for (const l of lengths) {
        const n = l.k === 'int' || l.k === 'real' ? Math.max(0, Math.trunc(l.v)) : 0;
        end = Math.max(end, this.endstreamFrom(s.dataStart + n));
      }
    }
    return end;
  }

  private endstreamFrom(p: number): number {
    if (p >= this.buf.length) return this.buf.length;
    const ends = this.endstreams;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid] < p) lo = mid + 1;
      else hi = mid;
    }
    return lo < ends.length ? ends[lo] : this.buf.length;
  }

  /** The filter chains a stream dictionary may mean (one, unless the file gives several answers). */
  chains(dict: Value): Filter[][] {
    const chains: Filter[][] = [];
    const add = (more: Filter[][]) => {
      chains.push(...more);
      if (chains.length > MAX_VARIANTS) throw new Uncheckable('too many possible ways to decode one stream');
    };
    const filters = [...get(dict, 'Filter'), ...get(dict, 'F')];
    const parms = [...get(dict, 'DecodeParms'), ...get(dict, 'DP')];
    if (!filters.length) add([[]]);
    for (const given of filters) {
      for (const f of this.resolve(given, 'Filter')) {
        if (f.k === 'name') add(this.stages(f.v, parms, -1).map((stage) => [stage]));
        else if (f.k === 'array') {
          if (f.cut || f.items.length > MAX_FILTERS)
            throw new Uncheckable('more than 32 filters on one stream');
          let partial: Filter[][] = [[]];
          f.items.forEach((item, i) => {
            const names = new Set(this.resolve(item, 'Filter').map((x) => (x.k === 'name' ? x.v : '')));
            const options = [...names].flatMap((name) => this.stages(name, parms, i));
            partial = partial.flatMap((p) => options.map((o) => [...p, o]));
            if (partial.length > MAX_VARIANTS)
              throw new Uncheckable('too many possible ways to decode one stream');
          });
          add(partial);
        } else add([[]]);
      }
    }
    const seen = new Set<string>();
    return chains.filter((c) => {
      const key = JSON.stringify(c);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /**
   * Filter `name` at `index` of the chain (-1: the only filter) with each parameter its DecodeParms
   * may give it, as MuPDF reads them: LZW's EarlyChange (1 when missing, 0 when not a number) and
   * Crypt's Name.
   */
  private stages(name: string, parms: Value[], index: number): Filter[] {
    const kind = filterOf(name).kind;
    if (kind !== 'lzw' && kind !== 'crypt') return [filterOf(name)];
    const dicts: Value[] = [];
    for (const given of parms) {
      for (const p of this.resolve(given, 'DecodeParms')) {
        if (index < 0) dicts.push(p);
        else if (p.k === 'array' && p.items[index])
          dicts.push(...this.resolve(p.items[index], 'DecodeParms'));
        else dicts.push(NULL);
      }
    }
    if (!dicts.length) dicts.push(NULL);
    const found = new Map<string, Filter>();
    for (const dict of dicts) {
      if (kind === 'lzw') {
        const ec = get(dict, 'EarlyChange').flatMap((x) => this.resolve(x, 'DecodeParms'));
        const values = ec.length
          ? ec.map((v) => (v.k === 'int' || v.k === 'real' ? Math.trunc(v.v) : 0))
          : [1];
        for (const v of values) found.set(`lzw${v}`, filterOf(name, v));
      } else {
        const names = get(dict, 'Name').flatMap((x) => this.resolve(x, 'DecodeParms'));
        if (!names.some((v) => v.k === 'name')) found.set('crypt', filterOf(name));
        for (const v of names) if (v.k === 'name') found.set(`crypt/${v.v}`, filterOf(name, 1, v.v));
      }
    }
    return [...found.values()];
  }
}
