import zlib from 'node:zlib';

/**
 * Test fixture (imported by tests only): a small PDF whose one page content stream inflates to
 * `inflatedMb` megabytes of zeros, i.e. a decompression bomb, generated in milliseconds instead
 * of deflating gigabytes. A deflate stream of zeros repeats itself block by block once its window
 * is full of zeros, so one sync-flushed block of 1 MiB is written N times between the first block
 * and the final one, followed by the zlib header and checksum.
 */
export async function zerosDeflated(inflatedMb: number): Promise<Buffer> {
  const mib = Buffer.alloc(1024 * 1024);
  const d = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  d.on('data', (c: Buffer) => out.push(c));
  const take = () => {
    const b = Buffer.concat(out);
    out.length = 0;
    return b;
  };
  const flushed = () => new Promise<void>((resolve) => d.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
  d.write(mib);
  await flushed();
  const first = take();
  d.write(mib);
  await flushed();
  const middle = take();
  d.write(mib);
  await flushed();
  if (!take().equals(middle)) throw new Error('deflate of zeros did not repeat');
  const ended = new Promise<void>((resolve) => d.on('end', () => resolve()));
  d.end();
  await ended;
  const last = take();
  const n = inflatedMb;
  // Adler-32 of n MiB of zeros: a stays 1, b adds 1 per byte.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((n * 1024 * 1024) % 65521) * 65536 + 1);
  return Buffer.concat([Buffer.from([0x78, 0xda]), first, ...Array<Buffer>(n - 1).fill(middle), last, adler]);
}

/** An object's body: a string, or a stream as its parts. */
export type Body = string | (string | Buffer)[];

/**
 * A PDF of the given objects (number → body, a stream as its parts) with an xref table and trailer;
 * with `packed` (object number → [object stream, index]) an xref stream instead, so that a reader
 * finds those objects inside their object streams.
 */
export function pdfOf(
  objects: Record<number, Body>,
  opts: { trailer?: string; packed?: Record<number, [number, number]> } = {},
): Buffer {
  const trailer = opts.trailer ?? '/Root 1 0 R';
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (b: string | Buffer) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  add('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const numbers = Object.keys(objects)
    .map(Number)
    .sort((a, b) => a - b);
  const put = (n: number, body: Body) => {
    offsets[n] = length;
    add(`${n} 0 obj\n`);
    if (typeof body === 'string') add(body);
    else body.forEach(add);
    add('\nendobj\n');
  };
  for (const n of numbers) put(n, objects[n]);
  const packed = opts.packed;
  if (packed) {
    const self = Math.max(...numbers, ...Object.keys(packed).map(Number)) + 1;
    const size = self + 1;
    offsets[self] = length;
    const rows = Buffer.alloc(size * 7);
    for (let i = 0; i < size; i++) {
      const row = rows.subarray(i * 7);
      if (packed[i]) {
        row[0] = 2;
        row.writeUInt32BE(packed[i][0], 1);
        row.writeUInt16BE(packed[i][1], 5);
      } else if (offsets[i] != null) {
        row[0] = 1;
        row.writeUInt32BE(offsets[i], 1);
      } else row.writeUInt16BE(0xffff, 5);
    }
    const xref = length;
    put(self, streamObject(`/Type /XRef /Size ${size} /W [1 4 2] ${trailer}`, rows));
    add(`startxref\n${xref}\n%%EOF\n`);
    return Buffer.concat(parts);
  }
  const size = numbers[numbers.length - 1] + 1;
  const xref = length;
  add(`xref\n0 ${size}\n0000000000 65535 f \n`);
  for (let i = 1; i < size; i++) {
    add(offsets[i] == null ? '0000000000 65535 f \n' : `${String(offsets[i]).padStart(10, '0')} 00000 n \n`);
  }
  add(`trailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** A stream object: `dict` (without the brackets) and its data; `/Length` is the data's unless given. */
export function streamObject(dict: string, data: Buffer, length: string | number = data.length): Body {
  return [`<< ${dict} /Length ${length} >>\nstream\n`, data, '\nendstream'];
}

/**
 * Objects 1–6 of a one-page document that shows "Lasku" (content stream 4) in a TrueType font (5)
 * whose program is object 7 (FontFile2 of descriptor 6): the caller gives object 7.
 */
export function onePage(contents = '4 0 R'): Record<number, Body> {
  return {
    1: '<< /Type /Catalog /Pages 2 0 R >>',
    2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    3: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${contents} /Resources << /Font << /F1 5 0 R >> >> >>`,
    4: streamObject('/Filter /FlateDecode', zlib.deflateSync(TEXT)),
    5: '<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>',
    6:
      '<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 ' +
      '/Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>',
  };
}

export const TEXT = Buffer.from('BT /F1 12 Tf 72 770 Td (Lasku) Tj ET', 'latin1');

/**
 * A one-page PDF whose page content stream (FlateDecode) inflates to `inflatedMb` MB of zeros, as
 * in the issue; with `in: 'font'` its embedded font program (FontFile2), which a PDF reader decodes
 * whole, is the bomb instead.
 */
export async function bombPdf(inflatedMb = 2048, opts: { in?: 'font' | 'content' } = {}): Promise<Buffer> {
  const bomb = streamObject('/Filter /FlateDecode', await zerosDeflated(inflatedMb));
  if (opts.in === 'font') return pdfOf({ ...onePage(), 7: bomb });
  return pdfOf({
    ...onePage(),
    4: bomb,
    7: streamObject('/Filter /FlateDecode', zlib.deflateSync(Buffer.alloc(16))),
  });
}

/**
 * A CPU bomb (issue 23, finding 3): a one-page PDF of under 3 KB whose page draws form X0, which
 * draws X1 ten times, … down to X9, which shows a line of text: 10^10 text runs for the reader to
 * walk. No stream is compressed, so neither the inflate check nor the memory cap sees it; only the
 * time limit stops it. `tag` (the text shown) makes each file distinct (uploads are deduplicated).
 */
export function nestedFormBomb(tag = 1, levels = 10, fanOut = 10): Buffer {
  const first = 6;
  const stream = (dict: string, body: string) => streamObject(dict, Buffer.from(body, 'latin1'));
  const objects: Record<number, Body> = {
    1: '<< /Type /Catalog /Pages 2 0 R >>',
    2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    3:
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ' +
      `/Resources << /XObject << /X ${first} 0 R >> >> /Contents 4 0 R >>`,
    4: stream('', '/X Do'),
    5: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  };
  for (let level = 0; level < levels; level++) {
    const last = level === levels - 1;
    const resources = last
      ? '<< /Font << /F 5 0 R >> >>'
      : `<< /XObject << /X ${first + level + 1} 0 R >> >>`;
    const body = last ? `BT /F 12 Tf 72 720 Td (Lasku ${tag}) Tj ET` : Array(fanOut).fill('/X Do').join(' ');
    objects[first + level] = stream(
      `/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources ${resources}`,
      body,
    );
  }
  return pdfOf(objects);
}
