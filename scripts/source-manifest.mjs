// The list of the files the project tracks, written by the build beside the compiled server
// (apps/api/dist/source-files.json): the source archive of a server that runs without its git
// index (a copied build, an image) packs these files and no others (modules/about/source-archive.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The list the source archive carries beside its files (source-archive.ts ARCHIVE_LIST). */
export const ARCHIVE_LIST = '.source-files.json';

/**
 * The files `root` tracks (relative, with `/`): its git index, or, in an unpacked source archive
 * (no git index), the list the archive came with; null when neither is there.
 */
export function trackedFilesOf(root) {
  if (fs.existsSync(path.join(root, '.git'))) {
    const r = spawnSync('git', ['-c', `safe.directory=${root}`, 'ls-files', '-z', '--cached'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status === 0) return r.stdout.split('\0').filter(Boolean);
  }
  try {
    const list = JSON.parse(fs.readFileSync(path.join(root, ARCHIVE_LIST), 'utf8'));
    if (Array.isArray(list) && list.every((f) => typeof f === 'string')) return list;
  } catch {
    // no list either
  }
  return null;
}

/** Writes `outFile` (a JSON array of the tracked files of `root`); says so and writes none without one. */
export function writeSourceManifest(root, outFile) {
  const files = trackedFilesOf(root);
  if (!files) {
    console.warn(
      `build: no git index and no ${ARCHIVE_LIST} in ${root}: the server offers no source archive of its own (set SOURCE_URL)`,
    );
    return null;
  }
  fs.writeFileSync(outFile, `${JSON.stringify(files)}\n`);
  return files;
}
