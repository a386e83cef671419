/**
 * Reads the one XML document of a Finvoice file as a stream of elements, safely and strictly: a
 * hand-written XML 1.0 well-formedness scanner over the bytes themselves (docs/decisions/0020-finvoice.md
 * says why not saxes: about three times slower here, measured). No DTD processing, no entities but
 * the five predefined ones and character references, nothing fetched, a depth limit, a size limit; only
 * the texts the caller asks for are decoded, so the file is never held twice.
 *
 * A delivered file may carry a transport envelope (a SOAP `Envelope`, a complete XML document of its
 * own) before the Finvoice document: the document read is the one from the last XML declaration
 * before the `<Finvoice` root (the envelope itself is not read). Its charset is the one that
 * declaration names (UTF-8 when none): UTF-8, ISO-8859-15, ISO-8859-1 or windows-1252; others are
 * refused. Invalid UTF-8 is not well-formed.
 */
import { isUtf8 } from 'node:buffer';
import { XmlReadError } from '../errors.js';

/** Larger files are refused before reading (the upload limit, 20 MB, is below it). */
export const MAX_XML_BYTES = 32 * 1024 * 1024;
/** Deeper element nesting is refused (a Finvoice document is at most about 8 levels deep). */
export const MAX_XML_DEPTH = 32;
/** Texts this short (in bytes) are kept once each (Scanner.shortText), at most MAX_SHORT_TEXTS of them. */
const SHORT_TEXT = 64;
const MAX_SHORT_TEXTS = 16384;
/** More attributes on one element are refused. */
const MAX_ATTRIBUTES = 64;

export interface XmlHandler {
  /** An element starts; `depth` 1 is the root. Its attributes: `reader.attribute(name)`. */
  open(name: string, depth: number, reader: XmlReader): void;
  /** An element ends; its text (when it has no child elements): `reader.text()`. */
  close(name: string, depth: number, reader: XmlReader): void;
}

export interface XmlReader {
  /** The decoded value of an attribute of the element being opened; undefined when absent. */
  attribute(name: string): string | undefined;
  /** The decoded text of the element being closed (CDATA included); '' when it has child elements. */
  text(): string;
}

type Charset = 'utf-8' | 'iso-8859-15' | 'iso-8859-1' | 'windows-1252';

const CHARSETS: Record<string, Charset> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'iso-8859-15': 'iso-8859-15',
  'iso8859-15': 'iso-8859-15',
  iso_8859_15: 'iso-8859-15',
  'iso_8859-15': 'iso-8859-15',
  'latin-9': 'iso-8859-15',
  latin9: 'iso-8859-15',
  'iso-8859-1': 'iso-8859-1',
  'iso8859-1': 'iso-8859-1',
  'iso_8859-1': 'iso-8859-1',
  latin1: 'iso-8859-1',
  'latin-1': 'iso-8859-1',
  l1: 'iso-8859-1',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
};

/** ISO-8859-15's eight differences from ISO-8859-1. */
const ISO_8859_15: Record<string, string> = {
  '\u00a4': '\u20ac',
  '\u00a6': '\u0160',
  '\u00a8': '\u0161',
  '\u00b4': '\u017d',
  '\u00b8': '\u017e',
  '\u00bc': '\u0152',
  '\u00bd': '\u0153',
  '\u00be': '\u0178',
};
const ISO_8859_15_DIFF = /[\u00a4\u00a6\u00a8\u00b4\u00b8\u00bc\u00bd\u00be]/g;
const C1 = /[\u0080-\u009f]/;
let cp1252: TextDecoder | undefined;

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };
const REFERENCE = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g;

/** XML 1.0 (5th edition) names, for the rare name with a non-ASCII character. */
const NAME =
  // eslint-disable-next-line no-misleading-character-class -- the XML name production's ranges, not text
  /^[:A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\u{10000}-\u{effff}][:A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\u{10000}-\u{effff}\-.0-9\u00b7\u0300-\u036f\u203f-\u2040]*$/u;

// byte classes
const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const BANG = 0x21;
const EQ = 0x3d;
const QUOT = 0x22;
const APOS = 0x27;
const RSQB = 0x5d;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x09 || b === 0x0d;
}
function isNameStart(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || b === 0x5f || b === 0x3a || b >= 0x80;
}
function isNameChar(b: number): boolean {
  return isNameStart(b) || (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2e;
}
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The UTF-8 byte order mark's length at `bytes`' start (0 when none). */
export function bomLength(bytes: Uint8Array): number {
  return UTF8_BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
}

/** Where the document whose root is `rootName` starts (or the file's first document when none). */
function locate(buf: Buffer, rootName: string): number {
  const bom = bomLength(buf);
  if (
    (buf[0] === 0xfe && buf[1] === 0xff) ||
    (buf[0] === 0xff && buf[1] === 0xfe) ||
    (buf[0] === LT && buf[1] === 0)
  ) {
    throw new XmlReadError(
      'xml_unsupported_charset',
      'unsupported charset: the file is UTF-16 (Finvoice files are UTF-8 or ISO-8859-15)',
    );
  }
  const root = rootAt(buf, rootName, bom);
  if (root < 0) return bom;
  // the last `<?xml` declaration before the root (`<?xml-stylesheet …?>` is not one)
  for (let at = buf.lastIndexOf('<?xml', root, 'latin1'); at >= bom;) {
    if (isSpace(buf[at + 5])) return at;
    at = at > 0 ? buf.lastIndexOf('<?xml', at - 1, 'latin1') : -1;
  }
  return bom;
}

class Scanner implements XmlReader {
  private readonly buf: Buffer;
  private readonly end: number;
  private pos: number;
  private charset: Charset = 'utf-8';
  private declared: string | null = null;
  // the element stack: name, name bytes, whether it has child elements, text pieces (CDATA, comments)
  private readonly names: string[] = [];
  private readonly nameStarts: number[] = [];
  private readonly nameEnds: number[] = [];
  private tagNameEnd = 0;
  private nameHash = 0;
  private readonly nameCache = new Map<number, string>();
  private readonly textCache = new Map<number, { text: string; at: number; length: number }>();
  private readonly hasChildren: boolean[] = [];
  private readonly pieces: (string[] | null)[] = [];
  private readonly segStarts: number[] = [];
  // the current tag's attributes: [nameStart, nameEnd, valueStart, valueEnd, …]
  private readonly attrs: number[] = [];
  private attrCount = 0;
  private textFrom = 0;
  private textTo = 0;
  private textPieces: string[] | null = null;
  private textChildren = false;

  constructor(
    buf: Buffer,
    start: number,
    private readonly rootName: string,
  ) {
    this.buf = buf;
    this.end = buf.length;
    this.pos = start;
  }

  // ---- errors

  private fail(reason: string, at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    for (let i = this.buf.indexOf(0x0a, 0); i >= 0 && i < at; i = this.buf.indexOf(0x0a, i + 1)) {
      line++;
      lineStart = i + 1;
    }
    throw new XmlReadError(
      'xml_not_well_formed',
      `not well-formed XML: ${reason} (line ${line}, column ${at - lineStart + 1})`,
    );
  }

  private expect(b: number, what: string): void {
    if (this.buf[this.pos] !== b)
      this.fail(this.pos >= this.end ? `the file ends where ${what} is expected` : `${what} expected`);
    this.pos++;
  }

  private startsWith(text: string, at = this.pos): boolean {
    for (let i = 0; i < text.length; i++) if (this.buf[at + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  private skipSpace(): boolean {
    const start = this.pos;
    while (this.pos < this.end && isSpace(this.buf[this.pos])) this.pos++;
    return this.pos > start;
  }

  // ---- decoding

  private decode(from: number, to: number): string {
    if (this.charset === 'utf-8') return this.buf.toString('utf8', from, to);
    const s = this.buf.toString('latin1', from, to);
    if (this.charset === 'iso-8859-15') return s.replace(ISO_8859_15_DIFF, (c) => ISO_8859_15[c]);
    if (this.charset === 'windows-1252' && C1.test(s)) {
      cp1252 ??= new TextDecoder('windows-1252');
      return cp1252.decode(this.buf.subarray(from, to));
    }
    return s;
  }

  /** Decoded character data with its references resolved (they were checked by the scan). */
  private decodeText(from: number, to: number): string {
    const s = this.decode(from, to);
    if (!s.includes('&')) return s;
    return s.replace(REFERENCE, (_, ref: string) =>
      ref[0] === '#'
        ? String.fromCodePoint(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10))
        : PREDEFINED[ref],
    );
  }

  // ---- the reader API

  attribute(name: string): string | undefined {
    const attrs = this.attrs;
    for (let k = 0; k < this.attrCount * 4; k += 4) {
      const ns = attrs[k];
      if (attrs[k + 1] - ns === name.length && this.startsWith(name, ns)) {
        const short = this.shortText(attrs[k + 2], attrs[k + 3]);
        if (short !== null) return short;
        const value = this.decodeText(attrs[k + 2], attrs[k + 3]);
        return /[\t\n\r]/.test(value) ? value.replace(/[\t\n\r]/g, ' ') : value;
      }
    }
    return undefined;
  }

  text(): string {
    if (this.textChildren) return '';
    if (this.textPieces === null) {
      return this.shortText(this.textFrom, this.textTo) ?? this.decodeText(this.textFrom, this.textTo);
    }
    return this.textPieces.join('') + this.decodeText(this.textFrom, this.textTo);
  }

  /**
   * A short text without references — an amount, a date, a rate, a unit, an article name, a
   * subscription's free text, repeated row after row — as one string per distinct text, from a cache
   * by its bytes' hash; null for a longer text or one with a reference or a control character. Fewer
   * strings to decode, make and collect, and later lookups by them find their hash computed.
   */
  private shortText(from: number, to: number): string | null {
    const length = to - from;
    if (length > SHORT_TEXT) return null;
    const buf = this.buf;
    let hash = length;
    for (let i = from; i < to; i++) {
      const b = buf[i];
      if (b < 0x20 || b === AMP) return null;
      hash = (hash * 31 + b) | 0;
    }
    const known = this.textCache.get(hash);
    if (known !== undefined && known.length === length && this.sameRange(known.at, from, length)) {
      return known.text;
    }
    const text = this.decode(from, to);
    if (this.textCache.size < MAX_SHORT_TEXTS) this.textCache.set(hash, { text, at: from, length });
    return text;
  }

  // ---- scanning

  /** A name at pos: its end; non-ASCII names are checked against XML's name production. */
  private name(what: string): number {
    const start = this.pos;
    if (this.pos >= this.end || !isNameStart(this.buf[this.pos])) this.fail(`${what} expected`);
    let ascii = this.buf[this.pos] < 0x80;
    let hash = this.buf[this.pos];
    this.pos++;
    while (this.pos < this.end && isNameChar(this.buf[this.pos])) {
      const b = this.buf[this.pos];
      if (b >= 0x80) ascii = false;
      hash = (hash * 31 + b) | 0;
      this.pos++;
    }
    if (!ascii && !NAME.test(this.decode(start, this.pos))) this.fail(`invalid ${what}`, start);
    this.nameHash = ascii ? hash : 0;
    return this.pos;
  }

  /** The element name at [from, to) as a string, from a cache of the names seen (ASCII names). */
  private nameString(from: number, to: number): string {
    if (this.nameHash === 0) return this.decode(from, to);
    const known = this.nameCache.get(this.nameHash);
    if (known !== undefined && known.length === to - from && this.sameBytes(known, from)) return known;
    const name = this.buf.toString('latin1', from, to);
    this.nameCache.set(this.nameHash, name);
    return name;
  }

  private sameBytes(text: string, at: number): boolean {
    for (let i = 0; i < text.length; i++) if (this.buf[at + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  private sameRange(a: number, b: number, length: number): boolean {
    for (let i = 0; i < length; i++) if (this.buf[a + i] !== this.buf[b + i]) return false;
    return true;
  }

  /** Character data from pos up to the next `<` (or the end): checks characters and references. */
  private charData(inContent: boolean): void {
    const buf = this.buf;
    const end = this.end;
    let i = this.pos;
    for (; i < end; i++) {
      const b = buf[i];
      if (b >= 0x20) {
        if (b === LT) break;
        if (b === AMP) {
          this.pos = i;
          this.reference();
          i = this.pos - 1;
        } else if (b === GT && buf[i - 1] === RSQB && buf[i - 2] === RSQB) {
          this.fail('"]]>" in character data', i - 2);
        }
      } else if (b !== 0x0a && b !== 0x09 && b !== 0x0d) {
        this.fail(`character 0x${b.toString(16).padStart(2, '0')} is not allowed in XML`, i);
      } else continue;
      if (!inContent && !isSpace(b)) this.fail('text outside the root element', i);
    }
    this.pos = i;
  }

  /** `&name;` (only the five predefined) or `&#…;` / `&#x…;` (an XML character). */
  private reference(): void {
    const start = this.pos;
    const semi = this.buf.indexOf(0x3b, start);
    if (semi < 0 || semi - start > 12) this.fail('"&" that does not start a reference (write &amp;)', start);
    const ref = this.buf.toString('latin1', start + 1, semi);
    if (ref[0] === '#') {
      const m = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(ref);
      const cp = m ? (m[1] ? parseInt(m[1], 16) : parseInt(m[2], 10)) : -1;
      if (!isXmlChar(cp)) this.fail(`invalid character reference &${ref};`, start);
    } else if (!(ref in PREDEFINED)) {
      this.fail(
        /^[A-Za-z_:][\w.:-]*$/.test(ref)
          ? `undefined entity &${ref}; (only &lt; &gt; &amp; &apos; &quot; are accepted)`
          : '"&" that does not start a reference (write &amp;)',
        start,
      );
    }
    this.pos = semi + 1;
  }

  /** A run of characters up to `terminator`; checks them; returns the terminator's position. */
  private until(terminator: string, what: string): number {
    const at = this.buf.indexOf(terminator, this.pos, 'latin1');
    if (at < 0) this.fail(`${what} is not closed (the file ends)`);
    for (let i = this.pos; i < at; i++) {
      const b = this.buf[i];
      if (b < 0x20 && b !== 0x0a && b !== 0x09 && b !== 0x0d) {
        this.fail(`character 0x${b.toString(16).padStart(2, '0')} is not allowed in XML`, i);
      }
    }
    return at;
  }

  private comment(): void {
    this.pos += 4; // <!--
    const close = this.until('--', 'a comment');
    if (this.buf[close + 2] !== GT) this.fail('"--" inside a comment', close);
    this.pos = close + 3;
  }

  private pi(): void {
    this.pos += 2; // <?
    const start = this.pos;
    this.name('a processing instruction target');
    if (this.pos - start === 3 && this.buf.toString('latin1', start, this.pos).toLowerCase() === 'xml') {
      this.fail('an XML declaration must be at the start of the document', start - 2);
    }
    if (!this.startsWith('?>')) {
      if (!this.skipSpace()) this.fail('space expected after the processing instruction target');
    }
    this.pos = this.until('?>', 'a processing instruction') + 2;
  }

  private xmlDeclaration(): void {
    const close = this.buf.indexOf('?>', this.pos, 'latin1');
    if (close < 0 || close - this.pos > 256) this.fail('the XML declaration is not closed');
    const decl = this.buf.toString('latin1', this.pos, close + 2);
    const m =
      /^<\?xml\s+version\s*=\s*(["'])1\.[0-9]+\1(?:\s+encoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._-]*)\2)?(?:\s+standalone\s*=\s*(["'])(?:yes|no)\4)?\s*\?>$/.exec(
        decl,
      );
    if (!m) this.fail('malformed XML declaration');
    this.declared = m[3] ?? null;
    this.pos = close + 2;
  }

  /** `<!DOCTYPE name [ExternalID]>`: ignored (never fetched); an internal subset is refused. */
  private doctype(): void {
    this.pos += 9; // <!DOCTYPE
    if (!this.skipSpace()) this.fail('space expected after <!DOCTYPE');
    this.name('the DOCTYPE name');
    let quote = 0;
    for (; this.pos < this.end; this.pos++) {
      const b = this.buf[this.pos];
      if (quote) {
        if (b === quote) quote = 0;
      } else if (b === QUOT || b === APOS) quote = b;
      else if (b === 0x5b /* [ */) {
        throw new XmlReadError(
          'xml_doctype_refused',
          'the XML file declares a DOCTYPE with an internal subset (entity or DTD declarations), which is refused',
        );
      } else if (b === GT) {
        this.pos++;
        return;
      }
    }
    this.fail('the DOCTYPE declaration is not closed (the file ends)');
  }

  /** Comments, PIs and white space before or after the root; `prolog` allows one DOCTYPE. */
  private misc(prolog: boolean): void {
    let sawDoctype = false;
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.end) return;
      if (this.buf[this.pos] !== LT) {
        this.charData(false);
        continue;
      }
      if (this.startsWith('<!--')) this.comment();
      else if (this.buf[this.pos + 1] === QUESTION) this.pi();
      else if (prolog && this.startsWith('<!DOCTYPE')) {
        if (sawDoctype) this.fail('a second DOCTYPE declaration');
        sawDoctype = true;
        this.doctype();
      } else return;
    }
  }

  /** `<name attr="value" …>` or `/>`: returns whether it was empty (self-closing). */
  private startTag(): boolean {
    this.pos++; // <
    this.attrCount = 0;
    this.tagNameEnd = this.name('an element name');
    for (;;) {
      const spaced = this.skipSpace();
      const b = this.buf[this.pos];
      if (b === GT) {
        this.pos++;
        return false;
      }
      if (b === SLASH) {
        this.pos++;
        this.expect(GT, '">" after "/"');
        return true;
      }
      if (this.pos >= this.end) this.fail('the file ends inside a start tag');
      if (!spaced) this.fail('space expected between attributes');
      const ns = this.pos;
      const ne = this.name('an attribute name');
      this.skipSpace();
      this.expect(EQ, '"=" after the attribute name');
      this.skipSpace();
      const quote = this.buf[this.pos];
      if (quote !== QUOT && quote !== APOS) this.fail('a quoted attribute value expected');
      const vs = ++this.pos;
      for (;;) {
        const c = this.buf[this.pos];
        if (c === quote) break;
        if (this.pos >= this.end) this.fail('the file ends inside an attribute value');
        if (c === LT) this.fail('"<" in an attribute value');
        if (c === AMP) {
          this.reference();
          continue;
        }
        if (c < 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) {
          this.fail(`character 0x${c.toString(16).padStart(2, '0')} is not allowed in XML`);
        }
        this.pos++;
      }
      const ve = this.pos++;
      for (let i = 0; i < this.attrCount; i++) {
        const os = this.attrs[i * 4];
        const oe = this.attrs[i * 4 + 1];
        if (oe - os === ne - ns && this.sameRange(ns, os, ne - ns)) {
          this.fail(`duplicate attribute "${this.decode(ns, ne)}"`, ns);
        }
      }
      if (this.attrCount >= MAX_ATTRIBUTES)
        this.fail(`more than ${MAX_ATTRIBUTES} attributes on one element`, ns);
      const k = this.attrCount++ * 4;
      this.attrs[k] = ns;
      this.attrs[k + 1] = ne;
      this.attrs[k + 2] = vs;
      this.attrs[k + 3] = ve;
    }
  }

  /** Reads the document and reports its elements. */
  run(handler: XmlHandler): void {
    const buf = this.buf;
    if (this.startsWith('<?xml') && isSpace(buf[this.pos + 5])) this.xmlDeclaration();
    const label = (this.declared ?? 'utf-8').toLowerCase();
    const charset = CHARSETS[label];
    if (!charset) {
      throw new XmlReadError(
        'xml_unsupported_charset',
        `unsupported charset "${this.declared}" (Kulu reads UTF-8, ISO-8859-15, ISO-8859-1 and windows-1252)`,
      );
    }
    this.charset = charset;
    // A byte order mark or bytes that say UTF-8 while the declaration names a single-byte charset:
    // read as declared, every ä would come out as Ã¤, so the file is refused, not guessed.
    if (charset !== 'utf-8' && bomLength(buf) > 0) {
      throw new XmlReadError(
        'xml_charset_mismatch',
        `the file starts with a UTF-8 byte order mark but declares the charset "${this.declared}"`,
      );
    }
    if (charset !== 'utf-8' && hasMultibyteUtf8(buf, this.pos, this.end)) {
      throw new XmlReadError(
        'xml_charset_mismatch',
        `the file declares the charset "${this.declared}" but its bytes are UTF-8 (its non-ASCII ` +
          'characters would be read wrong)',
      );
    }
    if (charset === 'utf-8' && !isUtf8(buf.subarray(this.pos, this.end))) {
      this.fail(
        `the file is not valid UTF-8${this.declared ? '' : ' (no encoding is declared, so it must be UTF-8)'}` +
          ' (is the declared encoding right?)',
        firstInvalidUtf8(buf, this.pos, this.end),
      );
    }
    this.misc(true);
    if (this.pos >= this.end) this.fail('the file has no root element');
    if (buf[this.pos + 1] === BANG || buf[this.pos + 1] === SLASH) this.fail('a root element expected');

    const names = this.names;
    let depth = 0;
    for (;;) {
      // at "<" of a start tag
      const nameStart = this.pos + 1;
      const empty = this.startTag();
      const nameEnd = this.tagNameEnd;
      const name = this.nameString(nameStart, nameEnd);
      depth++;
      if (depth > MAX_XML_DEPTH) {
        throw new XmlReadError(
          'xml_too_deep',
          `the XML elements are nested more than ${MAX_XML_DEPTH} levels deep`,
        );
      }
      if (depth > 1) this.hasChildren[depth - 2] = true;
      handler.open(name, depth, this);
      if (empty) {
        this.textFrom = this.textTo = this.pos;
        this.textPieces = null;
        this.textChildren = false;
        handler.close(name, depth, this);
        depth--;
      } else {
        names[depth - 1] = name;
        this.nameStarts[depth - 1] = nameStart;
        this.nameEnds[depth - 1] = nameEnd;
        this.hasChildren[depth - 1] = false;
        this.pieces[depth - 1] = null;
        this.segStarts[depth - 1] = this.pos;
      }
      // content until the next start tag, or until the root closes
      for (;;) {
        if (depth === 0) {
          const rootEnd = this.pos;
          try {
            this.misc(false);
            if (this.pos < this.end) this.fail('content after the root element');
          } catch (e) {
            // Two documents in one file (each in its transport frame, or not): said as such.
            const second = rootAt(buf, this.rootName, rootEnd);
            if (second < 0) throw e;
            throw new XmlReadError(
              'xml_several_documents',
              `the file holds more than one <${this.rootName}> document (another starts on line ` +
                `${lineAt(buf, second)}); Kulu reads one invoice per file`,
            );
          }
          return;
        }
        this.charData(true);
        if (this.pos >= this.end) this.fail(`the file ends before <${names[depth - 1]}> is closed`);
        const next = buf[this.pos + 1];
        if (next === SLASH) {
          // end tag
          const closeAt = this.pos;
          this.pos += 2;
          // the open element's name byte for byte, then no more name: no name to scan nor hash
          const os = this.nameStarts[depth - 1];
          const length = this.nameEnds[depth - 1] - os;
          if (this.sameRange(this.pos, os, length) && !isNameChar(buf[this.pos + length])) {
            this.pos += length;
          } else {
            const ns = this.pos;
            const ne = this.name('an element name');
            this.fail(`</${this.decode(ns, ne)}> does not close <${names[depth - 1]}>`, closeAt);
          }
          this.skipSpace();
          this.expect(GT, '">" at the end of the end tag');
          this.textFrom = this.segStarts[depth - 1];
          this.textTo = closeAt;
          this.textPieces = this.pieces[depth - 1];
          this.textChildren = this.hasChildren[depth - 1];
          handler.close(names[depth - 1], depth, this);
          depth--;
          if (depth > 0) this.segStarts[depth - 1] = this.pos;
          continue;
        }
        if (next === BANG) {
          const at = this.pos;
          if (this.startsWith('<!--')) this.comment();
          else if (this.startsWith('<![CDATA[')) {
            this.pos += 9;
            const close = this.until(']]>', 'a CDATA section');
            this.piece(depth, at, this.decode(at + 9, close));
            this.pos = close + 3;
            this.segStarts[depth - 1] = this.pos;
            continue;
          } else this.fail('"<!" that is neither a comment nor a CDATA section');
          this.piece(depth, at, '');
          this.segStarts[depth - 1] = this.pos;
          continue;
        }
        if (next === QUESTION) {
          const at = this.pos;
          this.pi();
          this.piece(depth, at, '');
          this.segStarts[depth - 1] = this.pos;
          continue;
        }
        break; // a child start tag
      }
    }
  }

  /** Keeps the text before a CDATA section, comment or PI (and the CDATA's own text). */
  private piece(depth: number, at: number, own: string): void {
    if (this.hasChildren[depth - 1]) return;
    const list = (this.pieces[depth - 1] ??= []);
    list.push(this.decodeText(this.segStarts[depth - 1], at), own);
  }
}

/**
 * Whether [from, to) has a byte above ASCII and is valid UTF-8 as a whole: text in a single-byte
 * charset practically never is (an ä there is one byte 0xE4, which UTF-8 must follow with two
 * continuation bytes).
 */
function hasMultibyteUtf8(buf: Buffer, from: number, to: number): boolean {
  let high = -1;
  for (let i = from; i < to; i++) {
    if (buf[i] >= 0x80) {
      high = i;
      break;
    }
  }
  return high >= 0 && isUtf8(buf.subarray(from, to));
}

/** Where a start tag of `rootName` begins at or after `from` (-1 when none). */
function rootAt(buf: Buffer, rootName: string, from: number): number {
  const open = `<${rootName}`;
  for (let at = buf.indexOf(open, from, 'latin1'); at >= 0; at = buf.indexOf(open, at + 1, 'latin1')) {
    const next = buf[at + open.length];
    if (isSpace(next) || next === GT || next === SLASH) return at;
  }
  return -1;
}

/** The 1-based line of the byte at `at`. */
function lineAt(buf: Buffer, at: number): number {
  let line = 1;
  for (let i = buf.indexOf(0x0a, 0); i >= 0 && i < at; i = buf.indexOf(0x0a, i + 1)) line++;
  return line;
}

/** About where the first invalid UTF-8 sequence is (for the message): chunks cut at character starts. */
function firstInvalidUtf8(buf: Buffer, from: number, to: number): number {
  let a = from;
  let z = to;
  for (const step of [65536, 4096, 256, 16, 1]) {
    for (let start = a; start < z;) {
      let stop = Math.min(start + step, z);
      while (stop < z && stop > start + 1 && (buf[stop] & 0xc0) === 0x80) stop--;
      if (!isUtf8(buf.subarray(start, stop))) {
        a = start;
        z = Math.min(to, stop + 4);
        break;
      }
      start = stop;
    }
  }
  return a;
}

/**
 * Reads the document whose root element is `rootName` (or the file's only document) and reports its
 * elements to `handler`. Throws XmlReadError for what is refused (not well-formed, DOCTYPE with an
 * internal subset, unknown charset, too deep, too large); errors the handler throws pass through.
 */
export function readXml(bytes: Uint8Array, rootName: string, handler: XmlHandler): void {
  if (bytes.length > MAX_XML_BYTES) {
    throw new XmlReadError(
      'xml_too_large',
      `the XML file is too large: ${bytes.length} bytes (at most ${MAX_XML_BYTES})`,
    );
  }
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  new Scanner(buf, locate(buf, rootName), rootName).run(handler);
}
