import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Rules of the API's code that no linter holds (issue 38, docs/decisions/0031-invoice-pipeline.md),
 * checked over its sources (test files excluded).
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
/** The longest a function of the API may be (declarations, methods, arrow functions, expressions). */
export const MAX_FUNCTION_LINES = 150;

function sources(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' ? [] : sources(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

/** `file:line name (n lines)` of each function of `text` longer than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const lines = sf.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      const name = node.name?.getText(sf) ?? ts.SyntaxKind[node.kind];
      if (lines > max) found.push(`${file}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const rel = (f: string) => path.relative(SRC, f).split(path.sep).join('/');

describe("the API's code rules", () => {
  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const found = sources().flatMap((f) => longFunctions(rel(f), fs.readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('counts the lines of every kind of function, nested ones too', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  x${i}();`).join('\n');
    const text = [
      `export function outer() {\n${body(140)}\n  const inner = () => {\n${body(150)}\n  };\n}`,
      `class A {\n  m() {\n${body(148)}\n  }\n}`,
    ].join('\n');
    expect(longFunctions('a.ts', text)).toEqual([
      'a.ts:1 outer (294 lines)',
      'a.ts:142 ArrowFunction (152 lines)',
    ]);
  });

  it("reads and writes the queue's own tables only through lib/queue.ts", () => {
    // db/ copies the pgboss schema as a whole (backups, the embedded database); no one else names it.
    const named = sources()
      .map(rel)
      .filter((f) => f !== 'lib/queue.ts' && !f.startsWith('db/'))
      .filter((f) => /\bpgboss\./.test(fs.readFileSync(path.join(SRC, f), 'utf8')));
    expect(named).toEqual([]);
  });

  it('keeps only the composition of the jobs in jobs/', () => {
    const files = fs.readdirSync(path.join(SRC, 'jobs')).filter((f) => !f.endsWith('.test.ts'));
    expect(files.sort()).toEqual(['follow-up-worker.ts', 'index.ts']);
  });
});
