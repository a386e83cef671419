import crypto from 'node:crypto';
import type { Chunks } from './filters.js';
import type { Value } from './syntax.js';

/**
 * Decryption for the inflate pre-check (inflate-check.ts). A PDF encrypted with the standard security
 * handler and an empty user (or owner) password opens in MuPDF without asking for one, and its
 * streams are decrypted before their filters run: the check must decrypt them too, or a bomb would
 * only need to be encrypted to pass. Handles RC4 (40–128 bit) and AES-128 (revisions 2–4) and
 * AES-256 (revisions 5 and 6), as PDF 2.0 (ISO 32000-2) section 7.6 and MuPDF's pdf-crypt.c. A file
 * whose empty password does not open it is not decrypted: MuPDF cannot read its streams either, and
 * the parser refuses it as password-protected.
 */

type Method = 'rc4' | 'aesv2' | 'aesv3' | 'none';

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

const get = (v: Value | undefined, key: string): Value | undefined =>
  v?.k === 'dict' ? v.entries.get(key)?.[0] : undefined;
const int = (v: Value | undefined, fallback: number) =>
  v && (v.k === 'int' || v.k === 'real') ? Math.trunc(v.v) : fallback;
const bytes = (v: Value | undefined) => (v?.k === 'str' ? v.v : Buffer.alloc(0));
const name = (v: Value | undefined) => (v?.k === 'name' ? v.v : undefined);

const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

/** The stream decryption of one document: a key and the method of each crypt filter. */
export class Decryption {
  private constructor(
    /** Tells decryptions apart (the same key is one decryption). */
    readonly key: Buffer,
    private readonly methods: Map<string, Method>,
    private readonly streamFilter: string,
  ) {}

  /**
   * The decryption an /Encrypt dictionary (its indirect values resolved by `resolve`) and the first
   * file identifier give with an empty password; null where it needs another password or is not
   * the standard handler.
   */
  static open(encrypt: Value, id: Buffer, resolve: (v: Value) => Value): Decryption | null {
    const field = (key: string) => {
      const v = get(encrypt, key);
      return v ? resolve(v) : undefined;
    };
    if (name(field('Filter')) !== 'Standard') return null;
    const v = int(field('V'), 0);
    const r = int(field('R'), 2);
    const o = bytes(field('O'));
    const u = bytes(field('U'));
    const p = int(field('P'), 0);
    const meta = field('EncryptMetadata');
    const encryptMetadata = !(meta?.k === 'bool' && !meta.v);
    const methods = new Map<string, Method>([['Identity', 'none']]);
    let lengthBits = int(field('Length'), 40);
    let streamFilter = 'StdCF';
    if (v >= 4) {
      const cf = field('CF');
      if (cf?.k === 'dict') {
        for (const [filterName, values] of cf.entries) {
          const entry = resolve(values[0]);
          const given = get(entry, 'CFM');
          const cfm = given && name(resolve(given));
          methods.set(
            filterName,
            cfm === 'AESV2' ? 'aesv2' : cfm === 'AESV3' ? 'aesv3' : cfm === 'V2' ? 'rc4' : 'none',
          );
          const len = get(entry, 'Length');
          if (len && filterName === name(field('StmF'))) {
            const n = int(resolve(len), 0);
            // The crypt filter's /Length is in bytes (some writers give bits).
            lengthBits = n <= 32 ? n * 8 : n;
          }
        }
      }
      streamFilter = name(field('StmF')) ?? 'Identity';
    } else methods.set('StdCF', 'rc4');
    if (r >= 5) {
      const key = aes256Key(r, o, u, bytes(field('OE')), bytes(field('UE')));
      return key ? new Decryption(key, methods, streamFilter) : null;
    }
    const aes = methods.get(streamFilter) === 'aesv2';
    const n = r === 2 ? 5 : aes ? 16 : Math.max(5, Math.min(16, Math.floor(lengthBits / 8)));
    const userKey = (password: Buffer) => {
      let hash = md5(
        pad(password),
        o.subarray(0, 32),
        Buffer.from([p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff]),
        id,
        r >= 4 && !encryptMetadata ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0),
      );
      if (r >= 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, n));
      return hash.subarray(0, n);
    };
    const opens = (key: Buffer) => {
      if (r === 2) return rc4(key, PAD).equals(u.subarray(0, 32));
      let x = rc4(key, md5(PAD, id));
      for (let i = 1; i <= 19; i++) x = rc4(xorKey(key, i), x);
      return x.equals(u.subarray(0, 16));
    };
    const asUser = userKey(Buffer.alloc(0));
    if (opens(asUser)) return new Decryption(asUser, methods, streamFilter);
    // The empty owner password: it decrypts /O to the user password.
    let ownerKey = md5(PAD);
    if (r >= 3) for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
    ownerKey = ownerKey.subarray(0, n);
    let user = o.subarray(0, 32);
    if (r === 2) user = rc4(ownerKey, user);
    else for (let i = 19; i >= 0; i--) user = rc4(xorKey(ownerKey, i), user);
    const asOwner = userKey(user);
    return opens(asOwner) ? new Decryption(asOwner, methods, streamFilter) : null;
  }

  /** Decrypts the data of stream `num gen` with crypt filter `filter` (default: the file's). */
  decrypt(input: Chunks, num: number, gen: number, filter = this.streamFilter): Chunks {
    const method = this.methods.get(filter) ?? 'none';
    if (method === 'none') return input;
    if (method === 'aesv3') return aesStage(input, this.key, 'aes-256-cbc');
    const salt = method === 'aesv2' ? Buffer.from('sAlT', 'latin1') : Buffer.alloc(0);
    const objectKey = md5(
      this.key,
      Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]),
      salt,
    ).subarray(0, Math.min(this.key.length + 5, 16));
    return method === 'aesv2' ? aesStage(input, objectKey, 'aes-128-cbc') : rc4Stage(input, objectKey);
  }
}

const pad = (password: Buffer) => Buffer.concat([password.subarray(0, 32), PAD]).subarray(0, 32);

const xorKey = (key: Buffer, i: number) => Buffer.from(key.map((b) => b ^ i));

class Rc4 {
  private readonly s = new Uint8Array(256);
  private i = 0;
  private j = 0;
  constructor(key: Buffer) {
    const s = this.s;
    for (let k = 0; k < 256; k++) s[k] = k;
    for (let k = 0, j = 0; k < 256; k++) {
      j = (j + s[k] + key[k % key.length]) & 0xff;
      [s[k], s[j]] = [s[j], s[k]];
    }
  }
  apply(data: Buffer): Buffer {
    const s = this.s;
    const out = Buffer.alloc(data.length);
    let { i, j } = this;
    for (let k = 0; k < data.length; k++) {
      i = (i + 1) & 0xff;
      j = (j + s[i]) & 0xff;
      const t = s[i];
      s[i] = s[j];
      s[j] = t;
      out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
    }
    this.i = i;
    this.j = j;
    return out;
  }
}

const rc4 = (key: Buffer, data: Buffer) => new Rc4(key).apply(data);

async function* rc4Stage(input: Chunks, key: Buffer): Chunks {
  const cipher = new Rc4(key);
  for await (const chunk of input) yield cipher.apply(chunk);
}

/**
 * AES-CBC: the first 16 bytes are the IV; a partial last block and the padding are kept. A key of
 * the wrong size (a file that names AES with a short key) leaves the data as it is.
 */
async function* aesStage(input: Chunks, key: Buffer, algorithm: 'aes-128-cbc' | 'aes-256-cbc'): Chunks {
  if (key.length !== (algorithm === 'aes-128-cbc' ? 16 : 32)) {
    yield* input;
    return;
  }
  let iv = Buffer.alloc(0);
  let decipher: crypto.Decipher | null = null;
  for await (const chunk of input) {
    let data = chunk;
    if (!decipher) {
      const need = 16 - iv.length;
      iv = Buffer.concat([iv, data.subarray(0, need)]);
      data = data.subarray(need);
      if (iv.length < 16) continue;
      decipher = crypto.createDecipheriv(algorithm, key, iv).setAutoPadding(false);
    }
    const out = decipher.update(data);
    if (out.length) yield out;
  }
}

/** The file key of revisions 5 and 6 from the empty user or owner password, if either opens it. */
function aes256Key(r: number, o: Buffer, u: Buffer, oe: Buffer, ue: Buffer): Buffer | null {
  if (u.length < 48 || o.length < 48) return null;
  const hash = (salt: Buffer, udata: Buffer) =>
    r === 5 ? sha('sha256', Buffer.concat([salt, udata])) : hash2b(salt, udata);
  const unwrap = (k: Buffer, wrapped: Buffer) => {
    if (wrapped.length < 32) return null;
    const d = crypto.createDecipheriv('aes-256-cbc', k, Buffer.alloc(16)).setAutoPadding(false);
    return Buffer.concat([d.update(wrapped.subarray(0, 32)), d.final()]);
  };
  if (hash(u.subarray(32, 40), Buffer.alloc(0)).equals(u.subarray(0, 32))) {
    return unwrap(hash(u.subarray(40, 48), Buffer.alloc(0)), ue);
  }
  const u48 = u.subarray(0, 48);
  if (hash(o.subarray(32, 40), u48).equals(o.subarray(0, 32)))
    return unwrap(hash(o.subarray(40, 48), u48), oe);
  return null;
}

const sha = (algorithm: string, data: Buffer) =>
  crypto.createHash(algorithm).update(data).digest().subarray(0, 32);

/** Algorithm 2.B (revision 6) for the empty password. */
function hash2b(salt: Buffer, udata: Buffer): Buffer {
  let k = crypto
    .createHash('sha256')
    .update(Buffer.concat([salt, udata]))
    .digest();
  for (let round = 0; ; round++) {
    const k1 = Buffer.concat(Array<Buffer>(64).fill(Buffer.concat([k, udata])));
    const c = crypto
      .createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32))
      .setAutoPadding(false);
    const e = Buffer.concat([c.update(k1), c.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i];
    k = crypto
      .createHash(['sha256', 'sha384', 'sha512'][sum % 3])
      .update(e)
      .digest();
    if (round >= 63 && e[e.length - 1] <= round - 32) break;
  }
  return k.subarray(0, 32);
}
