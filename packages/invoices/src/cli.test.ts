import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFinvoice } from './finvoice/parse.js';
import { generateFinvoice } from './generator/finvoice.js';
import { expectSameInvoice } from './test-helpers.js';

const CLI = fileURLToPath(new URL('../bin/kulu-invoice.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kulu-cli-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kulu-invoice parse of a Finvoice file', () => {
  for (const [charset, envelope] of [
    ['UTF-8', false],
    ['ISO-8859-15', true],
  ] as const) {
    it(`prints the parsed invoice as JSON indented by two spaces and a newline (${charset}${envelope ? ', envelope' : ''})`, () => {
      const g = generateFinvoice({
        operator: 'elisa',
        subscriptions: 30,
        seed: 77,
        rowStyle: 'heading',
        charset,
        envelope,
      });
      const file = join(dir, `elisa-${charset}.xml`);
      writeFileSync(file, g.xml);
      const run = spawnSync(process.execPath, [CLI, 'parse', file], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`${JSON.stringify(parseFinvoice(g.xml), null, 2)}\n`);
      expectSameInvoice(JSON.parse(run.stdout), g.expected, charset);
    });
  }
});

describe('kulu-invoice generate --format peppol, then parse (judged by content)', () => {
  it('writes a Peppol BIS 3 credit note and its expected JSON; parse reads it back to the same invoice', () => {
    const file = join(dir, 'telia-peppol.xml');
    const expectedFile = join(dir, 'telia-peppol.json');
    const generate = spawnSync(
      process.execPath,
      [
        CLI,
        'generate',
        '--format',
        'peppol',
        '--operator',
        'telia',
        '--subscriptions',
        '4',
        '--seed',
        '12',
        '--credit-note',
        '--invoice-charges',
        '--frame',
        '--out',
        file,
        '--expected',
        expectedFile,
      ],
      { encoding: 'utf8' },
    );
    expect(generate.status, generate.stderr).toBe(0);
    expect(generate.stderr).toMatch(/telia Peppol BIS 3 credit note .*SBDH frame/);
    const run = spawnSync(process.execPath, [CLI, 'parse', file], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')));
  });

  it('refuses an option of another format', () => {
    const run = spawnSync(
      process.execPath,
      [
        CLI,
        'generate',
        '--format',
        'peppol',
        '--operator',
        'elisa',
        '--subscriptions',
        '1',
        '--envelope',
        '--out',
        join(dir, 'x.xml'),
      ],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--envelope does not apply to --format peppol/);
  });
});
