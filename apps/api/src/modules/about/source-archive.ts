import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { pack as tarPack, type Header } from 'tar-stream';

/**
 * The Corresponding Source that AGPL §13 asks Kulu to offer its network users: the files the
 * project tracks, packed as a .tar.gz. Which files is never guessed from the folders on disk (a
 * data directory under another name, an untracked `.env`, `.npmrc`, key or log would go out with
 * them): it is the git index of the checkout the server runs from, or, without one, the manifest
 * the build wrote from it (SOURCE_MANIFEST). Nothing under DATA_DIR goes in, whatever the list says,
 * nor a symbolic link or a file outside the checkout. The lock file names every dependency at its
 * version, and those are published sources already.
 */

/** The manifest `npm run build` writes (scripts/build.mjs): the tracked files, relative to the root. */
export const SOURCE_MANIFEST = 'apps/api/dist/source-files.json';
/** The list of the archive's own files, packed beside them: a build from the unpacked archive (no
 * git index there) writes its manifest from it. */
export const ARCHIVE_LIST = '.source-files.json';

/**
 * Names never packed even when a list names them: a secret committed by mistake, or a manifest
 * edited by hand, stays on the server.
 */
const NEVER =
  /(^|\/)(\.git|node_modules)\/|(^|\/)(\.env(\.[^/]*)?|\.npmrc|\.pgpass|[^/]*\.(pem|key|p12|pfx|log))$/;
const ALLOWED_TEMPLATE = /(^|\/)\.env\.example$/;

/** The checkout's root: the nearest folder above `from` whose package.json is the workspace root. */
export function findSourceRoot(from = path.dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'kulu') return dir;
    } catch {
      // no package.json here
    }
    if (path.dirname(dir) === dir) return null;
  }
}

const run = promisify(execFile);

/** The files in the git index of `root` (relative, with `/`), or null without a usable index. */
async function gitIndex(root: string): Promise<string[] | null> {
  if (!fs.existsSync(path.join(root, '.git'))) return null;
  try {
    const { stdout } = await run('git', ['-c', `safe.directory=${root}`, 'ls-files', '-z', '--cached'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.split('\0').filter(Boolean);
  } catch {
    return null; // no git program, or not a repository after all: the manifest decides
  }
}

/** The build's manifest (a JSON array of relative paths), or null when there is none. */
async function manifest(root: string): Promise<string[] | null> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(root, SOURCE_MANIFEST), 'utf8');
  } catch {
    return null;
  }
  const list: unknown = JSON.parse(text);
  if (!Array.isArray(list) || !list.every((f) => typeof f === 'string'))
    throw new Error(`${SOURCE_MANIFEST} is not a list of paths`);
  return list as string[];
}

/** Where the list of files came from, and the list. */
export interface SourceList {
  from: 'git' | 'manifest';
  files: string[];
}

/**
 * The tracked files of `root`: its git index when it has one, else the build's manifest; null when
 * neither is there (the server then offers no archive of its own: set SOURCE_URL).
 */
export async function trackedFiles(root: string): Promise<SourceList | null> {
  const git = await gitIndex(root);
  if (git) return { from: 'git', files: git };
  const listed = await manifest(root);
  return listed ? { from: 'manifest', files: listed } : null;
}

const inside = (dir: string, file: string) => file === dir || file.startsWith(dir + path.sep);

/** A regular file to pack: opened without following a final symbolic link, inside the root and
 * outside DATA_DIR once every link on its way is resolved. */
async function openPackable(
  root: string,
  dataDir: string | undefined,
  rel: string,
): Promise<fs.promises.FileHandle | null> {
  if (
    path.isAbsolute(rel) ||
    rel.split('/').includes('..') ||
    (NEVER.test(rel) && !ALLOWED_TEMPLATE.test(rel))
  )
    return null;
  const abs = path.join(root, rel);
  let real: string;
  try {
    real = await fs.promises.realpath(abs);
  } catch {
    return null; // in the index, deleted from the work tree
  }
  if (!inside(root, real) || (dataDir && (inside(dataDir, real) || inside(dataDir, abs)))) return null;
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return null; // a symbolic link, or gone meanwhile
  }
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  return null;
}

/** Resolves a directory to its real path (it may not exist yet: then as given, absolute). */
function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/**
 * Writes the source of `root` as a gzip-compressed tar to `out`, every entry under `kulu/`, plus
 * ARCHIVE_LIST naming them. Every read and the compression run off the event loop (file streams,
 * zlib on the thread pool); one file's bytes at a time are in memory. Returns the packed paths.
 */
export async function writeSourceArchive(
  root: string,
  out: string,
  opts: { dataDir?: string } = {},
): Promise<string[]> {
  const list = await trackedFiles(root);
  if (!list) throw new NoSourceListError(root);
  const realRoot = realDir(root);
  const dataDir = opts.dataDir ? realDir(opts.dataDir) : undefined;
  const pack = tarPack();
  const written = pipeline(pack, createGzip({ level: 9 }), fs.createWriteStream(out, { mode: 0o600 }));
  const packed: string[] = [];
  const add = (header: Partial<Header> & Pick<Header, 'name'>, body: fs.ReadStream | Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (Buffer.isBuffer(body)) {
        pack.entry(header, body, (e) => (e ? reject(e) : resolve()));
        return;
      }
      const entry = pack.entry(header, (e) => (e ? reject(e) : resolve()));
      body.once('error', reject);
      body.pipe(entry);
    });
  try {
    for (const rel of [...new Set(list.files)].sort()) {
      const handle = await openPackable(realRoot, dataDir, rel);
      if (!handle) continue;
      const stat = await handle.stat();
      // The stream closes the handle when it ends or fails.
      await add(
        { name: `kulu/${rel}`, size: stat.size, mtime: stat.mtime, mode: 0o644, type: 'file' },
        handle.createReadStream(),
      );
      packed.push(rel);
    }
    await add(
      { name: `kulu/${ARCHIVE_LIST}`, mode: 0o644, mtime: new Date(), type: 'file' },
      Buffer.from(`${JSON.stringify(packed, null, 1)}\n`),
    );
    pack.finalize();
  } catch (e) {
    pack.destroy(e as Error);
    await written.catch(() => undefined);
    throw e;
  }
  await written;
  return packed;
}

/** Neither a git index nor a manifest beside the server: it cannot tell which files are the source. */
export class NoSourceListError extends Error {
  constructor(root: string) {
    super(`no git index and no ${SOURCE_MANIFEST} in ${root}`);
  }
}

/**
 * The archive of one server process: built once, on the first request, into a private temporary
 * folder, while the server goes on answering; every later download streams that file. A failed
 * build is forgotten, so the next request tries again.
 */
export class SourceArchiveCache {
  private building: Promise<string> | null = null;
  private dir: string | null = null;

  constructor(
    private readonly root: string,
    private readonly dataDir: string | undefined,
  ) {}

  /** The archive's path, built if it is not yet. */
  file(): Promise<string> {
    this.building ??= this.build().catch((e: unknown) => {
      this.building = null;
      throw e;
    });
    return this.building;
  }

  private async build(): Promise<string> {
    this.dir ??= await fs.promises.mkdtemp(path.join(os.tmpdir(), 'kulu-source-'));
    const out = path.join(this.dir, 'kulu-source.tar.gz');
    await writeSourceArchive(this.root, `${out}.part`, { dataDir: this.dataDir });
    await fs.promises.rename(`${out}.part`, out);
    return out;
  }

  /** Removes the temporary folder (the server's shutdown). */
  async close(): Promise<void> {
    await this.building?.catch(() => undefined);
    const dir = this.dir;
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
    this.dir = null;
    this.building = null;
  }
}
