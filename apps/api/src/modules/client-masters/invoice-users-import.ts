import { and, eq, sql } from 'drizzle-orm';
import {
  IMPORT_MAX_REPORTED,
  IMPORT_MAX_ROWS,
  emailSchema,
  hasControlCharacters,
  invoiceUserPhone,
  type ImportPreview,
  type ImportRow,
  type Lang,
} from '@kulu/shared';
import { costCenters, invoiceUsers, subCompanies, subscriptions } from '../../db/schema/index.js';
import type { Executor } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError } from '../../lib/errors.js';
import type { Caller } from '../../types.js';
import type { Scope } from '../../lib/scope.js';
import type { Deps } from '../../types.js';
import { readImportFile } from './import-file.js';
import { IMPORT_COLUMNS, importReason, type ImportColumn } from './import-reasons.js';
import { AREA, existingByPhone } from './invoice-users.service.js';

/**
 * Import of invoice users from a CSV or Excel file. The preview validates every row and writes
 * nothing; the import takes the same file again, validates it again inside its transaction and
 * writes the valid rows (new numbers inserted, known numbers updated: upsert by phone number) in
 * that one transaction. The client (`targetClient`) is resolved by the route before the file is read. No file is kept between the two calls, so nothing can be imported that the
 * same validation did not pass at that moment. Design: docs/decisions/0008-client-masters.md.
 */

interface Parsed extends ImportRow {
  subCompanyId: number | null;
  costCenterId: number | null;
}

interface Checked {
  rows: number;
  valid: Parsed[];
  invalid: { row: number; errors: string[] }[];
}

/**
 * A Finnish number kept as a number by Excel lost its leading zero (0401234567 → 401234567): digits
 * only, 7–10 of them, not starting with 0 or the country code, get the zero back.
 */
const excelPhone = (v: string) => (/^[1-9]\d{6,9}$/.test(v) && !v.startsWith('358') ? `0${v}` : v);

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

const TRUE = new Set(['yes', 'y', 'true', '1', 'x', 'kyllä', 'k', 'on']);
const FALSE = new Set(['', 'no', 'n', 'false', '0', 'ei', 'off', '-']);

/** The header's columns by import column; name and phone number must be there. */
function headerMap(header: string[]): Partial<Record<ImportColumn, number>> {
  const map: Partial<Record<ImportColumn, number>> = {};
  header.forEach((h, i) => {
    const key = norm(h);
    for (const [col, names] of Object.entries(IMPORT_COLUMNS) as [ImportColumn, readonly string[]][]) {
      if (map[col] === undefined && names.includes(key)) map[col] = i;
    }
  });
  if (map.name === undefined || map.phoneNumber === undefined)
    throw new AppError(400, 'importColumnsMissing');
  return map;
}

async function check(
  db: Executor,
  scope: Scope,
  clientId: number,
  data: Buffer,
  lang: Lang,
): Promise<Checked> {
  const sheet = await readImportFile(data);
  const headerAt = sheet.findIndex((r) => r.some((c) => c.trim() !== ''));
  if (headerAt < 0) throw new AppError(400, 'importEmpty');
  const map = headerMap(sheet[headerAt]);
  const body = sheet
    .map((cells, i) => ({ cells, row: i + 1 }))
    .slice(headerAt + 1)
    .filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (!body.length) throw new AppError(400, 'importEmpty');
  if (body.length > IMPORT_MAX_ROWS) throw new AppError(400, 'importTooManyRows');

  const [subs, centers] = await Promise.all([
    db
      .select({ id: subCompanies.id, name: subCompanies.name })
      .from(subCompanies)
      .where(eq(subCompanies.clientId, clientId)),
    db
      .select({ id: costCenters.id, name: costCenters.name, subCompanyId: costCenters.subCompanyId })
      .from(costCenters)
      .where(eq(costCenters.clientId, clientId)),
  ]);
  const subByName = new Map(subs.map((s) => [norm(s.name), s]));
  const centerByName = new Map(centers.map((c) => [norm(c.name), c]));

  const cell = (cells: string[], col: ImportColumn) => {
    const i = map[col];
    return i === undefined ? '' : (cells[i] ?? '').trim();
  };
  const firstRowOf = new Map<string, number>();
  const candidates: { parsed: Parsed; errors: string[] }[] = [];
  for (const { cells, row } of body) {
    const errors: string[] = [];
    const name = cell(cells, 'name');
    if (!name) errors.push(importReason('required', lang, { column: 'name' }));
    else if (name.length > 200 || hasControlCharacters(name))
      errors.push(importReason('invalid', lang, { column: 'name' }));
    const rawPhone = cell(cells, 'phoneNumber');
    let phoneNumber = '';
    if (!rawPhone) errors.push(importReason('required', lang, { column: 'phoneNumber' }));
    else {
      const p = invoiceUserPhone.safeParse(excelPhone(rawPhone));
      if (!p.success) errors.push(importReason('invalid', lang, { column: 'phoneNumber' }));
      else {
        phoneNumber = p.data;
        const first = firstRowOf.get(phoneNumber);
        if (first !== undefined) errors.push(importReason('duplicateInFile', lang, { row: first }));
        else firstRowOf.set(phoneNumber, row);
      }
    }
    const rawEmail = cell(cells, 'email');
    let email: string | null = null;
    if (rawEmail) {
      const e = emailSchema.safeParse(rawEmail);
      if (e.success) email = e.data;
      else errors.push(importReason('invalid', lang, { column: 'email' }));
    }
    /**
     * The sub-company or cost center the cell names: one of the client's within the caller's
     * Scope (a limited caller must name one), else null with the reason.
     */
    const placed = <T extends { id: number }>(
      column: 'subCompany' | 'costCenter',
      byName: Map<string, T>,
      allowed: readonly number[] | null | undefined,
      unknown: 'unknownSubCompany' | 'unknownCostCenter',
    ) => {
      const value = cell(cells, column);
      let found: T | null = null;
      if (value) {
        const hit = byName.get(norm(value));
        if (!hit) errors.push(importReason(unknown, lang, { value }));
        else if (allowed && !allowed.includes(hit.id))
          errors.push(importReason('outsideScope', lang, { column, value }));
        else found = hit;
      } else if (allowed) errors.push(importReason('required', lang, { column }));
      return { value, found };
    };
    const sub = placed('subCompany', subByName, scope.subCompanyIds, 'unknownSubCompany');
    const subCompanyId = sub.found?.id ?? null;
    const center = placed('costCenter', centerByName, scope.costCenterIds, 'unknownCostCenter');
    let costCenterId = center.found?.id ?? null;
    const centerSub = center.found?.subCompanyId;
    if (centerSub != null && subCompanyId != null && centerSub !== subCompanyId) {
      errors.push(importReason('costCenterOfOtherSubCompany', lang, { value: center.value }));
      costCenterId = null;
    }
    const flag = (col: 'mobileBenefit' | 'fiveGPlan') => {
      const v = norm(cell(cells, col));
      if (TRUE.has(v)) return true;
      if (!FALSE.has(v)) errors.push(importReason('invalid', lang, { column: col }));
      return false;
    };
    const mobileBenefit = flag('mobileBenefit');
    const fiveGPlan = flag('fiveGPlan');
    candidates.push({
      parsed: {
        row,
        name,
        phoneNumber,
        email,
        subCompanyName: sub.value || null,
        costCenterName: center.value || null,
        subCompanyId,
        costCenterId,
        mobileBenefit,
        fiveGPlan,
        update: false,
      },
      errors,
    });
  }

  // Upsert by phone number: a known number is an update, unless its row is outside the caller's scope.
  const existing = await existingByPhone(
    db,
    clientId,
    candidates.filter((c) => c.parsed.phoneNumber && !c.errors.length).map((c) => c.parsed.phoneNumber),
  );
  const valid: Parsed[] = [];
  const invalid: Checked['invalid'] = [];
  for (const c of candidates) {
    const old = c.errors.length ? undefined : existing.get(c.parsed.phoneNumber);
    if (old) {
      const hidden =
        (scope.subCompanyIds &&
          (old.subCompanyId == null || !scope.subCompanyIds.includes(old.subCompanyId))) ||
        (scope.costCenterIds &&
          (old.costCenterId == null || !scope.costCenterIds.includes(old.costCenterId)));
      if (hidden) c.errors.push(importReason('phoneOfHiddenUser', lang));
      else c.parsed.update = true;
    }
    if (c.errors.length) invalid.push({ row: c.parsed.row, errors: c.errors });
    else valid.push(c.parsed);
  }
  return { rows: body.length, valid, invalid };
}

const sampleOf = (rows: Parsed[]): ImportRow[] =>
  rows.slice(0, 5).map(({ subCompanyId: _s, costCenterId: _c, ...r }) => r);

/** The preview: counts, every invalid row with its reasons (up to IMPORT_MAX_REPORTED) and a sample. */
export async function previewImport(
  deps: Deps,
  scope: Scope,
  clientId: number,
  data: Buffer,
  lang: Lang,
): Promise<ImportPreview> {
  const { rows, valid, invalid } = await check(deps.database.db, scope, clientId, data, lang);
  const update = valid.filter((r) => r.update).length;
  return {
    rows,
    valid: valid.length,
    create: valid.length - update,
    update,
    invalidCount: invalid.length,
    invalid: invalid.slice(0, IMPORT_MAX_REPORTED),
    sample: sampleOf(valid),
  };
}

const CHUNK = 500;

/**
 * The import: the file validated again in the transaction, then the valid rows written in it
 * (invalid rows are left out and counted as skipped). Rows whose user has a login keep their
 * email (it is their login); logins are not created by an import.
 */
export async function runImport(
  deps: Deps,
  caller: Caller,
  clientId: number,
  data: Buffer,
  lang: Lang,
  fileName: string,
): Promise<{ created: number; updated: number; skipped: number }> {
  const now = deps.now();
  return deps.database.db.transaction(async (tx) => {
    const { valid, invalid } = await check(tx, caller.scope, clientId, data, lang);
    for (let i = 0; i < valid.length; i += CHUNK) {
      const chunk = valid.slice(i, i + CHUNK);
      await tx
        .insert(invoiceUsers)
        .values(
          chunk.map((r) => ({
            clientId,
            phoneNumber: r.phoneNumber,
            name: r.name,
            email: r.email,
            subCompanyId: r.subCompanyId,
            costCenterId: r.costCenterId,
            mobileBenefit: r.mobileBenefit,
            fiveGPlan: r.fiveGPlan,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [invoiceUsers.clientId, invoiceUsers.phoneNumber],
          set: {
            name: sql`excluded.name`,
            email: sql`case when ${invoiceUsers.allowLogin} then ${invoiceUsers.email} else excluded.email end`,
            subCompanyId: sql`excluded.sub_company_id`,
            costCenterId: sql`excluded.cost_center_id`,
            mobileBenefit: sql`excluded.mobile_benefit`,
            fiveGPlan: sql`excluded.five_g_plan`,
            updatedAt: now,
          },
        });
    }
    // Link the numbers invoices have already shown to their subscriptions.
    await tx
      .update(invoiceUsers)
      .set({ subscriptionId: sql`${subscriptions.id}` })
      .from(subscriptions)
      .where(
        and(
          eq(invoiceUsers.clientId, clientId),
          eq(subscriptions.clientId, invoiceUsers.clientId),
          eq(subscriptions.phoneNumber, invoiceUsers.phoneNumber),
          sql`${invoiceUsers.subscriptionId} is distinct from ${subscriptions.id}`,
        ),
      );
    const updated = valid.filter((r) => r.update);
    const created = valid.filter((r) => !r.update);
    await logActivity(tx, {
      userId: caller.user.id,
      clientId,
      area: AREA,
      action: 'import',
      entity: 'invoiceUser',
      before: null,
      after: {
        fileName,
        created: created.map((r) => r.phoneNumber),
        updated: updated.map((r) => r.phoneNumber),
        skippedRows: invalid.map((r) => r.row),
      },
    });
    return { created: created.length, updated: updated.length, skipped: invalid.length };
  });
}
