import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Reading the parts of a ZIP file (an uploaded .xlsx or .docx) held in memory. The central
 * directory says where each part starts and how it is compressed; the sizes it declares are never
 * believed: a part is inflated chunk by chunk and the bytes it really inflates to are counted, so a
 * small file that lies about its sizes (a decompression bomb) is stopped at the limit, having used
 * a few megabytes whatever it would have expanded to. Only stored and deflated parts are read.
 */

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The zip can't be read (no central directory, a part that does not inflate, another method). */
export class ZipFormatError extends Error {
  constructor() {
    super('unreadable zip');
  }
}

/** The parts read so far inflated to more bytes than allowed. */
export class ZipLimitError extends Error {
  constructor() {
    super('zip inflates beyond the limit');
  }
}

/** The entries of a ZIP's central directory, or null when it can't be read. */
export function zipEntries(data: Buffer): ZipEntry[] | null {
  if (data.length < 22) return null;
  // The end-of-central-directory record: within the last 22 + 65535 bytes (its comment).
  const from = Math.max(0, data.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = data.length - 22; i >= from; i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = data.readUInt16LE(eocd + 10);
  let p = data.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== 0x02014b50) return null;
    const nameLength = data.readUInt16LE(p + 28);
    const extraLength = data.readUInt16LE(p + 30);
    const commentLength = data.readUInt16LE(p + 32);
    if (p + 46 + nameLength > data.length) return null;
    entries.push({
      name: data.toString('utf8', p + 46, p + 46 + nameLength),
      method: data.readUInt16LE(p + 10),
      compressedSize: data.readUInt32LE(p + 20),
      localOffset: data.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's compressed bytes (a view into `data`), or null when its local header is missing. */
function entryBytes(data: Buffer, e: ZipEntry): Buffer | null {
  const at = e.localOffset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== 0x04034b50) return null;
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  return data.subarray(start, start + e.compressedSize);
}

/** An entry's content (stored or deflated), at most `max` bytes; null when unreadable. */
export function zipContent(data: Buffer, e: ZipEntry, max: number): Buffer | null {
  const raw = entryBytes(data, e);
  if (!raw) return null;
  try {
    if (e.method === 0) return raw.subarray(0, max);
    if (e.method === 8) return zlib.inflateRawSync(raw, { maxOutputLength: max });
  } catch {
    return null;
  }
  return null;
}

/** What is left to inflate across the parts of one file; each part read takes its real bytes. */
export interface InflateBudget {
  left: number;
}

const CHUNK = 64 * 1024;
/**
 * Compressed bytes handed to zlib at a time. Deflate expands at most about 1,032 times, so one
 * slice makes at most ~4 MB before the reader gets to count it and to say stop.
 */
const SLICE = 4 * 1024;

/**
 * An entry's content, chunk by chunk as it inflates; each chunk is taken from `budget` before it is
 * handed on, and a ZipLimitError is thrown (the inflater stopped) once the budget is spent. Leaving
 * the loop early stops inflating. A part that can't be read throws a ZipFormatError.
 */
export async function* zipEntryChunks(
  data: Buffer,
  e: ZipEntry,
  budget: InflateBudget,
): AsyncGenerator<Buffer, void, undefined> {
  const raw = entryBytes(data, e);
  if (!raw || (e.method !== 0 && e.method !== 8)) throw new ZipFormatError();
  const take = (n: number) => {
    budget.left -= n;
    if (budget.left < 0) throw new ZipLimitError();
  };
  if (e.method === 0) {
    for (let at = 0; at < raw.length; at += CHUNK) {
      const chunk = raw.subarray(at, at + CHUNK);
      take(chunk.length);
      yield chunk;
    }
    return;
  }
  const slices = function* () {
    for (let at = 0; at < raw.length; at += SLICE) yield raw.subarray(at, at + SLICE);
  };
  const source = Readable.from(slices());
  const inflater = zlib.createInflateRaw({ chunkSize: CHUNK });
  source.pipe(inflater);
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      take(chunk.length);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof ZipLimitError) throw err;
    throw new ZipFormatError();
  } finally {
    source.destroy();
    inflater.destroy();
  }
}
