/**
 * Reads the one XML document of a Finvoice file as a stream of elements, safely: no DTD processing,
 * no entities but the five predefined ones and character references, no fetching, a depth limit, a
 * size limit, and the text decoded chunk by chunk (never a second whole copy of the file).
 *
 * A delivered file may carry a transport envelope (a SOAP `Envelope`, a complete XML document of its
 * own) before the Finvoice document: the document read is the one from the last XML declaration
 * before the `<Finvoice` root (the envelope itself is never parsed). The charset is the one that
 * declaration names.
 */
import { SaxesParser } from 'saxes';
import { XmlReadError } from '../errors.js';

/** Larger files are refused before reading (the upload limit, 20 MB, is below it). */
export const MAX_XML_BYTES = 32 * 1024 * 1024;
/** Deeper element nesting is refused (a Finvoice document is at most about 8 levels deep). */
export const MAX_XML_DEPTH = 32;
/** Longer text of one element is refused (the longest Finvoice text field is 512 characters). */
export const MAX_TEXT_LENGTH = 16 * 1024;
/** The document is decoded and fed to the parser in chunks of this many bytes. */
const CHUNK_BYTES = 256 * 1024;

export interface XmlHandler {
  /** An element starts; `depth` 1 is the root. Attribute values are decoded. */
  open(name: string, attributes: Record<string, string>, depth: number): void;
  /** An element ends; `text` is its own character data (CDATA included), untrimmed. */
  close(name: string, text: string, depth: number): void;
}

interface Located {
  /** Where the document (its XML declaration, or its first markup) starts. */
  start: number;
  /** The declared charset (lower case), or null: none declared (UTF-8). */
  encoding: string | null;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The UTF-8 byte order mark's length at `bytes`' start (0 when none). */
export function bomLength(bytes: Uint8Array): number {
  return UTF8_BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
}

function isXmlSpaceByte(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** Finds the document whose root is `rootName` (or, when there is none, the file's first document). */
function locate(buf: Buffer, rootName: string): Located {
  const bom = bomLength(buf);
  if ((buf[0] === 0xfe && buf[1] === 0xff) || (buf[0] === 0xff && buf[1] === 0xfe)) {
    throw new XmlReadError(
      'xml_unsupported_charset',
      'unsupported charset: the file is UTF-16 (Finvoice files are UTF-8 or ISO-8859-15)',
    );
  }
  if (buf[0] === 0x3c && buf[1] === 0x00) {
    throw new XmlReadError(
      'xml_unsupported_charset',
      'unsupported charset: the file looks like UTF-16 without a byte order mark',
    );
  }
  const open = `<${rootName}`;
  let root = -1;
  for (let at = buf.indexOf(open, bom, 'latin1'); at >= 0; at = buf.indexOf(open, at + 1, 'latin1')) {
    const next = buf[at + open.length];
    if (isXmlSpaceByte(next) || next === 0x3e /* > */ || next === 0x2f /* / */) {
      root = at;
      break;
    }
  }
  let start = bom;
  if (root >= 0) {
    // the last `<?xml` declaration before the root (`<?xml-stylesheet …?>` is not one)
    for (let at = buf.lastIndexOf('<?xml', root, 'latin1'); at >= bom;) {
      if (isXmlSpaceByte(buf[at + 5])) {
        start = at;
        break;
      }
      at = at > 0 ? buf.lastIndexOf('<?xml', at - 1, 'latin1') : -1;
    }
  }
  let encoding: string | null = null;
  if (buf.toString('latin1', start, start + 5) === '<?xml') {
    const end = buf.indexOf('?>', start, 'latin1');
    if (end < 0 || end - start > 512) {
      throw new XmlReadError('xml_not_well_formed', 'not well-formed XML: the XML declaration is not closed');
    }
    const decl = buf.toString('latin1', start, end);
    const m = /\sencoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._-]*)\1/.exec(decl);
    if (m) encoding = m[2].toLowerCase();
  }
  return { start, encoding };
}

interface ChunkDecoder {
  name: string;
  decode(bytes: Uint8Array, last: boolean): string;
}

function textDecoder(label: string, name: string): ChunkDecoder {
  const decoder = new TextDecoder(label, { fatal: true });
  return { name, decode: (bytes, last) => decoder.decode(bytes, { stream: !last }) };
}

/** A decoder of the declared charset; unknown charsets are refused. */
function decoderFor(encoding: string | null): ChunkDecoder {
  switch (encoding ?? 'utf-8') {
    case 'utf-8':
    case 'utf8':
    case 'us-ascii':
    case 'ascii':
      return textDecoder('utf-8', 'UTF-8');
    case 'iso-8859-15':
    case 'iso8859-15':
    case 'iso_8859-15':
    case 'latin-9':
    case 'latin9':
      return textDecoder('iso-8859-15', 'ISO-8859-15');
    case 'iso-8859-1':
    case 'iso8859-1':
    case 'iso_8859-1':
    case 'latin1':
    case 'latin-1':
    case 'l1':
      // Really ISO-8859-1 (bytes are code points): TextDecoder would read this label as windows-1252.
      return {
        name: 'ISO-8859-1',
        decode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1'),
      };
    case 'windows-1252':
    case 'cp1252':
      return textDecoder('windows-1252', 'windows-1252');
    default:
      throw new XmlReadError(
        'xml_unsupported_charset',
        `unsupported charset "${encoding}" (Kulu reads UTF-8, ISO-8859-15, ISO-8859-1 and windows-1252)`,
      );
  }
}

function notWellFormed(detail: string, cause?: unknown): XmlReadError {
  return new XmlReadError('xml_not_well_formed', `not well-formed XML: ${detail}`, { cause });
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
  const { start, encoding } = locate(buf, rootName);
  const decoder = decoderFor(encoding);

  const parser = new SaxesParser({ xmlns: false, position: true });
  let depth = 0;
  // own text of each open element (only the innermost is being appended to)
  const texts: string[] = [];
  parser.on('doctype', (doctype) => {
    // `<!DOCTYPE Finvoice SYSTEM "Finvoice.dtd">` (Finvoice 1.x) is ignored, never fetched; an
    // internal subset (entity declarations) is refused outright.
    if (doctype.includes('[')) {
      throw new XmlReadError(
        'xml_doctype_refused',
        'the XML file declares a DOCTYPE with an internal subset (entity or DTD declarations), which is refused',
      );
    }
  });
  parser.on('opentag', (tag) => {
    depth++;
    if (depth > MAX_XML_DEPTH) {
      throw new XmlReadError(
        'xml_too_deep',
        `the XML elements are nested more than ${MAX_XML_DEPTH} levels deep`,
      );
    }
    texts.push('');
    handler.open(tag.name, tag.attributes as Record<string, string>, depth);
  });
  const addText = (text: string) => {
    if (depth === 0) return;
    const own = texts[depth - 1] + text;
    if (own.length > MAX_TEXT_LENGTH) {
      throw new XmlReadError(
        'xml_too_large',
        `an XML element has more than ${MAX_TEXT_LENGTH} characters of text`,
      );
    }
    texts[depth - 1] = own;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', (tag) => {
    const text = texts.pop() ?? '';
    handler.close(tag.name, text, depth);
    depth--;
  });

  let offset = start;
  try {
    for (;;) {
      const end = Math.min(offset + CHUNK_BYTES, buf.length);
      const last = end === buf.length;
      let chunk: string;
      try {
        chunk = decoder.decode(buf.subarray(offset, end), last);
      } catch (err) {
        throw notWellFormed(
          `the bytes between ${offset} and ${end} are not valid ${decoder.name}` +
            ` (the charset the file declares${encoding ? '' : ' by default'})`,
          err,
        );
      }
      parser.write(chunk);
      offset = end;
      if (last) break;
    }
    parser.close();
  } catch (err) {
    if (err instanceof XmlReadError || !(err instanceof Error) || err.constructor !== Error) throw err;
    // saxes reports "file:line:column: message"
    throw notWellFormed(err.message.replace(/^undefined:/, 'line '), err);
  }
}
