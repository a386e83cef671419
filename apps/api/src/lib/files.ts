import crypto from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import type { Executor } from '../db/client.js';
import {
  clientOperatorDocuments,
  clients,
  fileChunks,
  files,
  helpFiles,
  invoices,
  users,
} from '../db/schema/index.js';

/**
 * A stored file answered as a download: its type, its name as an attachment (ASCII for old clients,
 * the exact name in UTF-8 beside it), and never content-sniffed.
 */
export function sendAttachment(reply: FastifyReply, f: { name: string; mime: string; data: Buffer }) {
  const ascii = f.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .header('content-type', f.mime)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.name)}`,
    )
    .header('x-content-type-options', 'nosniff')
    .send(f.data);
}

/** A file that streams in is stored in chunks of this size: a request holds at most one. */
export const FILE_CHUNK_BYTES = 1024 * 1024;

/** A stored file as a `data:` URL (logos travel in the session this way), or null. */
export async function fileDataUrl(db: Executor, fileId: number | null): Promise<string | null> {
  if (!fileId) return null;
  const [f] = await db.select({ mime: files.mime, data: files.data }).from(files).where(eq(files.id, fileId));
  return f ? `data:${f.mime};base64,${f.data.toString('base64')}` : null;
}

/**
 * A file's bytes, whether stored whole (`files.data`) or streamed in chunks; null when there is no
 * such file or its bytes were removed (a failed invoice's file past its keeping time).
 */
export async function readFileData(db: Executor, fileId: number): Promise<Buffer | null> {
  const [f] = await db.select({ data: files.data, size: files.size }).from(files).where(eq(files.id, fileId));
  if (!f || f.size === 0) return null;
  const chunks = await db
    .select({ data: sql<string>`encode(${fileChunks.data}, 'base64')` })
    .from(fileChunks)
    .where(eq(fileChunks.fileId, fileId))
    .orderBy(asc(fileChunks.seq));
  if (!chunks.length) return f.data;
  return Buffer.concat([f.data, ...chunks.map((c) => Buffer.from(c.data, 'base64'))]);
}

export interface StreamedFile {
  fileId: number;
  sha256: string;
  size: number;
  mime: string;
}

export type StreamOutcome =
  | { stored: StreamedFile }
  /** The first bytes were refused by `accept` (nothing stored, the rest read and dropped). */
  | { refused: 'content' }
  /** Past `maxBytes` (what was stored is removed again). */
  | { refused: 'size' };

/**
 * Stores a file as it streams in: its SHA-256 computed on the fly, its bytes written in chunks of
 * FILE_CHUNK_BYTES (the stream waits while a chunk is written), so a file is never held whole.
 * `accept` judges the first chunk (e.g. a PDF's magic bytes) before anything is stored; a file past
 * `maxBytes` (or whose stream says `truncated`, as a multipart part over its limit) is removed again.
 */
export async function storeFileStream(
  db: Executor,
  meta: { clientId: number | null; kind: string; name: string; mime: string },
  source: AsyncIterable<Buffer> & { truncated?: boolean },
  /**
   * `accept` judges the first chunk: false (or null) refuses the file, a string is the file's media
   * type (instead of `meta.mime`).
   */
  opts: { maxBytes: number; accept?: (head: Buffer) => boolean | string | null },
): Promise<StreamOutcome> {
  const hash = crypto.createHash('sha256');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let size = 0;
  let seq = 0;
  let fileId: number | null = null;
  let mime = meta.mime;
  let refused: 'content' | 'size' | null = null;
  const flush = async () => {
    if (!pendingBytes || refused) return;
    const chunk = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    if (fileId == null) {
      const judged = opts.accept ? opts.accept(chunk) : true;
      if (!judged) {
        refused = 'content';
        return;
      }
      if (typeof judged === 'string') mime = judged;
      const [row] = await db
        .insert(files)
        .values({ ...meta, mime, size: 0, data: Buffer.alloc(0) })
        .returning({ id: files.id });
      fileId = row.id;
    }
    // As base64 text decoded by the database: the drivers' own bytea encoding is slow and, for
    // PGlite, takes many times the chunk in memory (a string per byte).
    await db
      .insert(fileChunks)
      .values({ fileId, seq: seq++, data: sql`decode(${chunk.toString('base64')}, 'base64')` });
  };
  try {
    for await (const piece of source) {
      if (refused) continue; // read to the end, keep nothing
      size += piece.length;
      if (size > opts.maxBytes) {
        refused = 'size';
        continue;
      }
      hash.update(piece);
      // A piece may be large (a whole body that arrived at once): stored in chunks all the same.
      for (let at = 0; at < piece.length;) {
        const part = piece.subarray(at, at + FILE_CHUNK_BYTES - pendingBytes);
        at += part.length;
        pending.push(part);
        pendingBytes += part.length;
        if (pendingBytes >= FILE_CHUNK_BYTES) await flush();
      }
    }
    await flush();
  } catch (e) {
    if (fileId != null) await removeFiles(db, [fileId]).catch(() => {});
    throw e;
  }
  if (!refused && source.truncated) refused = 'size';
  if (!refused && fileId == null) refused = 'content'; // empty
  if (refused) {
    if (fileId != null) await removeFiles(db, [fileId]);
    return { refused };
  }
  await db.update(files).set({ size }).where(eq(files.id, fileId!));
  return { stored: { fileId: fileId!, sha256: hash.digest('hex'), size, mime } };
}

/** Deletes files (their chunks go with them). */
export async function removeFiles(db: Executor, ids: number[]): Promise<void> {
  if (ids.length) await db.delete(files).where(inArray(files.id, ids));
}

/**
 * Every column that names a file (its chunks aside, which go with it): a file none of them names
 * belongs to nothing. The logos have no foreign key. files.test.ts checks this list against the
 * database's own columns, so a new one cannot be forgotten.
 */
export const FILE_REFERENCES: ReadonlyArray<readonly [PgTable, PgColumn]> = [
  [invoices, invoices.fileId],
  [clientOperatorDocuments, clientOperatorDocuments.fileId],
  [helpFiles, helpFiles.fileId],
  [clients, clients.logoFileId],
  [users, users.logoFileId],
];

/**
 * The least age of a file that no row names before it is removed: twice the longest an upload may
 * take (UPLOAD_MAX_SECONDS), at least an hour. An upload's streamed files are named by its invoices
 * only once its whole body has arrived; every other file is stored in the transaction that names it.
 */
export const orphanFileAgeSeconds = (config: { UPLOAD_MAX_SECONDS: number }) =>
  Math.max(3600, 2 * config.UPLOAD_MAX_SECONDS);

/**
 * Removes the files (and their chunks) that no row names and that are older than `minAgeSeconds`
 * by the database's clock (the one that stamped them): what a process stopped while an upload
 * streamed in left behind. Returns how many went.
 */
export async function removeOrphanFiles(db: Executor, minAgeSeconds: number): Promise<number> {
  const named = FILE_REFERENCES.map(
    ([table, column]) => sql`not exists (select 1 from ${table} where ${column} = ${files.id})`,
  );
  const gone = await db
    .delete(files)
    .where(and(sql`${files.createdAt} < now() - ${minAgeSeconds}::int * interval '1 second'`, ...named))
    .returning({ id: files.id });
  return gone.length;
}
