import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  USERS,
  apiOf,
  clientIdOf,
  exportSheet,
  goto,
  inFinnish,
  login,
  onPage,
  pickOption,
  screenshot,
  tableRows,
  useBrowser,
} from './browser';

const browser = useBrowser();

/** A sub-company added to Pohjola Rakennus Oy through the API, as a script would (an activity log entry). */
async function addSubCompany(page: Page, name: string) {
  const api = await apiOf(page);
  const clientId = await clientIdOf(api, 'Pohjola');
  const res = await api(`/clients/${clientId}/sub-companies`, 'POST', { name, numberOfUsers: 2 });
  expect(res.status).toBe(201);
}

describe('activity log', () => {
  it(
    'an admin filters the changes by user, opens one and exports them; Finnish too',
    { timeout: 180_000 },
    async () => {
      await onPage(browser(), 'activity-log-consultant', async (page) => {
        await login(page, USERS.consultant);
        await addSubCompany(page, 'Lokiesimerkki Vaasa');
      });

      await onPage(browser(), 'activity-log', async (page) => {
        await login(page, USERS.admin);
        await addSubCompany(page, 'Lokiesimerkki Pori');
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

        await inFinnish(page, 'activity-log', 'Tapahtumaloki');
        await totals.getByText(/Käyttäjiä: 1 ·/).waitFor();
      });
    },
  );

  /** What a new sub-company's entry says, and how a time is written, in each language. */
  const WORDS = {
    en: {
      area: 'Clients',
      action: 'Created',
      kind: 'Sub-company',
      time: /\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\b/,
    },
    fi: {
      area: 'Asiakkaat',
      action: 'Lisätty',
      kind: 'Tytäryhtiö',
      time: /\b\d{1,2}\.\d{1,2}\.\d{4} klo \d{2}\.\d{2}\b/,
    },
  } as const;

  for (const lang of ['en', 'fi'] as const)
    for (const width of [1400, 390])
      it(
        `shows the area and action in words and the time as the app writes dates, no codes or ISO times (${lang}, ${width} px)`,
        { timeout: 180_000 },
        () =>
          onPage(browser(), `activity-log-words-${lang}-${width}`, async (page) => {
            await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
            await login(page, USERS.admin, undefined, lang);
            await addSubCompany(page, `Lokisanat ${lang} ${width}`);
            await goto(page, '/admin/reports/activity-log');
            const first = tableRows(page, 'activity-log-table').first();
            await first.getByText(`Lokisanat ${lang} ${width}`).waitFor();
            const text = await first.innerText();
            const words = WORDS[lang];
            expect(text).toContain(words.area);
            expect(text).toContain(words.action);
            expect(text).toContain(words.kind);
            expect(text).toMatch(words.time);
            expect(text).not.toMatch(
              /\bcreate\b|\bclients\b|\bsubCompany\b|\d{4}-\d{2}-\d{2}T|\d{2}\/\d{2}\/\d{4}/,
            );
            await screenshot(page, `activity-log-words-${lang}-${width}`);
          }),
      );
});
