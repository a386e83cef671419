import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The production source files: not tests or benchmarks, not under demo/ or test/ (where test helpers live). */
function productionFiles(): string[] {
  return fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.m?[jt]s$/.test(f) && !/\.(test|bench)\.ts$/.test(f) && !/^(demo|test)[\\/]/.test(f));
}

/** Module specifiers a file imports (static, dynamic and re-exports). */
function imports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

describe('demo apart', () => {
  it('production modules import neither demo/ nor test helpers; server.ts only the demo entry point', () => {
    const offending: string[] = [];
    for (const file of productionFiles()) {
      const dir = path.dirname(path.join(SRC, file));
      for (const spec of imports(fs.readFileSync(path.join(SRC, file), 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = path.relative(SRC, path.resolve(dir, spec)).split(path.sep).join('/');
        const demoEntry = file === 'server.ts' && target === 'demo/index.js';
        if (/^(demo|test)\//.test(target) && !demoEntry) {
          offending.push(`${file} → ${spec}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });

  it('finds an import of demo/ where there is one (the check itself works)', () => {
    const server = fs.readFileSync(path.join(SRC, 'server.ts'), 'utf8');
    expect(imports(server)).toContain('./demo/index.js');
  });
});
