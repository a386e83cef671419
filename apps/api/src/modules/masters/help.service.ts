import { and, eq } from 'drizzle-orm';
import { HELP_FILE_MAX_BYTES, LANGUAGE } from '@kulu/shared';
import { files, helpFiles } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { AuthUser } from '../../types.js';

/** The document types a help file may be, told by content (never by name or header). */
export function sniffHelpFile(data: Buffer): { mime: string; ext: string } | null {
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return { mime: 'application/pdf', ext: 'pdf' };
  if (data.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex')))
    return { mime: 'application/msword', ext: 'doc' };
  if (data.subarray(0, 4).equals(Buffer.from('504b0304', 'hex')) && data.includes('word/')) {
    return { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' };
  }
  return null;
}

const safeFileName = (name: string, ext: string) => {
  const base =
    (name.split(/[\\/]/).pop() ?? '')
      .replace(/[^\p{L}\p{N} ._()-]/gu, '_')
      .replace(/\.[^.]*$/, '')
      .trim()
      .slice(0, 150) || 'help';
  return `${base}.${ext}`;
};

export interface HelpUpload {
  roleId: number;
  page: string;
  languageId: number;
  fileName: string;
  data: Buffer;
}

/** Stores the help of a role, page and language; a new upload replaces the old file. */
export async function saveHelpFile(db: Db, upload: HelpUpload): Promise<number> {
  if (upload.data.length > HELP_FILE_MAX_BYTES) throw new AppError(400, 'helpFileTooLarge');
  const kind = sniffHelpFile(upload.data);
  if (!kind) throw new AppError(400, 'helpFileType');
  return db.transaction(async (tx) => {
    const [file] = await tx
      .insert(files)
      .values({
        kind: 'help',
        name: safeFileName(upload.fileName, kind.ext),
        mime: kind.mime,
        size: upload.data.length,
        data: upload.data,
      })
      .returning({ id: files.id });
    const key = and(
      eq(helpFiles.roleId, upload.roleId),
      eq(helpFiles.page, upload.page),
      eq(helpFiles.languageId, upload.languageId),
    );
    const [old] = await tx.select().from(helpFiles).where(key);
    if (old) {
      await tx
        .update(helpFiles)
        .set({ fileId: file.id, createdAt: new Date() })
        .where(eq(helpFiles.id, old.id));
      await tx.delete(files).where(eq(files.id, old.fileId));
      return old.id;
    }
    const [row] = await tx
      .insert(helpFiles)
      .values({ roleId: upload.roleId, page: upload.page, languageId: upload.languageId, fileId: file.id })
      .returning({ id: helpFiles.id });
    return row.id;
  });
}

/** The help of a page for the caller's role, in their language, else in English. */
export async function helpForPage(db: Db, me: AuthUser, page: string) {
  const rows = await db
    .select({
      id: helpFiles.id,
      languageId: helpFiles.languageId,
      fileName: files.name,
      mime: files.mime,
      size: files.size,
    })
    .from(helpFiles)
    .innerJoin(files, eq(files.id, helpFiles.fileId))
    .where(and(eq(helpFiles.roleId, me.roleId), eq(helpFiles.page, page)));
  const pick =
    rows.find((r) => r.languageId === me.languageId) ?? rows.find((r) => r.languageId === LANGUAGE.en);
  if (!pick) throw notFound();
  return { ...pick, url: `/api/help/${pick.id}/file` };
}

/** A help file's content; `me` limits it to the caller's role (404 otherwise). */
export async function helpFileContent(db: Db, id: number, me?: AuthUser) {
  const [row] = await db
    .select({ name: files.name, mime: files.mime, data: files.data, roleId: helpFiles.roleId })
    .from(helpFiles)
    .innerJoin(files, eq(files.id, helpFiles.fileId))
    .where(eq(helpFiles.id, id));
  if (!row || (me && row.roleId !== me.roleId)) throw notFound();
  return row;
}
