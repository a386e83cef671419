// The README's "Generate an invoice and upload it" example, read from the README itself (so the two
// cannot drift): the command writes an invoice the demo company admin uploads and the app imports.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../test/helpers.js';
import { useInvoiceTestApp } from '../../test/fixtures.js';
import { settled, uploadFiles } from '../../test/uploads.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

const app = useInvoiceTestApp(600_000);

/** The README's example command: the `npm run invoice -- generate` line in the section's sh block. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('### Generate an invoice and upload it')[1]?.split(/\n#{2,3} /)[0];
  expect(section, 'the README has the section').toBeTruthy();
  const block = /```sh\n([\s\S]*?)```/.exec(section!)?.[1] ?? '';
  const command = block.split('\n').find((l) => l.startsWith('npm run invoice -- generate'));
  expect(command, 'the section shows the generate command').toBeTruthy();
  // The section says whom to upload it as: the demo company admin the test uploads as.
  expect(section).toContain(DEMO.companyAdmin);
  return command!;
}

describe("the README's generate-and-upload example", () => {
  it('writes an invoice the demo company admin uploads and the app imports for Pohjola Rakennus Oy', async () => {
    const command = await readmeExample();
    expect(command).toMatch(/--out \S+/);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kulu-readme-'));
    try {
      const out = path.join(dir, 'invoice.pdf');
      // As written, but the file goes to a directory of the test's own instead of the checkout.
      await promisify(execFile)('bash', ['-c', command.replace(/--out \S+/, `--out '${out}'`)], {
        cwd: ROOT,
        timeout: 120_000,
      });
      const res = await uploadFiles(app.t, app.tok.companyAdmin, [
        { name: 'pohjola-elisa.pdf', data: await readFile(out) },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      const done = await settled(app.t, app.tok.companyAdmin, res.json().results[0].invoiceId, 300_000);
      expect(done).toMatchObject({
        uploadState: 'uploaded',
        errorMessage: null,
        buyerName: 'Pohjola Rakennus Oy',
        buyerBusinessId: '2345678-0',
      });
      expect(done.lineCount).toBeGreaterThan(20);
      // Dated today: the invoice is of the current month, where the dashboards look first.
      expect(done.invoiceDate).toBe(app.t.deps.now().toISOString().slice(0, 10));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
