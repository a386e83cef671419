import zlib from 'node:zlib';
import { Uncheckable } from './syntax.js';

/**
 * The stream filters of the inflate pre-check (inflate-check.ts), as streaming decoders whose output
 * is counted and thrown away piece by piece (at most 64 KiB of it held per stage). They decode as
 * MuPDF's do (filter-flate.c, filter-lzw.c, filter-basic.c: run length, ASCIIHex, ASCII85), so a
 * stream yields at least the bytes MuPDF would get from it; filters the check does not decode pass
 * their input through (counted as their output).
 */

export type Chunks = AsyncIterable<Buffer>;

export type Filter =
  | { kind: 'flate' | 'brotli' | 'runlength' | 'asciihex' | 'ascii85' | 'dct' | 'image' | 'pass' }
  | { kind: 'lzw'; earlyChange: number }
  /** Decrypts with the document's crypt filter `name` (DecodeParms /Name; none: no decryption). */
  | { kind: 'crypt'; name: string | null };

/**
 * Filter names (and their abbreviations) as MuPDF's build_filter knows them, with the parameter
 * the check needs from DecodeParms (LZW's EarlyChange, Crypt's Name).
 */
export function filterOf(name: string, earlyChange = 1, cryptName: string | null = null): Filter {
  switch (name) {
    case 'FlateDecode':
    case 'Fl':
      return { kind: 'flate' };
    case 'LZWDecode':
    case 'LZW':
      return { kind: 'lzw', earlyChange };
    case 'RunLengthDecode':
    case 'RL':
      return { kind: 'runlength' };
    case 'ASCIIHexDecode':
    case 'AHx':
      return { kind: 'asciihex' };
    case 'ASCII85Decode':
    case 'A85':
      return { kind: 'ascii85' };
    case 'BrotliDecode':
    case 'Br':
      return { kind: 'brotli' };
    case 'DCTDecode':
    case 'DCT':
      return { kind: 'dct' };
    case 'CCITTFaxDecode':
    case 'CCF':
    case 'JBIG2Decode':
      return { kind: 'image' };
    case 'Crypt':
      return { kind: 'crypt', name: cryptName };
  }
  // JPXDecode and unknown names: MuPDF passes the data through.
  return { kind: 'pass' };
}

/** Counts bytes against the limit; `add` throws OverLimit once the count passes it. */
export class Meter {
  total = 0;
  constructor(readonly limit: number) {}
  add(n: number) {
    this.total += n;
    if (this.total > this.limit) throw new OverLimit();
  }
}

export class OverLimit extends Error {}

const PIECE = 64 * 1024;
/** zlib's output piece: what a damaged stream's last, undelivered piece may have held. */
const ZLIB_CHUNK = 64 * 1024;

export async function* counted(src: Chunks, meter: Meter): Chunks {
  for await (const c of src) {
    meter.add(c.length);
    yield c;
  }
}

/** `buf[start, end)` in pieces. */
export async function* bytesOf(buf: Buffer, start: number, end: number): Chunks {
  for (let p = start; p < end; p += PIECE) yield buf.subarray(p, Math.min(end, p + PIECE));
}

/**
 * The decoder of one filter over `input` (a crypt filter is the caller's: here it passes the data
 * through). `last`: nothing decodes its output further (a damaged Flate stream that is not last
 * cannot be followed exactly: the check refuses it).
 */
export function decode(filter: Filter, input: Chunks, meter: Meter, last: boolean): Chunks {
  switch (filter.kind) {
    case 'flate':
      return zlibStage(
        () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: ZLIB_CHUNK }),
        input,
        meter,
        last,
      );
    case 'brotli':
      return zlibStage(
        () =>
          zlib.createBrotliDecompress({
            finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
            chunkSize: ZLIB_CHUNK,
          }),
        input,
        meter,
        last,
      );
    case 'lzw':
      return syncStage(new Lzw(filter.earlyChange), input);
    case 'runlength':
      return syncStage(new RunLength(), input);
    case 'asciihex':
      return syncStage(new AsciiHex(), input);
    case 'ascii85':
      return syncStage(new Ascii85(), input);
    case 'dct':
      return dctStage(input, meter);
    default:
      return input;
  }
}

async function* zlibStage(
  make: () => zlib.Inflate | zlib.BrotliDecompress,
  input: Chunks,
  meter: Meter,
  last: boolean,
): Chunks {
  const z = make();
  // Errors after the reader below has stopped must not go unhandled.
  z.on('error', () => {});
  let upstream: unknown = null;
  const feeding = (async () => {
    try {
      for await (const chunk of input) {
        if (z.destroyed || z.readableEnded || z.writableEnded) break;
        if (!z.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              z.off('drain', done);
              z.off('close', done);
              resolve();
            };
            z.on('drain', done);
            z.on('close', done);
          });
        }
      }
    } catch (e) {
      upstream = e;
      z.destroy();
      return;
    }
    if (!z.destroyed && !z.writableEnded) z.end();
  })();
  let damaged = false;
  try {
    for await (const out of z) yield out as Buffer;
  } catch {
    damaged = true;
  } finally {
    z.destroy();
    await feeding;
  }
  if (upstream) throw upstream;
  if (damaged) {
    // Node drops the piece being filled when the data turns out damaged; MuPDF delivers the
    // bytes before the damage. Count that piece as delivered; a later stage cannot be fed it.
    if (!last) throw new Uncheckable('a damaged compressed stream feeds another filter');
    meter.add(ZLIB_CHUNK);
  }
}

interface SyncDecoder {
  /** Decodes one piece of input into pieces of output. */
  push(chunk: Buffer): Generator<Buffer>;
  /** Reached its end-of-data: no more input is read (as MuPDF stops reading). */
  done: boolean;
}

async function* syncStage(decoder: SyncDecoder, input: Chunks): Chunks {
  for await (const chunk of input) {
    yield* decoder.push(chunk);
    if (decoder.done) return;
  }
}

/** An output buffer handed out in pieces of about 64 KiB. */
class Out {
  buf = Buffer.alloc(PIECE * 2);
  n = 0;
  get full() {
    return this.n >= PIECE;
  }
  take(): Buffer {
    const piece = this.buf.subarray(0, this.n);
    this.buf = Buffer.alloc(PIECE * 2);
    this.n = 0;
    return piece;
  }
}

/** RunLengthDecode (filter-basic.c next_rld). */
class RunLength implements SyncDecoder {
  done = false;
  /** Literal bytes still to copy, or the count of a repeat waiting for its byte (negative). */
  private left = 0;
  private readonly out = new Out();

  *push(chunk: Buffer): Generator<Buffer> {
    const out = this.out;
    for (let i = 0; i < chunk.length && !this.done; i++) {
      const b = chunk[i];
      if (this.left > 0) {
        out.buf[out.n++] = b;
        this.left--;
      } else if (this.left < 0) {
        out.buf.fill(b, out.n, out.n - this.left);
        out.n -= this.left;
        this.left = 0;
      } else if (b === 128) this.done = true;
      else if (b < 128) this.left = b + 1;
      else this.left = -(257 - b);
      if (out.full) yield out.take();
    }
    if (out.n) yield out.take();
  }
}

const WHITE_85 = new Uint8Array(256);
for (const c of [0x0a, 0x0d, 0x09, 0x20, 0x00, 0x0c, 0x08, 0x7f]) WHITE_85[c] = 1;
const hexValue = (c: number) =>
  c >= 0x30 && c <= 0x39
    ? c - 0x30
    : c >= 0x41 && c <= 0x46
      ? c - 0x37
      : c >= 0x61 && c <= 0x66
        ? c - 0x57
        : -1;

/** ASCIIHexDecode (filter-basic.c next_ahxd): bad data ends it, as MuPDF's error does. */
class AsciiHex implements SyncDecoder {
  done = false;
  private high = -1;
  private readonly out = new Out();

  *push(chunk: Buffer): Generator<Buffer> {
    const out = this.out;
    for (let i = 0; i < chunk.length && !this.done; i++) {
      const c = chunk[i];
      const v = hexValue(c);
      if (v >= 0) {
        if (this.high < 0) this.high = v;
        else {
          out.buf[out.n++] = (this.high << 4) | v;
          this.high = -1;
        }
      } else if (c === 0x3e /* > */) {
        if (this.high >= 0) out.buf[out.n++] = this.high << 4;
        this.done = true;
      } else if (!WHITE_85[c]) this.done = true;
      if (out.full) yield out.take();
    }
    if (out.n) yield out.take();
  }
}

/** ASCII85Decode (filter-basic.c next_a85d). */
class Ascii85 implements SyncDecoder {
  done = false;
  private count = 0;
  private word = 0;
  private tilde = false;
  private readonly out = new Out();

  *push(chunk: Buffer): Generator<Buffer> {
    const out = this.out;
    const put = (w: number, bytes: number) => {
      for (let k = 0; k < bytes; k++) out.buf[out.n++] = (w >>> (24 - 8 * k)) & 0xff;
    };
    for (let i = 0; i < chunk.length && !this.done; i++) {
      const c = chunk[i];
      if (this.tilde) {
        // `~` and the byte after it (`>`, or anything: MuPDF only warns) end the data.
        this.done = true;
        break;
      }
      if (c >= 0x21 && c <= 0x75) {
        this.word = this.word * 85 + (c - 0x21);
        if (++this.count === 5) {
          put(this.word >>> 0, 4);
          this.word = 0;
          this.count = 0;
        }
      } else if (c === 0x7a /* z */ && this.count === 0) put(0, 4);
      else if (c === 0x7e /* ~ */) {
        const w = this.word;
        if (this.count === 2) put((w * 85 * 85 * 85 + 0xffffff) >>> 0, 1);
        else if (this.count === 3) put((w * 85 * 85 + 0xffff) >>> 0, 2);
        else if (this.count === 4) put((w * 85 + 0xff) >>> 0, 3);
        this.tilde = true;
      } else if (!WHITE_85[c]) this.done = true;
      if (out.full) yield out.take();
    }
    if (out.n) yield out.take();
  }
}

const LZW_CLEAR = 256;
const LZW_EOD = 257;
const LZW_FIRST = 258;
const NUM_CODES = 4096;

/**
 * LZWDecode (filter-lzw.c next_lzwd with 9-bit codes, MSB first, no old-TIFF quirks): the code table
 * is not reset by a clear code, so a stale entry can be output again, as in MuPDF.
 */
class Lzw implements SyncDecoder {
  done = false;
  private readonly prev = new Int32Array(NUM_CODES).fill(-1);
  private readonly length = new Uint16Array(NUM_CODES);
  private readonly value = new Uint8Array(NUM_CODES);
  private readonly first = new Uint8Array(NUM_CODES);
  private bits = 9;
  private next = LZW_FIRST;
  private old = -1;
  private acc = 0;
  private nacc = 0;
  private readonly out = new Out();

  constructor(private readonly earlyChange: number) {
    for (let i = 0; i < 256; i++) {
      this.value[i] = i;
      this.first[i] = i;
      this.length[i] = 1;
    }
  }

  *push(chunk: Buffer): Generator<Buffer> {
    const out = this.out;
    for (let i = 0; i < chunk.length && !this.done; i++) {
      this.acc = ((this.acc << 8) | chunk[i]) >>> 0;
      this.nacc += 8;
      while (this.nacc >= this.bits && !this.done) {
        this.nacc -= this.bits;
        const code = (this.acc >>> this.nacc) & ((1 << this.bits) - 1);
        this.acc &= (1 << this.nacc) - 1;
        this.code(code);
        if (out.full) yield out.take();
      }
    }
    if (out.n) yield out.take();
  }

  private code(input: number) {
    let code = input;
    if (code === LZW_EOD) {
      this.done = true;
      return;
    }
    if (this.next > NUM_CODES && code !== LZW_CLEAR) code = LZW_CLEAR;
    if (code === LZW_CLEAR) {
      this.bits = 9;
      this.next = LZW_FIRST;
      this.old = -1;
      return;
    }
    if (this.old === -1) this.old = code;
    else if (this.next === NUM_CODES) this.next++;
    else if (code > this.next) {
      // MuPDF throws: the stream ends here.
      this.done = true;
      return;
    } else {
      const n = this.next;
      this.prev[n] = this.old;
      this.first[n] = this.first[this.old];
      this.length[n] = (this.length[this.old] + 1) & 0xffff;
      this.value[n] = code < n ? this.first[code] : this.first[n];
      this.next++;
      if (this.next > (1 << this.bits) - this.earlyChange - 1) this.bits = Math.min(this.bits + 1, 12);
      this.old = code;
    }
    const out = this.out;
    if (code < LZW_CLEAR) {
      out.buf[out.n++] = code;
      return;
    }
    const len = this.length[code];
    if (out.n + len > out.buf.length) {
      const bigger = Buffer.alloc(out.n + len + PIECE);
      out.buf.copy(bigger, 0, 0, out.n);
      out.buf = bigger;
    }
    // Written backwards along the chain, as MuPDF does; a chain shorter than the length leaves zeros.
    let s = out.n + len;
    for (let c = code; c >= 0 && s > out.n; c = this.prev[c]) out.buf[--s] = this.value[c];
    out.n += len;
  }
}

/**
 * DCTDecode is not decoded: its input passes through, and the pixels a JPEG decoder would make of
 * it (width × height × components of its frame header) are counted as well.
 */
async function* dctStage(input: Chunks, meter: Meter): Chunks {
  const frame = new JpegFrame();
  for await (const chunk of input) {
    frame.push(chunk);
    yield chunk;
  }
  meter.add(frame.pixels);
}

/**
 * Follows a JPEG's segments as they come (markers, segment lengths, entropy-coded data) for its
 * frame headers (SOF0–SOF15 but DHT, JPG and DAC): the pixels of the largest.
 */
class JpegFrame {
  pixels = 0;
  private state: 'marker' | 'code' | 'len0' | 'len1' | 'body' | 'scan' | 'scanff' = 'marker';
  private code = 0;
  private left = 0;
  private readonly sof: number[] = [];

  push(chunk: Buffer) {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      switch (this.state) {
        case 'marker':
          if (b === 0xff) this.state = 'code';
          break;
        case 'code':
        case 'scanff':
          if (b === 0xff) break;
          if (this.state === 'scanff' && (b === 0x00 || (b >= 0xd0 && b <= 0xd7))) this.state = 'scan';
          else if (b === 0xd8 || b === 0xd9 || b === 0x01 || (b >= 0xd0 && b <= 0xd7)) this.state = 'marker';
          else {
            this.code = b;
            this.state = 'len0';
          }
          break;
        case 'len0':
          this.left = b << 8;
          this.state = 'len1';
          break;
        case 'len1':
          this.left = Math.max(0, (this.left | b) - 2);
          this.sof.length = 0;
          this.state = 'body';
          if (this.left === 0) this.endSegment();
          break;
        case 'body':
          if (this.sof.length < 6) this.sof.push(b);
          if (--this.left === 0) this.endSegment();
          break;
        case 'scan':
          if (b === 0xff) this.state = 'scanff';
          break;
      }
    }
  }

  private endSegment() {
    const c = this.code;
    if (c >= 0xc0 && c <= 0xcf && c !== 0xc4 && c !== 0xc8 && c !== 0xcc && this.sof.length === 6) {
      const [, h0, h1, w0, w1, components] = this.sof;
      this.pixels = Math.max(
        this.pixels,
        ((w0 << 8) | w1) * Math.max((h0 << 8) | h1, 1) * Math.max(components, 1),
      );
    }
    this.state = c === 0xda ? 'scan' : 'marker';
  }
}
