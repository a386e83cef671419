import { describe, expect } from 'vitest';
import {
  USERS,
  euros,
  expectTopUsersSheet,
  exportSheet,
  inFinnish,
  pageTest,
  screenshot,
  tableRows,
  useBrowser,
} from './browser';

const browser = useBrowser();

/** "… · Total cost: €1,234.56" (English) → 1234.56 */
const totalCost = (text: string) => euros(text.split(':').pop()!);

describe('top users report', () => {
  pageTest(
    browser,
    'a company admin ranks the subscriptions, keeps only optimizable costs and exports; Finnish too',
    { shot: 'top-users', as: USERS.companyAdmin, path: '/company/report/top-users' },
    async (page) => {
      const rows = tableRows(page, 'top-users-table');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(5);
      expect((await rows.first().innerText()).startsWith('1')).toBe(true);
      const totals = page.getByTestId('top-users-totals');
      const all = totalCost(await totals.innerText());
      expect(all).toBeGreaterThan(0);
      await screenshot(page, 'top-users-en');

      // Only optimizable costs: the screen asks for them and shows that answer's total. (It need
      // not be smaller: credits and one-off charges that other tests upload are not optimizable.)
      const optimizable = page.waitForResponse(
        (r) => r.url().includes('/api/reports/top-users?') && r.url().includes('optimizableOnly=true'),
      );
      await page.getByTestId('top-users-optimizable').click();
      const answer = (await (await optimizable).json()) as { totals: { cost: string } };
      await expect.poll(async () => totalCost(await totals.innerText())).toBe(Number(answer.totals.cost));

      expectTopUsersSheet((await exportSheet(page, 'top-users-export')).sheet);

      await inFinnish(page, 'top-users', 'Vain optimoitavat kustannukset', /Kustannukset yhteensä/);
    },
  );
});
