import { describe, expect, it } from 'vitest';
import {
  USERS,
  baseUrl,
  exportSheet,
  goto,
  login,
  onPage,
  pickOption,
  screenshot,
  switchLanguage,
  tableRows,
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
      await onPage(browser(), 'activity-log-consultant', async (page) => {
        await login(page, USERS.consultant);
        await addSubCompany(await tokenOf(page), 'Lokiesimerkki Vaasa');
      });

      await onPage(browser(), 'activity-log', async (page) => {
        await login(page, USERS.admin);
        await addSubCompany(await tokenOf(page), 'Lokiesimerkki Pori');
        await goto(page, '/admin/reports/activity-log');
        const rows = tableRows(page, 'activity-log-table');
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
        const totals = page.getByTestId('activity-log-totals');
        await totals.getByText(/Users: 1 ·/).waitFor();

        // The row opens on what changed.
        await rows.first().locator('.ant-table-row-expand-icon').click();
        await page.getByTestId('activity-log-changes').getByText('Lokiesimerkki Vaasa').waitFor();
        await screenshot(page, 'activity-log-en');

        const { file, sheet } = await exportSheet(page, 'activity-log-export');
        expect(file.suggestedFilename()).toMatch(/^activity-log-\d{4}-\d{2}-\d{2}\.xlsx$/);
        const who = new Set<unknown>();
        for (let i = 2; i <= sheet.rowCount; i++) who.add(sheet.getRow(i).getCell(2).value);
        expect([...who]).toEqual(['Laura Nieminen']);

        await switchLanguage(page, 'fi');
        await page.getByText('Tapahtumaloki').first().waitFor();
        await totals.getByText(/Käyttäjiä: 1 ·/).waitFor();
        await screenshot(page, 'activity-log-fi');
      });
    },
  );
});
