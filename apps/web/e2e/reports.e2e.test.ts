import { describe, expect } from 'vitest';
import type ExcelJS from 'exceljs';
import type { Download, Locator, Page } from 'playwright-core';
import {
  USERS,
  addClient,
  apiOf,
  clientIdOf,
  euros,
  expectTopUsersSheet,
  exportSheet,
  goto,
  inFinnish,
  pageTest,
  pickOption,
  screenshot,
  tableLoaded,
  tableRows,
  useBrowser,
} from './browser';

const browser = useBrowser();

/**
 * A report page's test, one shape for all of them: `as` signs in (data made through the API first,
 * when `prepare` makes some), opens `path` (its `heading` shown); `show` checks the page, the picture `<shot>-en`; `act`
 * works on it; the export's workbook is checked; in Finnish `finnish` shows, the picture
 * `<shot>-fi`; `after` checks what is left.
 */
interface Report {
  report: string;
  title: string;
  shot: string;
  as: string;
  path: string;
  /** The page's heading, waited for before `show`. */
  heading?: string;
  prepare?: (page: Page) => Promise<void>;
  show: (page: Page) => Promise<void>;
  act?: (page: Page) => Promise<void>;
  exports?: {
    /** The export button's test id, or the button. */
    button: string | ((page: Page) => Locator);
    check: (sheet: ExcelJS.Worksheet, page: Page, file: Download) => Promise<void> | void;
  };
  finnish: Array<string | RegExp>;
  after?: (page: Page) => Promise<void>;
}

/** The number after `label` in a totals line ("Lines: 12 · …" → 12). */
const figure = async (page: Page, testId: string, label: string) =>
  Number(new RegExp(`${label}: (\\d+)`).exec(await page.getByTestId(testId).innerText())![1]);

/** "… · Total cost: €1,234.56" (English) → 1234.56 */
const totalCost = (text: string) => euros(text.split(':').pop()!);

/** The sum of the last cells (euros) of `rows`. */
const lastCellSum = async (rows: Locator) =>
  (await rows.allInnerTexts()).map((r) => euros(r.split('\t').pop()!)).reduce((a, b) => a + b, 0);

const cents = (n: number) => Math.round(n * 100);

/** The consultant billing test's consultant, made by its `prepare`. */
let consultant = '';

/** The newest export of the report archive. */
const newestExport = (page: Page) => page.locator('tr.ant-table-row').first();

const REPORTS: Report[] = [
  {
    report: 'client contracts report',
    title: 'an admin lists the active contracts with their costs and exports them; Finnish too',
    shot: 'client-contracts',
    as: USERS.admin,
    path: '/admin/reports/client-contracts',
    async show(page) {
      const rows = tableRows(page, 'client-contracts-table');
      await expect
        .poll(() => rows.allInnerTexts(), { timeout: 30_000 })
        .toEqual(expect.arrayContaining([expect.stringContaining('Pohjola Rakennus Oy')]));
      await page.getByTestId('client-contracts-state').getByText('Active', { exact: true }).click();
      await expect
        .poll(async () => (await rows.allInnerTexts()).every((r) => r.includes('Active')), {
          timeout: 15_000,
        })
        .toBe(true);
      // The demo contract: 160 plans on the standard plan, €333.00 a month.
      const pohjola = rows.filter({ hasText: 'Pohjola Rakennus Oy' }).first();
      expect(await pohjola.innerText()).toContain('€333.00');
      await page
        .getByTestId('client-contracts-totals')
        .getByText(/Contracts: \d+/)
        .waitFor();
    },
    exports: {
      button: 'client-contracts-export',
      async check(sheet, page) {
        expect(sheet.getRow(1).getCell(2).value).toBe('Business ID');
        expect(sheet.rowCount - 1).toBe(await tableRows(page, 'client-contracts-table').count());
      },
    },
    finnish: [/Sopimuksia: \d+/],
  },
  {
    report: 'automation reports (admin)',
    title: 'shows the automated clients and opens the automation settings; Finnish too',
    shot: 'full-automation',
    as: USERS.admin,
    path: '/admin/reports/full-automation',
    heading: 'Full Automation',
    async show(page) {
      await tableLoaded(page, 'full-automation-table');
      await page.getByTestId('automate-client').click();
      const modal = page.getByTestId('automation-settings-modal');
      await modal.waitFor();
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
    },
    finnish: ['Täysautomaatio'],
  },
  {
    report: 'automation reports (admin)',
    title: 'shows the failed downloads; Finnish too',
    shot: 'failed-downloads',
    as: USERS.admin,
    path: '/admin/reports/failed-invoice-download',
    heading: 'Failed Invoice Download',
    show: (page) => tableLoaded(page, 'failed-downloads-table'),
    finnish: ['Epäonnistuneet laskujen noudot'],
    after: (page) => page.getByRole('heading', { name: 'Epäonnistuneet laskujen noudot' }).waitFor(),
  },
  {
    report: 'consultant billing',
    title:
      "an admin picks a consultant and a month, sees each managed company's billing with a totals row and exports it; Finnish too",
    shot: 'consultant-billing',
    as: USERS.admin,
    path: '/admin/reports/consultant-billing',
    // A consultant (a client of type consultant) on a billing plan, managing both demo companies.
    async prepare(page) {
      const api = await apiOf(page);
      const pohjola = await clientIdOf(api, 'Pohjola');
      const saimaa = await clientIdOf(api, 'Saimaan');
      const billing = await api.get<{ plans: Array<{ id: number }> }>(`/clients/${pohjola}/billing`);
      consultant = `Mobile Advisors ${Date.now().toString(36)} Oy`;
      const id = await addClient(api, {
        kind: 'consultant',
        companyName: consultant,
        email: `billing-${Date.now()}@advisors.test`,
        adminName: 'Aino Advisor',
        billingPlanId: billing.plans[0]!.id,
      });
      const assigned = await api(`/clients/${id}/assigned-companies`, 'PUT', {
        clientIds: [pohjola, saimaa],
      });
      expect(assigned.status).toBe(200);
    },
    async show(page) {
      await page.getByTestId('consultant-billing-page').waitFor();
      await page.getByTestId('consultant-billing-consultant').click();
      await pickOption(page, consultant);
      const rows = tableRows(page, 'consultant-billing-table');
      await expect.poll(() => rows.count()).toBe(2);
      await rows.filter({ hasText: 'Pohjola Rakennus Oy' }).waitFor();
      await rows.filter({ hasText: 'Saimaan Logistiikka Oy' }).waitFor();
      // Both were assigned this month: new, with the set-up fee.
      expect(await rows.locator('.ant-tag').filter({ hasText: 'Yes' }).count()).toBe(2);
      const totals = page.getByTestId('consultant-billing-totals');
      await expect.poll(async () => (await totals.innerText()).includes('€')).toBe(true);
    },
    exports: {
      button: 'consultant-billing-export',
      check(sheet) {
        expect(sheet.getRow(1).getCell(3).value).toBe('Company');
        expect(sheet.rowCount).toBe(4); // header, two companies, totals
        expect(sheet.getRow(4).getCell(1).value).toBe('Total');
      },
    },
    finnish: ['Lisäkäyttäjiä', 'Yhteensä'],
  },
  {
    report: 'report archive / downloads',
    title:
      'a company admin schedules an export, sees it turn Ready, downloads it and the file opens; Finnish too',
    shot: 'downloads',
    as: USERS.companyAdmin,
    path: '/company/report/downloads',
    async show(page) {
      await page.getByTestId('downloads-page').waitFor();
      // The executive report is listed as coming soon and cannot be chosen.
      await page.getByTestId('export-kind').click();
      await expect
        .poll(() =>
          page
            .locator('.ant-select-dropdown:visible .ant-select-item-option-disabled')
            .filter({ hasText: 'Executive report' })
            .count(),
        )
        .toBe(1);
      await pickOption(page, 'Top users');
      // The period starts at the reports' default, the twelve months up to the latest invoice
      // month, and that is what is scheduled.
      // (the range picker gives each of its two inputs the test id)
      const months = page.getByTestId('export-period');
      await expect.poll(() => months.nth(1).inputValue()).toMatch(/^\d{4}-\d{2}$/);
      const [from, to] = [await months.nth(0).inputValue(), await months.nth(1).inputValue()];
      const span = (a: string, b: string) =>
        (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5)) - Number(a.slice(5));
      expect(span(from, to)).toBe(11);
      await page.getByTestId('export-schedule').click();

      // The new export shows first: Scheduled, then Ready with its download date.
      const first = newestExport(page);
      await first.getByText('Top users').waitFor();
      await first.getByText(`${from} – ${to}`).waitFor();
      await expect.poll(() => first.getByText('Ready').count(), { timeout: 60_000 }).toBe(1);
    },
    exports: {
      button: (page) => newestExport(page).getByRole('button', { name: /Download/ }),
      check(sheet, _page, file) {
        expect(file.suggestedFilename()).toMatch(/^top-users-.*\.xlsx$/);
        expectTopUsersSheet(sheet);
      },
    },
    finnish: ['Ajasta raportti'],
    async after(page) {
      const first = newestExport(page);
      await first.getByText('Valmis').waitFor();
      // Deleting asks first, then the export is gone.
      const count = await page.locator('tr.ant-table-row').count();
      await first.getByRole('button', { name: /Poista/ }).click();
      await page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: /Poista/ })
        .click();
      await expect.poll(() => page.locator('tr.ant-table-row').count()).toBe(count - 1);
    },
  },
  {
    report: 'overcharged plans report',
    title:
      'a company admin sees the months billed above the plan price with the sum to claim back, exports them; Finnish too',
    shot: 'overcharged',
    as: USERS.companyAdmin,
    path: '/company/report/overcharged-plans',
    // The company agrees a lower contract price for one plan (Plan Details, as a script would): the
    // months the operator billed above it become overcharges.
    async prepare(page) {
      const api = await apiOf(page);
      const details = await api.get<{ items: Array<{ subscriptionId: number; planId: number }> }>(
        '/plan-details?pageSize=1',
      );
      const [first] = details.items;
      const saved = await api(`/plan-details/${first!.subscriptionId}`, 'PUT', {
        planId: first!.planId,
        contractPrice: '1.00',
      });
      expect(saved.status).toBe(200);
    },
    async show(page) {
      await page
        .getByTestId('overcharged-totals')
        .getByText(/Lines: \d+/)
        .waitFor({ timeout: 30_000 });
      expect(await figure(page, 'overcharged-totals', 'Lines')).toBeGreaterThan(0);
      const cells = await tableRows(page, 'overcharged-table').first().locator('td').allInnerTexts();
      const [expected, billed, difference] = cells.slice(4, 7).map(euros);
      expect(difference).toBeGreaterThan(0);
      expect(cents(billed! - expected!)).toBe(cents(difference!));
    },
    exports: {
      button: 'overcharged-export',
      async check(sheet, page) {
        expect(sheet.getRow(1).getCell(7).value).toBe('Difference (€)');
        const lines = await figure(page, 'overcharged-totals', 'Lines');
        expect(sheet.rowCount - 1).toBeGreaterThanOrEqual(Math.min(lines, 1));
      },
    },
    finnish: [/Takaisin perittävää/],
  },
  {
    report: 'base plan types report',
    title: 'a consultant picks a client and sees its cost per plan group as a chart and a table; Finnish too',
    shot: 'plan-types',
    as: USERS.consultant,
    path: '/admin/reports/base-plan-types',
    async show(page) {
      await page.getByTestId('plan-types-client').click();
      await pickOption(page, 'Pohjola Rakennus Oy');
      await page
        .getByTestId('plan-types-totals')
        .getByText(/Subscriptions: \d+/)
        .waitFor({ timeout: 30_000 });
      await page.getByTestId('plan-types-chart').locator('canvas').first().waitFor();
    },
    // The table view: a row per group, the costs add up to the total.
    async act(page) {
      await page.getByTestId('plan-types-chart-view').locator('.ant-segmented-item').nth(1).click();
      const rows = page.getByTestId('plan-types-chart').locator('tr.ant-table-row');
      await expect.poll(() => rows.count()).toBeGreaterThan(1);
      // "Subscriptions: n · Invoice-level charges: −€x · Total cost: €y": the rows and the
      // invoice-level charges (signed) make the total.
      const [, invoiceLevel, total] = (await page.getByTestId('plan-types-totals').innerText())
        .split('·')
        .map((part) => euros(part.split(':').pop()!.replace('−', '-')));
      expect(cents(await lastCellSum(rows)) + cents(invoiceLevel!)).toBe(cents(total!));
    },
    finnish: [/Liittymiä: \d+/],
  },
  {
    report: 'cost and usage summaries',
    title:
      'a company admin reads optimizable and other costs for the organization and by cost center, and exports; Finnish too',
    shot: 'cost-summaries',
    as: USERS.companyAdmin,
    path: '/company/report/cost-summaries',
    async show(page) {
      const rows = tableRows(page, 'summary-table');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(1);
      const cells = await rows.first().locator('td').allInnerTexts();
      expect(cells[0]).toBe('Entire organization');
      const [optimizable, other, total] = cells.slice(1).map(euros);
      expect(optimizable).toBeGreaterThan(0);
      expect(cents(optimizable! + other!)).toBe(cents(total!));

      await page.getByTestId('summary-group-by').getByText('By cost center').click();
      await expect.poll(() => rows.count()).toBeGreaterThan(1);
      // The totals row adds up the cost centers (one answer: the demo may still be importing).
      const totals = await page.getByTestId('summary-totals').locator('td').allInnerTexts();
      expect(cents(euros(totals[3]!))).toBe(cents(await lastCellSum(rows)));
    },
    exports: {
      button: 'summary-export',
      async check(sheet, page) {
        expect(sheet.rowCount - 1).toBe(await tableRows(page, 'summary-table').count());
      },
    },
    finnish: ['Optimoitavat kustannukset'],
  },
  {
    report: 'cost and usage summaries',
    title: 'a company admin reads the usage of the organization with its totals; Finnish too',
    shot: 'usage-summaries',
    as: USERS.companyAdmin,
    path: '/company/report/usage-summaries',
    async show(page) {
      await expect.poll(() => tableRows(page, 'summary-table').count(), { timeout: 30_000 }).toBe(1);
      await page.getByTestId('summary-totals').waitFor();
    },
    finnish: ['Koko organisaatio'],
  },
  {
    report: 'top users report',
    title: 'a company admin ranks the subscriptions, keeps only optimizable costs and exports; Finnish too',
    shot: 'top-users',
    as: USERS.companyAdmin,
    path: '/company/report/top-users',
    async show(page) {
      const rows = tableRows(page, 'top-users-table');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(5);
      expect((await rows.first().innerText()).startsWith('1')).toBe(true);
      expect(totalCost(await page.getByTestId('top-users-totals').innerText())).toBeGreaterThan(0);
    },
    // Only optimizable costs: the screen asks for them and shows that answer's total. (It need not
    // be smaller: credits and one-off charges that other tests upload are not optimizable.)
    async act(page) {
      const optimizable = page.waitForResponse(
        (r) => r.url().includes('/api/reports/top-users?') && r.url().includes('optimizableOnly=true'),
      );
      await page.getByTestId('top-users-optimizable').click();
      const answer = (await (await optimizable).json()) as { totals: { cost: string } };
      await expect
        .poll(async () => totalCost(await page.getByTestId('top-users-totals').innerText()))
        .toBe(Number(answer.totals.cost));
    },
    exports: { button: 'top-users-export', check: expectTopUsersSheet },
    finnish: ['Vain optimoitavat kustannukset', /Kustannukset yhteensä/],
  },
  {
    report: 'unused subscriptions report',
    title: 'a company admin sees the demo’s unused subscriptions, changes N, exports them; Finnish too',
    shot: 'unused-subscriptions',
    as: USERS.companyAdmin,
    path: '/company/report/Unused-Month-Count',
    async show(page) {
      await expect
        .poll(() => tableRows(page, 'unused-table').count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      await page
        .getByTestId('unused-totals')
        .getByText(/Unused subscriptions: \d+/)
        .waitFor();
    },
    // One month without use catches at least as many as the company's three.
    async act(page) {
      const unused = () => figure(page, 'unused-totals', 'Unused subscriptions');
      const count = await unused();
      const months = page.getByTestId('unused-months');
      await months.fill('1');
      await months.press('Enter');
      await page.getByTestId('unused-window').waitFor();
      await expect.poll(unused).toBeGreaterThanOrEqual(count);
    },
    exports: {
      button: 'unused-export',
      check(sheet) {
        expect(sheet.getRow(1).getCell(2).value).toBe('Phone number');
        expect(sheet.rowCount).toBeGreaterThan(1);
      },
    },
    finnish: [/Käyttämättömiä liittymiä: \d+/],
  },
];

for (const r of REPORTS) {
  describe(r.report, () => {
    pageTest(browser, r.title, { shot: r.shot, as: r.as }, async (page) => {
      await r.prepare?.(page);
      await goto(page, r.path);
      if (r.heading) await page.getByRole('heading', { name: r.heading }).waitFor();
      await r.show(page);
      await screenshot(page, `${r.shot}-en`);
      await r.act?.(page);
      if (r.exports) {
        const { button, check } = r.exports;
        const { file, sheet } = await exportSheet(page, typeof button === 'string' ? button : button(page));
        await check(sheet, page, file);
      }
      await inFinnish(page, r.shot, ...r.finnish);
      await r.after?.(page);
    });
  });
}
