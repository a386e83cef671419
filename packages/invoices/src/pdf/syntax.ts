/**
 * Just enough PDF syntax for the inflate pre-check (inflate-check.ts): a lexer and an object parser
 * that follow MuPDF's (pdf-lex.c, pdf-parse.c) where it matters for which bytes a stream has and which
 * filters decode it, and a scan for `N G obj` headers anywhere in the bytes (the xref table is not
 * trusted: it may lie or be missing). Pure node; nothing here allocates in proportion to what a
 * stream decodes to. Parsed values keep a bounded number of nodes: a huge array or dictionary is
 * read through but only its first entries are kept.
 */

const WHITE = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;
/** Neither white space nor a delimiter: a byte of a name, number or keyword. */
export const isRegular = (c: number) => !WHITE[c] && !DELIM[c];

export type Value =
  | { k: 'int'; v: number }
  | { k: 'real'; v: number }
  | { k: 'name'; v: string }
  | { k: 'str'; v: Buffer }
  | { k: 'bool'; v: boolean }
  | { k: 'null' }
  | { k: 'ref'; num: number; gen: number }
  /** `cut`: more items than were kept. */
  | { k: 'array'; items: Value[]; cut: boolean }
  /** Every value of a key given more than once is kept (a reader keeps one; the check weighs all). */
  | { k: 'dict'; entries: Map<string, Value[]>; cut: boolean }
  /** Read through but not kept (over the node budget). */
  | { k: 'skipped' };

export const NULL: Value = { k: 'null' };
const SKIPPED: Value = { k: 'skipped' };

/** Why a file cannot be checked: the pre-check refuses it rather than guess. */
export class Uncheckable extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What all lexing of one check may read, in bytes (several parses may cross the same bytes). */
export class Budget {
  constructor(public left: number) {}
  spend(n: number) {
    this.left -= n;
    if (this.left < 0) throw new Uncheckable('its objects overlap too much to be read once');
  }
}

export const enum Tok {
  EOF,
  INT,
  REAL,
  NAME,
  STRING,
  OPEN_ARRAY,
  CLOSE_ARRAY,
  OPEN_DICT,
  CLOSE_DICT,
  OPEN_BRACE,
  CLOSE_BRACE,
  KEYWORD,
  /** A lone `>` or other byte no token starts with. */
  ERROR,
}

const MAX_KEPT_STRING = 512;
const MAX_NAME = 256;

/** PDF tokens of `buf` from `pos` (comments and white space skipped), as MuPDF's lexer reads them. */
export class Lexer {
  /** The number of an INT or REAL token, the name of NAME, the keyword of KEYWORD. */
  num = 0;
  text = '';
  /** The bytes of a STRING (at most 512 are kept). */
  bytes: Buffer = Buffer.alloc(0);
  /** Where the last token started. */
  start = 0;

  constructor(
    readonly buf: Buffer,
    public pos: number,
    private readonly budget: Budget,
    readonly end = buf.length,
  ) {}

  next(): Tok {
    const from = this.pos;
    try {
      return this.read();
    } finally {
      this.budget.spend(this.pos - from);
    }
  }

  private read(): Tok {
    const buf = this.buf;
    const end = this.end;
    let p = this.pos;
    for (;;) {
      while (p < end && WHITE[buf[p]]) p++;
      if (p < end && buf[p] === 0x25 /* % */) {
        while (p < end && buf[p] !== 0x0a && buf[p] !== 0x0d) p++;
        continue;
      }
      break;
    }
    this.start = p;
    if (p >= end) {
      this.pos = p;
      return Tok.EOF;
    }
    const c = buf[p++];
    switch (c) {
      case 0x2f /* / */: {
        let name = '';
        while (p < end && isRegular(buf[p])) {
          let b = buf[p++];
          if (b === 0x23 /* # */ && p + 1 < end && isHex(buf[p]) && isHex(buf[p + 1])) {
            b = (unhex(buf[p]) << 4) | unhex(buf[p + 1]);
            p += 2;
          }
          if (name.length < MAX_NAME) name += String.fromCharCode(b);
        }
        this.pos = p;
        this.text = name;
        return Tok.NAME;
      }
      case 0x28 /* ( */: {
        this.pos = this.literal(p);
        return Tok.STRING;
      }
      case 0x3c /* < */: {
        if (buf[p] === 0x3c) {
          this.pos = p + 1;
          return Tok.OPEN_DICT;
        }
        const kept: number[] = [];
        let half = -1;
        while (p < end && buf[p] !== 0x3e /* > */) {
          const h = buf[p++];
          if (!isHex(h)) continue;
          if (half < 0) half = unhex(h);
          else {
            if (kept.length < MAX_KEPT_STRING) kept.push((half << 4) | unhex(h));
            half = -1;
          }
        }
        if (half >= 0 && kept.length < MAX_KEPT_STRING) kept.push(half << 4);
        this.pos = Math.min(end, p + 1);
        this.bytes = Buffer.from(kept);
        return Tok.STRING;
      }
      case 0x3e /* > */:
        if (buf[p] === 0x3e) {
          this.pos = p + 1;
          return Tok.CLOSE_DICT;
        }
        this.pos = p;
        return Tok.ERROR;
      case 0x5b:
        this.pos = p;
        return Tok.OPEN_ARRAY;
      case 0x5d:
        this.pos = p;
        return Tok.CLOSE_ARRAY;
      case 0x7b:
        this.pos = p;
        return Tok.OPEN_BRACE;
      case 0x7d:
        this.pos = p;
        return Tok.CLOSE_BRACE;
      case 0x29 /* ) */:
        this.pos = p;
        return Tok.ERROR;
    }
    if (c === 0x2b || c === 0x2d || c === 0x2e || (c >= 0x30 && c <= 0x39)) return this.number(p - 1);
    let word = String.fromCharCode(c);
    while (p < end && isRegular(buf[p])) {
      if (word.length < MAX_NAME) word += String.fromCharCode(buf[p]);
      p++;
    }
    this.pos = p;
    this.text = word;
    return Tok.KEYWORD;
  }

  /** Signs, digits and at most one point (MuPDF's lex_number); what follows is the next token. */
  private number(p: number): Tok {
    const buf = this.buf;
    let neg = false;
    while (p < this.end && (buf[p] === 0x2b || buf[p] === 0x2d)) {
      if (buf[p] === 0x2d) neg = !neg;
      p++;
    }
    let whole = 0;
    let digits = 0;
    while (p < this.end && buf[p] >= 0x30 && buf[p] <= 0x39) {
      whole = whole * 10 + (buf[p++] - 0x30);
      digits++;
    }
    if (p < this.end && buf[p] === 0x2e) {
      p++;
      let scale = 0.1;
      while (p < this.end && buf[p] >= 0x30 && buf[p] <= 0x39) {
        whole += (buf[p++] - 0x30) * scale;
        scale /= 10;
      }
      this.pos = p;
      this.num = neg ? -whole : whole;
      return Tok.REAL;
    }
    this.pos = p;
    this.num = digits ? (neg ? -whole : whole) : 0;
    return Tok.INT;
  }

  /** A literal string from after its `(`: nested brackets and escapes; returns where it ends. */
  private literal(p: number): number {
    const buf = this.buf;
    const kept: number[] = [];
    const keep = (b: number) => {
      if (kept.length < MAX_KEPT_STRING) kept.push(b);
    };
    let depth = 1;
    while (p < this.end) {
      const c = buf[p++];
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) break;
      if (c !== 0x5c /* \ */) {
        keep(c);
        continue;
      }
      if (p >= this.end) break;
      const e = buf[p++];
      const simple: Record<number, number> = { 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12 };
      if (simple[e] !== undefined) keep(simple[e]);
      else if (e >= 0x30 && e <= 0x37) {
        let v = e - 0x30;
        for (let i = 0; i < 2 && p < this.end && buf[p] >= 0x30 && buf[p] <= 0x37; i++)
          v = v * 8 + (buf[p++] - 0x30);
        keep(v & 0xff);
      } else if (e === 0x0d) {
        if (buf[p] === 0x0a) p++;
      } else if (e !== 0x0a) keep(e);
    }
    this.bytes = Buffer.from(kept);
    return p;
  }
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const unhex = (c: number) => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10);

/** Thrown where MuPDF's parser throws: the object cannot be read at all. */
export class SyntaxFailure extends Error {}

const MAX_DEPTH = 100;
/** PDF_MAX_OBJECT_NUMBER: MuPDF loads no object with a higher number. */
const MAX_OBJECT_NUMBER = 8388607;
const MAX_ITEMS = 64;

/**
 * Parses objects as MuPDF's pdf_parse_array / pdf_parse_dict do (the same tokens consumed, the same
 * failures), keeping at most `nodes` values of what it reads. `only`, when given, limits the keys
 * kept in the outermost dictionary.
 */
export class Parser {
  private nodes: number;
  /** Above 0 while reading a value that is not kept at all. */
  private muted = 0;

  constructor(
    readonly lx: Lexer,
    nodes = 4096,
    private readonly only?: ReadonlySet<string>,
  ) {
    this.nodes = nodes;
  }

  private kept(v: Value): Value {
    if (this.muted > 0 || this.nodes <= 0) return SKIPPED;
    this.nodes--;
    return v;
  }

  /** A simple value from its token; null for tokens that start none. */
  private simple(tok: Tok): Value | null {
    const lx = this.lx;
    switch (tok) {
      case Tok.NAME:
        return this.kept({ k: 'name', v: lx.text });
      case Tok.REAL:
        return this.kept({ k: 'real', v: lx.num });
      case Tok.STRING:
        return this.kept({ k: 'str', v: lx.bytes });
      case Tok.KEYWORD:
        if (lx.text === 'true' || lx.text === 'false') return this.kept({ k: 'bool', v: lx.text === 'true' });
        if (lx.text === 'null') return NULL;
        return null;
    }
    return null;
  }

  array(depth: number): Value {
    if (depth > MAX_DEPTH) throw new SyntaxFailure('nested too deep');
    const lx = this.lx;
    const items: Value[] = [];
    const self = this.kept({ k: 'array', items, cut: false });
    const push = (v: Value) => {
      if (items.length < MAX_ITEMS && v !== SKIPPED) items.push(v);
      else if (self.k === 'array' && this.muted === 0) self.cut = true;
    };
    let a = 0;
    let b = 0;
    let n = 0;
    for (;;) {
      const tok = lx.next();
      if (tok !== Tok.INT && !(tok === Tok.KEYWORD && lx.text === 'R')) {
        if (n > 0) push(this.kept({ k: 'int', v: a }));
        if (n > 1) push(this.kept({ k: 'int', v: b }));
        n = 0;
      }
      if (tok === Tok.INT && n === 2) {
        push(this.kept({ k: 'int', v: a }));
        a = b;
        n--;
      }
      switch (tok) {
        case Tok.EOF:
          throw new SyntaxFailure('array not closed before end of file');
        case Tok.CLOSE_ARRAY:
          return self;
        case Tok.INT:
          if (n === 0) a = lx.num;
          if (n === 1) b = lx.num;
          n++;
          continue;
        case Tok.OPEN_ARRAY:
          push(this.array(depth + 1));
          continue;
        case Tok.OPEN_DICT:
          push(this.dict(depth + 1));
          continue;
      }
      if (tok === Tok.KEYWORD && lx.text === 'R') {
        if (n !== 2) throw new SyntaxFailure('cannot parse indirect reference in array');
        push(this.kept({ k: 'ref', num: a, gen: b }));
        n = 0;
        continue;
      }
      push(this.simple(tok) ?? NULL);
    }
  }

  dict(depth: number, outermost = false): Value {
    if (depth > MAX_DEPTH) throw new SyntaxFailure('nested too deep');
    const lx = this.lx;
    const entries = new Map<string, Value[]>();
    const self = this.kept({ k: 'dict', entries, cut: false });
    const put = (key: string, v: Value) => {
      if (v === SKIPPED || (!entries.has(key) && entries.size >= MAX_ITEMS)) {
        if (this.muted === 0 && self.k === 'dict') self.cut = true;
        return;
      }
      const list = entries.get(key);
      if (list) list.push(v);
      else entries.set(key, [v]);
    };
    let tok = lx.next();
    for (;;) {
      if (tok === Tok.CLOSE_DICT) break;
      if (tok === Tok.KEYWORD && lx.text === 'ID') break;
      if (tok !== Tok.NAME) throw new SyntaxFailure('invalid key in dict');
      const key = lx.text;
      // Keys the caller does not want are read through without keeping their values.
      const mute = outermost && this.only !== undefined && !this.only.has(key);
      if (mute) this.muted++;
      try {
        tok = lx.next();
        let value: Value = NULL;
        if (tok === Tok.OPEN_ARRAY) value = this.array(depth + 1);
        else if (tok === Tok.OPEN_DICT) value = this.dict(depth + 1);
        else if (tok === Tok.INT) {
          const a = lx.num;
          tok = lx.next();
          if (tok === Tok.CLOSE_DICT || tok === Tok.NAME || (tok === Tok.KEYWORD && lx.text === 'ID')) {
            // The next key (or the end) is already read: MuPDF's `goto skip`.
            put(key, this.kept({ k: 'int', v: a }));
            continue;
          }
          if (tok === Tok.INT) {
            const b = lx.num;
            if (lx.next() === Tok.KEYWORD && lx.text === 'R') value = this.kept({ k: 'ref', num: a, gen: b });
          }
        } else value = this.simple(tok) ?? NULL;
        put(key, value);
      } finally {
        if (mute) this.muted--;
      }
      tok = lx.next();
    }
    return self;
  }

  /** One object after its `N G obj` (pdf_parse_ind_obj), and whether a stream follows it. */
  indirect(): { value: Value; streamAt: number; dataStart: number } {
    const lx = this.lx;
    let tok = lx.next();
    let value: Value;
    let readNext = true;
    switch (tok) {
      case Tok.OPEN_ARRAY:
        value = this.array(1);
        break;
      case Tok.OPEN_DICT:
        value = this.dict(1, true);
        break;
      case Tok.INT: {
        const a = lx.num;
        tok = lx.next();
        if (tok === Tok.KEYWORD && (lx.text === 'stream' || lx.text === 'endobj')) {
          value = this.kept({ k: 'int', v: a });
          readNext = false;
          break;
        }
        if (tok === Tok.INT) {
          const b = lx.num;
          if (lx.next() === Tok.KEYWORD && lx.text === 'R') {
            value = this.kept({ k: 'ref', num: a, gen: b });
            break;
          }
        }
        throw new SyntaxFailure('expected R keyword');
      }
      case Tok.KEYWORD:
        if (lx.text === 'endobj') {
          value = NULL;
          readNext = false;
          break;
        }
      // falls through
      default: {
        const simple = this.simple(tok);
        if (!simple) throw new SyntaxFailure('syntax error in object');
        value = simple;
      }
    }
    if (readNext) tok = lx.next();
    if (tok !== Tok.KEYWORD || lx.text !== 'stream') return { value, streamAt: -1, dataStart: -1 };
    // As pdf_parse_ind_obj: spaces, then one byte (the line end), and a LF after a CR.
    const buf = lx.buf;
    let p = lx.pos;
    while (p < lx.end && buf[p] === 0x20) p++;
    const c = buf[p++];
    if (c === 0x0d && buf[p] === 0x0a) p++;
    return { value, streamAt: lx.start, dataStart: Math.min(p, lx.end) };
  }

  /** One object of an object stream (pdf_parse_stm_obj). */
  member(): Value {
    const lx = this.lx;
    const tok = lx.next();
    if (tok === Tok.OPEN_ARRAY) return this.array(1);
    if (tok === Tok.OPEN_DICT) return this.dict(1);
    if (tok === Tok.INT) return this.kept({ k: 'int', v: lx.num });
    const simple = this.simple(tok);
    if (!simple) throw new SyntaxFailure('unknown token in object stream');
    return simple;
  }
}

/**
 * Every `N G obj` header in `buf`, wherever it is (inside other objects' data too: a reader follows
 * an xref offset anywhere), as object numbers and the offsets right after `obj`. White space and
 * comments may separate the three tokens, as a reader's lexer allows.
 */
export function findHeaders(buf: Buffer): {
  nums: Int32Array;
  gens: Int32Array;
  at: Int32Array;
  count: number;
} {
  let nums = new Int32Array(1024);
  let gens = new Int32Array(1024);
  let at = new Int32Array(1024);
  let count = 0;
  const OBJ = Buffer.from('obj', 'latin1');
  for (let i = buf.indexOf(OBJ); i >= 0; i = buf.indexOf(OBJ, i + 3)) {
    if (i + 3 < buf.length && isRegular(buf[i + 3])) continue;
    let p = skipBack(buf, i - 1);
    const genEnd = p;
    let gen = 0;
    for (let scale = 1; p >= 0 && genEnd - p < 10 && buf[p] >= 0x30 && buf[p] <= 0x39; p--, scale *= 10) {
      gen = Math.min(gen + (buf[p] - 0x30) * scale, 0x7fffffff);
    }
    if (p === genEnd) continue;
    const q = skipBack(buf, p);
    if (q === p) continue;
    p = q;
    const numEnd = p;
    let num = 0;
    let scale = 1;
    while (p >= 0 && numEnd - p < 10 && buf[p] >= 0x30 && buf[p] <= 0x39) {
      num += (buf[p] - 0x30) * scale;
      scale *= 10;
      p--;
    }
    if (p === numEnd || num > MAX_OBJECT_NUMBER) continue;
    if (count === nums.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      nums = grow(nums);
      gens = grow(gens);
      at = grow(at);
    }
    nums[count] = num;
    gens[count] = gen;
    at[count] = i + 3;
    count++;
  }
  return { nums, gens, at, count };
}

/**
 * From `p` backwards over white space and over comments that end a line (the part of the line
 * before its first `%`, looked for within 256 bytes); where the scan stopped.
 */
export function skipBack(buf: Buffer, p: number): number {
  for (let lines = 0; p >= 0 && WHITE[buf[p]];) {
    if ((buf[p] === 0x0a || buf[p] === 0x0d) && lines < 8) {
      lines++;
      let s = p - 1;
      while (s >= 0 && p - s <= 256 && buf[s] !== 0x0a && buf[s] !== 0x0d) s--;
      const pct = buf.subarray(s + 1, p).indexOf(0x25);
      if (pct >= 0) {
        p = s + pct;
        continue;
      }
    }
    p--;
  }
  return p;
}
