import { describe, expect, it } from 'vitest';
import {
  USERS,
  baseUrl,
  businessId,
  exportSheet,
  goto,
  inFinnish,
  login,
  onPage,
  pickOption,
  screenshot,
  tableRows,
  tokenOf,
  useBrowser,
} from './browser';

const browser = useBrowser();

/**
 * A consultant (a client of type consultant) on a billing plan, managing both demo companies, made
 * through the API as a script would.
 */
async function addConsultant(token: string, name: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const idOf = async (q: string) =>
    (
      (await (await fetch(`${baseUrl()}/api/clients?q=${q}`, { headers })).json()) as {
        items: Array<{ id: number }>;
      }
    ).items[0]!.id;
  const pohjola = await idOf('Pohjola');
  const saimaa = await idOf('Saimaan');
  const billing = (await (
    await fetch(`${baseUrl()}/api/clients/${pohjola}/billing`, { headers })
  ).json()) as {
    plans: Array<{ id: number }>;
  };
  const created = await fetch(`${baseUrl()}/api/clients`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      kind: 'consultant',
      companyName: name,
      businessId: businessId(),
      email: `billing-${Date.now()}@advisors.test`,
      adminName: 'Aino Advisor',
      billingPlanId: billing.plans[0]!.id,
    }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const consultantId = ((await created.json()) as { client: { id: number } }).client.id;
  const assigned = await fetch(`${baseUrl()}/api/clients/${consultantId}/assigned-companies`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ clientIds: [pohjola, saimaa] }),
  });
  expect(assigned.status).toBe(200);
}

describe('consultant billing', () => {
  it(
    "an admin picks a consultant and a month, sees each managed company's billing with a totals row and exports it; Finnish too",
    { timeout: 180_000 },
    () =>
      onPage(browser(), 'consultant-billing', async (page) => {
        await login(page, USERS.admin);
        const name = `Mobile Advisors ${Date.now().toString(36)} Oy`;
        await addConsultant(await tokenOf(page), name);
        await goto(page, '/admin/reports/consultant-billing');
        await page.getByTestId('consultant-billing-page').waitFor();
        await page.getByTestId('consultant-billing-consultant').click();
        await pickOption(page, name);

        const rows = tableRows(page, 'consultant-billing-table');
        await expect.poll(() => rows.count()).toBe(2);
        await rows.filter({ hasText: 'Pohjola Rakennus Oy' }).waitFor();
        await rows.filter({ hasText: 'Saimaan Logistiikka Oy' }).waitFor();
        // Both were assigned this month: new, with the set-up fee.
        expect(await rows.locator('.ant-tag').filter({ hasText: 'Yes' }).count()).toBe(2);
        const totals = page.getByTestId('consultant-billing-totals');
        await expect.poll(async () => (await totals.innerText()).includes('€')).toBe(true);
        await screenshot(page, 'consultant-billing-en');

        const { sheet } = await exportSheet(page, 'consultant-billing-export');
        expect(sheet.getRow(1).getCell(3).value).toBe('Company');
        expect(sheet.rowCount).toBe(4); // header, two companies, totals
        expect(sheet.getRow(4).getCell(1).value).toBe('Total');

        await inFinnish(page, 'consultant-billing', 'Lisäkäyttäjiä', 'Yhteensä');
      }),
  );
});
