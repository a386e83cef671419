import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  USERS,
  baseUrl,
  goto,
  login,
  openPage,
  pickOption,
  screenshot,
  switchLanguage,
  tokenOf,
  useBrowser,
} from './browser';

const browser = useBrowser();

/** A sub-company added to Pohjola Rakennus Oy through the API, as a script would (an activity log entry). */
async function addSubCompany(token: string, name: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const list = await fetch(`${baseUrl()}/api/clients?q=Pohjola`, { headers });
  const clientId = ((await list.json()) as { items: Array<{ id: number }> }).items[0]!.id;
  const res = await fetch(`${baseUrl()}/api/clients/${clientId}/sub-companies`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name, numberOfUsers: 2 }),
  });
  expect(res.status).toBe(201);
}

describe('activity log', () => {
  it(
    'an admin filters the changes by user, opens one and exports them; Finnish too',
    { timeout: 180_000 },
    async () => {
      const consultant = await openPage(browser());
      await login(consultant.page, USERS.consultant);
      await addSubCompany(await tokenOf(consultant.page), 'Lokiesimerkki Vaasa');
      await consultant.context.close();

      const { context, page, errors } = await openPage(browser());
      await login(page, USERS.admin);
      await addSubCompany(await tokenOf(page), 'Lokiesimerkki Pori');
      await goto(page, '/admin/reports/activity-log');
      const rows = page.getByTestId('activity-log-table').locator('tr.ant-table-row');
      await expect
        .poll(() => rows.allInnerTexts())
        .toEqual(
          expect.arrayContaining([
            expect.stringContaining('Aino Kulu'),
            expect.stringContaining('Laura Nieminen'),
          ]),
        );

      await page.getByTestId('activity-log-user').click();
      await pickOption(page, 'Laura Nieminen');
      await expect
        .poll(async () => (await rows.allInnerTexts()).every((r) => r.includes('Laura Nieminen')))
        .toBe(true);
      expect(await rows.count()).toBeGreaterThanOrEqual(1);
      await page
        .getByTestId('activity-log-totals')
        .getByText(/Users: 1 ·/)
        .waitFor();

      // The row opens on what changed.
      await rows.first().locator('.ant-table-row-expand-icon').click();
      await page.getByTestId('activity-log-changes').getByText('Lokiesimerkki Vaasa').waitFor();
      await screenshot(page, 'activity-log-en');

      const download = page.waitForEvent('download');
      await page.getByTestId('activity-log-export').click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^activity-log-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile((await file.path())!);
      const ws = wb.worksheets[0]!;
      const who = new Set<unknown>();
      for (let i = 2; i <= ws.rowCount; i++) who.add(ws.getRow(i).getCell(2).value);
      expect([...who]).toEqual(['Laura Nieminen']);

      await switchLanguage(page, 'fi');
      await page.getByText('Tapahtumaloki').first().waitFor();
      await page
        .getByTestId('activity-log-totals')
        .getByText(/Käyttäjiä: 1 ·/)
        .waitFor();
      await screenshot(page, 'activity-log-fi');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
