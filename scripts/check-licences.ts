// Fails unless every production dependency (every package in package-lock.json that is not a dev
// dependency) carries a licence that can ship inside Kulu, an AGPL-3.0-or-later program. A licence
// missing from the lock file counts as unknown and fails too, unless it was reviewed by hand below.
// Usage: npx tsx scripts/check-licences.ts [path/to/package-lock.json] (npm run licences)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Licences (SPDX ids) whose code may be distributed as part of an AGPL-3.0-or-later program. */
export const ALLOWED = new Set([
  '0BSD',
  'AGPL-3.0-or-later',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC0-1.0',
  'GPL-3.0-or-later',
  'ISC',
  'LGPL-3.0-or-later',
  'MIT',
  'MIT-0',
  'MPL-2.0',
  'Python-2.0',
  'Unlicense',
  'Zlib',
]);

/** Spellings seen in package.json files for an allowed SPDX id. */
const ALIASES: Record<string, string> = { 'MIT/X11': 'MIT' };

/** Packages whose lock entry names no licence, each read by hand: what it is and where it says so. */
export const REVIEWED: Record<string, { licence: string; evidence: string }> = {
  'buffers@0.1.1': { licence: 'MIT', evidence: 'LICENSE in its repository (substack/node-buffers)' },
  'png-js@2.0.0': { licence: 'MIT', evidence: 'LICENSE file in the package' },
};

/** Whether an SPDX expression (ids joined by OR / AND, with parentheses) is allowed. */
export function allowed(expression: string): boolean {
  const tokens = expression
    .replace(/[()]/g, (p) => ` ${p} `)
    .trim()
    .split(/\s+/);
  let i = 0;
  const primary = (): boolean => {
    const tok = tokens[i++];
    if (tok === '(') {
      const v = orExpr();
      if (tokens[i++] !== ')') throw new Error(`unbalanced parentheses in "${expression}"`);
      return v;
    }
    if (!tok || tok === ')' || tok === 'OR' || tok === 'AND') throw new Error(`cannot read "${expression}"`);
    return ALLOWED.has(ALIASES[tok] ?? tok);
  };
  const andExpr = (): boolean => {
    let v = primary();
    while (tokens[i] === 'AND') {
      i++;
      v = primary() && v;
    }
    return v;
  };
  const orExpr = (): boolean => {
    let v = andExpr();
    while (tokens[i] === 'OR') {
      i++;
      v = andExpr() || v;
    }
    return v;
  };
  const v = orExpr();
  if (i !== tokens.length) throw new Error(`cannot read "${expression}"`);
  return v;
}

/** Problems in a package-lock.json (v2/v3): production packages whose licence is refused or unknown. */
interface LockEntry {
  name?: string;
  version?: string;
  license?: string;
  dev?: boolean;
  link?: boolean;
}

export function checkLock(lock: { packages?: Record<string, LockEntry> }): {
  count: number;
  problems: string[];
} {
  const problems: string[] = [];
  let count = 0;
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (key === '' || entry.dev || entry.link) continue;
    count++;
    const name = entry.name ?? key.replace(/^.*node_modules\//, '');
    const id = `${name}@${entry.version ?? '?'}`;
    const licence = entry.license ?? REVIEWED[id]?.licence;
    if (!licence) {
      problems.push(`${id} (${key}): no licence stated`);
      continue;
    }
    let ok: boolean;
    try {
      ok = allowed(licence);
    } catch (e) {
      problems.push(`${id}: ${(e as Error).message}`);
      continue;
    }
    if (!ok) problems.push(`${id}: ${licence} is not on the allow-list`);
  }
  return { count, problems };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const file = process.argv[2] ?? path.join(root, 'package-lock.json');
  const { count, problems } = checkLock(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (problems.length) {
    console.error(
      `Licences: ${problems.length} of ${count} production packages cannot ship in Kulu (AGPL-3.0-or-later):`,
    );
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log(`Licences: all ${count} production packages can ship inside an AGPL-3.0-or-later program.`);
}
