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

/**
 * A one-page PDF whose page content stream (FlateDecode) inflates to `inflatedMb` MB of zeros, as
 * in the issue; with `in: 'font'` its embedded font program (FontFile2), which a PDF reader decodes
 * whole, is the bomb instead.
 */
export async function bombPdf(inflatedMb = 2048, opts: { in?: 'font' | 'content' } = {}): Promise<Buffer> {
  const inFont = opts.in === 'font';
  const stream = await zerosDeflated(inflatedMb);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  add('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const obj = (n: number, body: string | Buffer[]) => {
    offsets[n] = length;
    add(`${n} 0 obj\n`);
    if (typeof body === 'string') add(body);
    else body.forEach(add);
    add('\nendobj\n');
  };
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  obj(
    3,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  );
  const flate = (data: Buffer) => [
    Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ];
  const text = Buffer.from('BT /F1 12 Tf 72 770 Td (Lasku) Tj ET');
  obj(4, flate(inFont ? zlib.deflateSync(text) : stream));
  obj(
    5,
    '<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>',
  );
  obj(
    6,
    '<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>',
  );
  obj(7, flate(inFont ? stream : zlib.deflateSync(Buffer.alloc(16))));
  const xref = length;
  add(`xref\n0 8\n0000000000 65535 f \n`);
  for (let i = 1; i <= 7; i++) add(`${String(offsets[i]).padStart(10, '0')} 00000 n \n`);
  add(`trailer\n<< /Size 8 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/**
 * A CPU bomb (issue 23, finding 3): a one-page PDF of under 3 KB whose page draws form X0, which
 * draws X1 ten times, … down to X9, which shows a line of text: 10^10 text runs for the reader to
 * walk. No stream is compressed, so neither the inflate check nor the memory cap sees it; only the
 * time limit stops it. `tag` (the text shown) makes each file distinct (uploads are deduplicated).
 */
export function nestedFormBomb(tag = 1, levels = 10, fanOut = 10): Buffer {
  const objects: string[] = [];
  const first = 6;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  objects[3] =
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ' +
    `/Resources << /XObject << /X ${first} 0 R >> >> /Contents 4 0 R >>`;
  const stream = (dict: string, body: string) =>
    `<< ${dict} /Length ${body.length} >>\nstream\n${body}\nendstream`;
  objects[4] = stream('', '/X Do');
  objects[5] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
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
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let i = 1; i < objects.length; i++) {
    offsets[i] = pdf.length;
    pdf += `${i} 0 obj\n${objects[i]}\nendobj\n`;
  }
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let i = 1; i < objects.length; i++) pdf += `${String(offsets[i]).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
