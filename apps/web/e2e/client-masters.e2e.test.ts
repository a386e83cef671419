import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { USERS, pageTest, screenshot, switchLanguage, useBrowser } from './browser';

const browser = useBrowser();

/** A CSV of 20 users, rows 5 and 12 (the sheet's numbers) without a name or with a bad number. */
function usersFile(): string {
  const lines = ['Nimi;Puhelinnumero;Sähköposti;Puhelinetu'];
  for (let i = 0; i < 20; i++) {
    const row = i + 2;
    const name = row === 5 ? '' : `Tuotu Käyttäjä ${i}`;
    const phone = row === 12 ? 'ei numero' : `050 ${9000000 + i}`;
    lines.push([name, phone, `tuotu${i}@example.fi`, i % 2 ? 'kyllä' : 'ei'].join(';'));
  }
  const dir = join(tmpdir(), 'kulu-e2e-import');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'kayttajat.csv');
  writeFileSync(path, `\uFEFF${lines.join('\r\n')}\r\n`);
  return path;
}

describe('Invoice User Management', () => {
  pageTest(
    browser,
    'imports a file with bad rows through the preview, lists the users, and reads in Finnish',
    {
      shot: 'client-masters',
      as: USERS.companyAdmin,
      path: '/company/client-masters/invoice-user-management',
      timeout: 180_000,
    },
    async (page) => {
      await page.getByTestId('invoice-users').waitFor();
      await page.getByRole('button', { name: 'Import' }).click();
      await page.locator('.ant-modal input[type=file]').setInputFiles(usersFile());
      const preview = page.getByTestId('import-preview');
      await preview.waitFor({ timeout: 30_000 });
      await expect.poll(() => preview.innerText()).toContain('18 of 20 rows are valid');
      const text = await preview.innerText();
      expect(text).toContain('Name is required');
      expect(text).toContain('Phone number is invalid!');
      await screenshot(page, 'client-masters-import-preview-en');
      mkdirSync('/tmp/shots/client-masters', { recursive: true });
      await page.screenshot({ path: '/tmp/shots/client-masters/import-preview-en.png' });
      await page.getByRole('button', { name: 'Confirm import' }).click();
      await page.getByText('Users imported successfully').waitFor();
      await page.locator('.ant-input').first().fill('Tuotu');
      await expect.poll(() => page.getByTestId('invoice-users').innerText()).toContain('Tuotu Käyttäjä 19');
      await page.screenshot({ path: '/tmp/shots/client-masters/invoice-users-en.png' });
      await switchLanguage(page, 'fi');
      await expect.poll(() => page.getByTestId('invoice-users').innerText()).toContain('Puhelinnumero');
      await page.screenshot({ path: '/tmp/shots/client-masters/invoice-users-fi.png' });
    },
  );
});
