import { describe, expect, it } from 'vitest';
import {
  USERS,
  baseUrl,
  euros,
  exportSheet,
  goto,
  inFinnish,
  login,
  onPage,
  screenshot,
  tableRows,
  tokenOf,
  useBrowser,
} from './browser';

const browser = useBrowser();

describe('overcharged plans report', () => {
  it(
    'a company admin sees the months billed above the plan price with the sum to claim back, exports them; Finnish too',
    { timeout: 180_000 },
    () =>
      onPage(browser(), 'overcharged', async (page) => {
        await login(page, USERS.companyAdmin);
        // The company agrees a lower contract price for one plan (Plan Details, as a script would):
        // the months the operator billed above it become overcharges.
        const headers = {
          authorization: `Bearer ${await tokenOf(page)}`,
          'content-type': 'application/json',
        };
        const details = (await (
          await fetch(`${baseUrl()}/api/plan-details?pageSize=1`, { headers })
        ).json()) as {
          items: Array<{ subscriptionId: number; planId: number }>;
        };
        const [first] = details.items;
        const saved = await fetch(`${baseUrl()}/api/plan-details/${first!.subscriptionId}`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ planId: first!.planId, contractPrice: '1.00' }),
        });
        expect(saved.status).toBe(200);
        await goto(page, '/company/report/overcharged-plans');
        const totals = page.getByTestId('overcharged-totals');
        await totals.getByText(/Lines: \d+/).waitFor({ timeout: 30_000 });
        const lines = Number(/Lines: (\d+)/.exec(await totals.innerText())![1]);
        expect(lines).toBeGreaterThan(0);
        const cells = await tableRows(page, 'overcharged-table').first().locator('td').allInnerTexts();
        const [expected, billed, difference] = cells.slice(4, 7).map(euros);
        expect(difference).toBeGreaterThan(0);
        expect(Math.round((billed! - expected!) * 100)).toBe(Math.round(difference! * 100));
        await screenshot(page, 'overcharged-en');

        const { sheet } = await exportSheet(page, 'overcharged-export');
        expect(sheet.getRow(1).getCell(7).value).toBe('Difference (€)');
        expect(sheet.rowCount - 1).toBeGreaterThanOrEqual(Math.min(lines, 1));

        await inFinnish(page, 'overcharged', /Takaisin perittävää/);
      }),
  );
});
