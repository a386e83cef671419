// The file walker of the build's source hash (scripts/build.mjs) and of the server's Corresponding
// Source archive (apps/api/src/modules/about/source-archive.ts).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Adds to `out` the files at or below `rel` (a `/`-separated path under `root`), in name order, as
 * paths relative to `root`. Whatever `skip(childPath, name)` names below `rel` is left out with all
 * below it; a symbolic link is neither followed nor listed, and a missing path adds nothing.
 *
 * @param {string} root
 * @param {string} rel
 * @param {(child: string, name: string) => boolean} skip
 * @param {string[]} out
 * @returns {string[]} `out`
 */
export function filesUnder(root, rel, skip, out = []) {
  const abs = path.join(root, rel);
  let stat;
  try {
    stat = fs.lstatSync(abs);
  } catch {
    return out;
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      if (!skip(child, name)) filesUnder(root, child, skip, out);
    }
  } else if (stat.isFile()) out.push(rel);
  return out;
}
