import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A secret from the environment, or one generated once and kept under DATA_DIR. */
export function persistentSecret(
  dataDir: string,
  name: string,
  fromEnv: string | undefined,
  bytes = 32,
): Buffer {
  if (fromEnv)
    return /^[0-9a-fA-F]+$/.test(fromEnv) && fromEnv.length === bytes * 2
      ? Buffer.from(fromEnv, 'hex')
      : Buffer.from(fromEnv);
  const file = path.join(dataDir, 'secrets', name);
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = crypto.randomBytes(bytes);
  fs.writeFileSync(file, value.toString('hex'), { mode: 0o600, flag: 'wx' });
  return value;
}

/** 32 random bytes for a reset or activation link, and the SHA-256 that is stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}

export const sha256 = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');

/** AES-256-GCM for secrets at rest (operator portal passwords). Output: iv.tag.ciphertext, base64url. */
export function encrypt(key: Buffer, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), enc].map((b) => b.toString('base64url')).join('.');
}

export function decrypt(key: Buffer, sealed: string): string {
  const [iv, tag, enc] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(enc), decipher.final()]).toString('utf8');
}
