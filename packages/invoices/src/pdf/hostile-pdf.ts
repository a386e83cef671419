import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { onePage, pdfOf, streamObject, TEXT, zerosDeflated, type Body } from './bomb-pdf.js';

/**
 * Test fixtures (imported by tests only): PDFs that hide a decompression bomb from a naive
 * pre-check (issue 23, finding 6), each generated in milliseconds. Every bomb is the font program
 * (FontFile2, object 7) of the one font a one-page document shows text in: a reader decodes a font
 * program whole into memory before it looks at it, so the bomb inflates to `mb` MiB of zeros there.
 */

/** A deflated stream of `mb` MiB of zeros behind `stages` FlateDecode filters. */
export async function deflatedZeros(mb: number, stages = 1): Promise<Buffer> {
  let data = await zerosDeflated(mb);
  for (let i = 1; i < stages; i++) data = zlib.deflateSync(data, { level: 9 });
  return data;
}

/** Run-length data (RunLengthDecode) of `mb` MiB of zeros: each pair of bytes gives 128 of them. */
export function runLengthZeros(mb: number): Buffer {
  const pairs = mb * 8192;
  const out = Buffer.alloc(pairs * 2 + 1);
  for (let i = 0; i < pairs; i++) out[2 * i] = 0x81;
  out[pairs * 2] = 0x80;
  return out;
}

/**
 * LZWDecode data of at least `mb` MiB of zeros followed by `tail`: after each clear code, code 0 and
 * then every new table entry, each one zero longer than the last (about 7 MB per 5.4 KB table), as
 * a reader's LZW decoder reads them with `earlyChange` (DecodeParms /EarlyChange, default 1).
 */
export function lzwZeros(mb: number, tail: Buffer = Buffer.alloc(0), earlyChange = 1): Buffer {
  const out: number[] = [];
  let acc = 0;
  let nbits = 0;
  const write = (code: number, width: number) => {
    acc = (acc << width) | code;
    nbits += width;
    while (nbits >= 8) {
      out.push((acc >>> (nbits - 8)) & 0xff);
      nbits -= 8;
    }
    acc &= (1 << nbits) - 1;
  };
  let width = 9;
  let next = 258;
  let first = true;
  const emit = (code: number) => {
    write(code, width);
    if (code === 256) {
      width = 9;
      next = 258;
      first = true;
      return;
    }
    if (first) {
      first = false;
      return;
    }
    next++;
    if (next > (1 << width) - earlyChange - 1) width = Math.min(width + 1, 12);
  };
  let bytes = 0;
  while (bytes < mb * 1024 * 1024) {
    emit(256);
    emit(0);
    bytes += 1;
    while (next < 4095) {
      bytes += next - 256;
      emit(next);
    }
  }
  emit(256);
  for (const b of tail) emit(b);
  write(257, width);
  if (nbits > 0) write(0, 8 - nbits);
  return Buffer.from(out);
}

export function asciiHex(data: Buffer): Buffer {
  return Buffer.from(`${data.toString('hex')}>`, 'latin1');
}

export function ascii85(data: Buffer): Buffer {
  let s = '';
  for (let i = 0; i < data.length; i += 4) {
    const n = Math.min(4, data.length - i);
    const group = Buffer.alloc(4);
    data.copy(group, 0, i, i + n);
    let word = group.readUInt32BE(0);
    if (n === 4 && word === 0) {
      s += 'z';
      continue;
    }
    const chars: string[] = [];
    for (let k = 0; k < 5; k++) {
      chars.unshift(String.fromCharCode(33 + (word % 85)));
      word = Math.floor(word / 85);
    }
    s += chars.slice(0, n + 1).join('');
  }
  return Buffer.from(`${s}~>`, 'latin1');
}

/** The bomb's filter hidden behind an indirect object: `/Filter 9 0 R`, object 9 `[/FlateDecode]`. */
export async function indirectFilterBomb(mb: number): Promise<Buffer> {
  return pdfOf({
    ...onePage(),
    7: streamObject('/Filter 9 0 R', await deflatedZeros(mb)),
    9: '[/FlateDecode]',
  });
}

/** The filter named first in a stream dictionary padded to `pad` bytes after it. */
export async function paddedDictBomb(mb: number, pad = 8192): Promise<Buffer> {
  return pdfOf({
    ...onePage(),
    7: streamObject(`/Filter /FlateDecode /Padding (${'x'.repeat(pad)})`, await deflatedZeros(mb)),
  });
}

/** Zeros deflated `stages` times, each stage named in the stream's filter array. */
export async function chainedFlateBomb(mb: number, stages = 5): Promise<Buffer> {
  const filters = Array<string>(stages).fill('/FlateDecode').join(' ');
  return pdfOf({ ...onePage(), 7: streamObject(`/Filter [${filters}]`, await deflatedZeros(mb, stages)) });
}

/**
 * The compressed data starts with a stored deflate block holding the bytes `endstream`; the stream's
 * /Length (direct, or `10 0 R` when `length` is `indirect`) says where it really ends.
 */
export async function endstreamInDataBomb(mb: number, length: 'direct' | 'indirect'): Promise<Buffer> {
  const zeros = await zerosDeflated(mb);
  const prefix = Buffer.from('\nendstream\nendobj\n', 'latin1');
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(prefix.length, 1);
  stored.writeUInt16LE(~prefix.length & 0xffff, 3);
  // zlib header, a stored block with the prefix, then the raw deflate blocks of the zeros with an
  // Adler-32 that covers the prefix as well.
  const raw = zeros.subarray(2, zeros.length - 4);
  let a = 1;
  let b = 0;
  for (const byte of prefix) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const n = mb * 1024 * 1024;
  b = (b + ((a * (n % 65521)) % 65521)) % 65521;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  const data = Buffer.concat([Buffer.from([0x78, 0x01]), stored, prefix, raw, adler]);
  if (length === 'direct') return pdfOf({ ...onePage(), 7: streamObject('/Filter /FlateDecode', data) });
  return pdfOf({
    ...onePage(),
    7: streamObject('/Filter /FlateDecode', data, '10 0 R'),
    10: String(data.length),
  });
}

/** RunLengthDecode: `mb` MiB of zeros from mb × 16 KiB of data (no Flate stage at all). */
export function runLengthBomb(mb: number): Buffer {
  return pdfOf({ ...onePage(), 7: streamObject('/Filter /RunLengthDecode', runLengthZeros(mb)) });
}

/** FlateDecode then RunLengthDecode: the inflated run-length data is 1/64 of what it decodes to. */
export function flateRunLengthBomb(mb: number): Buffer {
  const data = zlib.deflateSync(runLengthZeros(mb), { level: 9 });
  return pdfOf({ ...onePage(), 7: streamObject('/Filter [/FlateDecode /RunLengthDecode]', data) });
}

/** LZWDecode: `mb` MiB of zeros from about mb × 750 bytes; `earlyChange` 0 says so in DecodeParms. */
export function lzwBomb(mb: number, earlyChange = 1): Buffer {
  const parms = earlyChange === 1 ? '' : ` /DecodeParms << /EarlyChange ${earlyChange} >>`;
  return pdfOf({
    ...onePage(),
    7: streamObject(`/Filter /LZWDecode${parms}`, lzwZeros(mb, undefined, earlyChange)),
  });
}

/** ASCII85 of ASCIIHex of deflated zeros, behind an unknown filter that a reader passes through. */
export async function asciiChainBomb(mb: number): Promise<Buffer> {
  const data = ascii85(asciiHex(await deflatedZeros(mb)));
  return pdfOf({
    ...onePage(),
    7: streamObject('/Filter [/ASCII85Decode /NoSuchDecode /AHx /Fl]', data),
  });
}

/** `/Filter 9 0 R` where object 9 lives in a compressed object stream (object 11). */
export async function objectStreamFilterBomb(mb: number): Promise<Buffer> {
  const header = '9 0 ';
  const objstm = zlib.deflateSync(Buffer.from(`${header}[/FlateDecode]`, 'latin1'));
  return pdfOf(
    {
      ...onePage(),
      7: streamObject('/Filter 9 0 R', await deflatedZeros(mb)),
      11: streamObject(`/Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode`, objstm),
    },
    { packed: { 9: [11, 0] } },
  );
}

/**
 * `count` tiny content streams (each a few bytes of deflated text) drawn by one page: a reader opens
 * them all at once to concatenate them.
 */
export function manyStreamsPdf(count: number): Buffer {
  const objects: Record<number, Body> = onePage(
    `[${Array.from({ length: count }, (_, i) => `${10 + i} 0 R`).join(' ')}]`,
  );
  const tiny = zlib.deflateSync(Buffer.from(' ', 'latin1'));
  objects[7] = streamObject('/Filter /FlateDecode', tiny);
  for (let i = 0; i < count; i++) objects[10 + i] = streamObject('/Filter /FlateDecode', tiny);
  objects[10 + count - 1] = streamObject('/Filter /FlateDecode', zlib.deflateSync(TEXT));
  return pdfOf(objects);
}

/**
 * `pages` pages (a reader reads 32 and more on worker threads) that all show text in one TrueType
 * font whose program (FontFile2, decoded whole by a reader) inflates to `mb` MiB.
 */
export async function pagesSharingFontBomb(pages: number, mb: number): Promise<Buffer> {
  const { 3: _page, ...shared } = onePage();
  const objects: Record<number, Body> = {
    ...shared,
    2: `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${100 + i} 0 R`).join(' ')}] /Count ${pages} >>`,
    7: streamObject('/Filter /FlateDecode', await deflatedZeros(mb)),
  };
  for (let i = 0; i < pages; i++) {
    objects[100 + i] =
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>';
  }
  return pdfOf(objects);
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
}

const aes = (algorithm: string, key: Buffer, data: Buffer, iv: Buffer, padding = true) => {
  const c = crypto.createCipheriv(algorithm, key, iv).setAutoPadding(padding);
  return Buffer.concat([c.update(data), c.final()]);
};

/** PDF 2.0 algorithm 2.B (revision 6). */
function hash2b(password: Buffer, salt: Buffer, udata: Buffer): Buffer {
  let k = crypto
    .createHash('sha256')
    .update(Buffer.concat([password, salt, udata]))
    .digest();
  for (let round = 0; ; round++) {
    const e = aes(
      'aes-128-cbc',
      k.subarray(0, 16),
      Buffer.concat(Array<Buffer>(64).fill(Buffer.concat([password, k, udata]))),
      k.subarray(16, 32),
      false,
    );
    const sum = e.subarray(0, 16).reduce((a, b) => a + b, 0);
    k = crypto
      .createHash(['sha256', 'sha384', 'sha512'][sum % 3])
      .update(e)
      .digest();
    if (round >= 63 && e[e.length - 1] <= round - 32) break;
  }
  return k.subarray(0, 32);
}

/**
 * The objects of a PDF encrypted as a PDF writer would with an empty user password and owner
 * password `owner`, and `userPassword` (default empty): a reader opens it without asking when that
 * is empty, and decrypts every stream before its filters. Streams only (the objects given have no
 * strings). `rc4`: revision 3, 128-bit RC4; `aes-128`: revision 4, AESV2; `aes-256`: revision 6.
 */
export function encryptedPdf(
  objects: Record<number, Body>,
  method: 'rc4' | 'aes-128' | 'aes-256',
  userPassword = '',
): Buffer {
  const id = crypto.randomBytes(16);
  const user = Buffer.from(userPassword, 'latin1');
  const owner = Buffer.from('owner', 'latin1');
  const p = -4;
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p);
  let fileKey: Buffer;
  let encrypt: string;
  const hex = (b: Buffer) => `<${b.toString('hex')}>`;
  if (method === 'aes-256') {
    fileKey = crypto.randomBytes(32);
    const [uv, uk, ov, ok] = [0, 1, 2, 3].map(() => crypto.randomBytes(8));
    const u = Buffer.concat([hash2b(user, uv, Buffer.alloc(0)), uv, uk]);
    const ue = aes('aes-256-cbc', hash2b(user, uk, Buffer.alloc(0)), fileKey, Buffer.alloc(16), false);
    const o = Buffer.concat([hash2b(owner, ov, u), ov, ok]);
    const oe = aes('aes-256-cbc', hash2b(owner, ok, u), fileKey, Buffer.alloc(16), false);
    const perms = Buffer.concat([
      pBytes,
      Buffer.from([0xff, 0xff, 0xff, 0xff]),
      Buffer.from('Tadb'),
      crypto.randomBytes(4),
    ]);
    encrypt =
      `<< /Filter /Standard /V 5 /R 6 /Length 256 /P ${p} /O ${hex(o)} /U ${hex(u)} /OE ${hex(oe)} /UE ${hex(ue)} ` +
      `/Perms ${hex(aes('aes-256-ecb', fileKey, perms, Buffer.alloc(0), false))} ` +
      '/CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF >>';
  } else {
    const padded = (pw: Buffer) => Buffer.concat([pw, PAD]).subarray(0, 32);
    let ownerKey = md5(padded(owner));
    for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
    let o = rc4(ownerKey, padded(user));
    for (let i = 1; i <= 19; i++) o = rc4(Buffer.from(ownerKey.map((b) => b ^ i)), o);
    fileKey = md5(padded(user), o, pBytes, id);
    for (let i = 0; i < 50; i++) fileKey = md5(fileKey);
    let u = rc4(fileKey, md5(PAD, id));
    for (let i = 1; i <= 19; i++) u = rc4(Buffer.from(fileKey.map((b) => b ^ i)), u);
    u = Buffer.concat([u, Buffer.alloc(16)]);
    encrypt =
      method === 'rc4'
        ? `<< /Filter /Standard /V 2 /R 3 /Length 128 /P ${p} /O ${hex(o)} /U ${hex(u)} >>`
        : `<< /Filter /Standard /V 4 /R 4 /Length 128 /P ${p} /O ${hex(o)} /U ${hex(u)} ` +
          '/CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF >>';
  }
  const encrypted: Record<number, Body> = {};
  for (const [key, body] of Object.entries(objects)) {
    const num = Number(key);
    if (typeof body === 'string') {
      encrypted[num] = body;
      continue;
    }
    const [head, data, tail] = body as [string, Buffer, string];
    let out: Buffer;
    if (method === 'aes-256') out = aesData(fileKey, data);
    else {
      const objectKey = md5(
        fileKey,
        Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0]),
        Buffer.from(method === 'aes-128' ? 'sAlT' : '', 'latin1'),
      );
      out = method === 'rc4' ? rc4(objectKey, data) : aesData(objectKey, data);
    }
    encrypted[num] = [head.replace(/\/Length \d+/, `/Length ${out.length}`), out, tail];
  }
  const maxNum = Math.max(...Object.keys(objects).map(Number));
  encrypted[maxNum + 1] = encrypt;
  return pdfOf(encrypted, { trailer: `/Root 1 0 R /Encrypt ${maxNum + 1} 0 R /ID [${hex(id)} ${hex(id)}]` });
}

function aesData(key: Buffer, data: Buffer): Buffer {
  const iv = crypto.randomBytes(16);
  return Buffer.concat([iv, aes(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, data, iv)]);
}

/**
 * Each file hides a bomb of `mb` MiB (MuPDF 1.28 decodes each whole: checked when they were written)
 * from the pre-check of issue 23, which inflated only FlateDecode streams named in the last 4 KiB
 * before `stream`, up to the first `endstream`, at most four stages deep.
 */
export const HIDDEN_BOMBS: [string, (mb: number) => Promise<Buffer> | Buffer][] = [
  ['an indirect /Filter (`/Filter 9 0 R`, object 9 `[/FlateDecode]`)', indirectFilterBomb],
  ['/Filter first in a stream dictionary padded past 4 KiB', (mb) => paddedDictBomb(mb, 8192)],
  ['five chained FlateDecode stages', (mb) => chainedFlateBomb(mb, 5)],
  [
    'the bytes `endstream` inside the compressed data, a direct /Length',
    (mb) => endstreamInDataBomb(mb, 'direct'),
  ],
  [
    'the bytes `endstream` inside the compressed data, /Length 10 0 R',
    (mb) => endstreamInDataBomb(mb, 'indirect'),
  ],
  ['RunLengthDecode alone', runLengthBomb],
  ['FlateDecode then RunLengthDecode', flateRunLengthBomb],
  ['LZWDecode', (mb) => lzwBomb(mb)],
  ['LZWDecode with /EarlyChange 0', (mb) => lzwBomb(mb, 0)],
  ['ASCII85, an unknown filter, ASCIIHex and Flate in one chain', asciiChainBomb],
  ['/Filter in an object inside a compressed object stream', objectStreamFilterBomb],
  ...(['rc4', 'aes-128', 'aes-256'] as const).map((method): [string, (mb: number) => Promise<Buffer>] => [
    `encryption (${method}) with an empty user password`,
    async (mb) =>
      encryptedPdf(
        { ...onePage(), 7: streamObject('/Filter /FlateDecode', await deflatedZeros(mb)) },
        method,
      ),
  ]),
];
