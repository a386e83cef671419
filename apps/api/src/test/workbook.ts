// Test helper (imported by tests only): an .xlsx download through the API, read back.
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './helpers.js';

/**
 * GETs an .xlsx download as `token`, which must answer 200 as a spreadsheet: the answer, and its
 * workbook read back.
 */
export async function getWorkbook(
  t: Pick<TestApp, 'inject'>,
  url: string,
  token: string,
): Promise<{ res: LightMyRequestResponse; wb: ExcelJS.Workbook }> {
  const res = await t.inject({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.statusCode === 200 ? '' : res.body}`).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return { res, wb };
}
