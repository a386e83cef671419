import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';

/**
 * The alerts' demo cases (docs/demo.md "Alerts"): after a first start the company admin's Alerts
 * page holds a roaming shock (with its cost jump), a service-number charge and new subscriptions,
 * and the Tampere client user sees the two Työmaat cases.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { demo: true });
}, 600_000);

afterAll(async () => {
  await t?.close();
});

type Item = {
  rule: string;
  figures: Record<string, number | string>;
  text: string;
  subCompanyName: string | null;
};
const list = async (email: string, query = '') => {
  const token = await t.login(email);
  const res = await t.inject({ method: 'GET', url: `/api/alerts?pageSize=200${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as Item[];
};

it('shows the demo cases to the company admin and the Työmaat ones to the Tampere client user', async () => {
  const admin = await list(DEMO.companyAdmin);
  const roaming = admin.find((a) => a.rule === 'roaming');
  expect(roaming?.figures).toMatchObject({ roamingCents: 18282, outsideCents: 18282 });
  expect(admin.some((a) => a.rule === 'cost_jump' && a.figures.phone === roaming?.figures.phone)).toBe(true);
  expect(admin.find((a) => a.rule === 'service_numbers')?.figures).toMatchObject({ serviceCents: 2775 });
  expect(admin.filter((a) => a.rule === 'new_subscription').length).toBeGreaterThan(0);

  const user = await list(DEMO.clientUser);
  expect(user.map((a) => a.rule)).toEqual(expect.arrayContaining(['roaming', 'service_numbers']));
  expect(user.every((a) => a.subCompanyName === 'Pohjola Rakennus Tampere')).toBe(true);
});
