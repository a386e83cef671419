import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { files } from '../db/schema/index.js';

/** A stored file as a `data:` URL (logos travel in the session this way), or null. */
export async function fileDataUrl(db: Executor, fileId: number | null): Promise<string | null> {
  if (!fileId) return null;
  const [f] = await db.select({ mime: files.mime, data: files.data }).from(files).where(eq(files.id, fileId));
  return f ? `data:${f.mime};base64,${f.data.toString('base64')}` : null;
}
