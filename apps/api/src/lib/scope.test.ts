import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { ROLE } from '@kulu/shared';
import { alerts, invoices, monthlyFacts, plans } from '../db/schema/index.js';
import type { Executor } from '../db/client.js';
import type { AuthUser } from '../types.js';
import { AppError } from './errors.js';
import { Scope } from './scope.js';

// The pure parts of the Scope never touch the database.
const db = {} as Executor;
const dialect = new PgDialect();
const render = (s: SQL | undefined) => {
  if (!s) return undefined;
  const { sql, params } = dialect.sqlToQuery(s);
  return { sql, params };
};
const cols = {
  clientId: invoices.clientId,
  subCompanyId: invoices.subCompanyId,
  operatorId: invoices.operatorId,
};

const user = (roleId: number, extra: Partial<AuthUser> = {}): AuthUser => ({
  id: 7,
  email: 'x@example.com',
  fullName: 'X',
  roleId,
  clientId: 3,
  operatorId: null,
  languageId: 1,
  permissions: [],
  subCompanyIds: null,
  costCenterIds: null,
  ...extra,
});

const is404 = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError && e.statusCode === 404;
  }
  return false;
};

describe('Scope', () => {
  it('lets the provider admin see every client without a condition', async () => {
    const s = await Scope.forUser(db, user(ROLE.providerAdmin, { clientId: null }));
    expect(s.kind).toBe('providerAdmin');
    expect(s.isProvider).toBe(true);
    expect(s.clientIds).toBeNull();
    expect(s.where(cols)).toBeUndefined();
    expect(s.canSeeClient(99)).toBe(true);
  });

  it('limits a consultant with assigned companies to them, and one with none to nothing', async () => {
    const assigned = new Scope(db, { kind: 'consultant', userId: 7, clientIds: [3, 5] });
    expect(assigned.isProvider).toBe(true);
    expect(render(assigned.where(cols))).toEqual({
      sql: '"invoices"."client_id" in ($1, $2)',
      params: [3, 5],
    });
    expect(assigned.canSeeClient(5)).toBe(true);
    expect(assigned.canSeeClient(4)).toBe(false);
    await expect(assigned.assertClient(4)).rejects.toMatchObject({ statusCode: 404 });
    const none = new Scope(db, { kind: 'consultant', userId: 7, clientIds: [] });
    expect(render(none.where(cols))?.sql).toBe('false');
  });

  it('limits a company admin to their own client', async () => {
    const s = await Scope.forUser(db, user(ROLE.companyAdmin));
    expect(s.isProvider).toBe(false);
    expect(s.ownClientId).toBe(3);
    expect(render(s.where(cols))).toEqual({
      sql: '"invoices"."client_id" in ($1)',
      params: [3],
    });
    expect(s.canSeeClient(4)).toBe(false);
    expect(is404(() => s.assertRow({ clientId: 4 }))).toBe(true);
    expect(s.assertRow({ clientId: 3, subCompanyId: null })).toEqual({ clientId: 3, subCompanyId: null });
  });

  it('writes the same limits with placeholders for a prepared statement, one shape per kind of scope', async () => {
    const scopes = [
      await Scope.forUser(
        db,
        user(ROLE.clientUser, { subCompanyIds: [5, 6], costCenterIds: [9], operatorId: 2 }),
      ),
      await Scope.forUser(db, user(ROLE.companyAdmin)),
      await Scope.forUser(db, user(ROLE.providerAdmin)),
      Scope.nobody(db),
    ];
    const withCostCenter = {
      clientId: monthlyFacts.clientId,
      subCompanyId: monthlyFacts.subCompanyId,
      costCenterId: monthlyFacts.costCenterId,
      operatorId: monthlyFacts.operatorId,
    };
    for (const s of scopes) {
      const plain = render(s.where(withCostCenter));
      const prepared = s.wherePrepared(withCostCenter);
      const held = prepared.where ? dialect.sqlToQuery(prepared.where) : undefined;
      expect(held?.sql).toBe(plain?.sql);
      // Filled with its values, the prepared form binds exactly what the plain one does.
      expect(held ? fillPlaceholders(held.params, prepared.values) : undefined).toEqual(plain?.params);
    }
    expect(scopes.map((s) => s.wherePrepared(withCostCenter).shape)).toEqual(['c1,s2,k1,o1', 'c1', '', 'c0']);
    // Another company admin: the same shape and SQL, other values.
    const other = (await Scope.forUser(db, user(ROLE.companyAdmin, { clientId: 8 }))).wherePrepared(cols);
    expect(other.shape).toBe('c1');
    expect(other.values).toEqual({ scope_c0: 8 });
  });

  it("cuts a client user's rows to their sub-companies and the operator chosen at login", async () => {
    const s = await Scope.forUser(db, user(ROLE.clientUser, { subCompanyIds: [5], operatorId: 2 }));
    expect(s.operatorId).toBe(2);
    expect(render(s.where(cols))).toEqual({
      sql: '("invoices"."client_id" in ($1) and "invoices"."sub_company_id" in ($2) and "invoices"."operator_id" = $3)',
      params: [3, 5, 2],
    });
    // Without the operator column the operator is not a limit.
    expect(render(s.where({ clientId: invoices.clientId }))?.params).toEqual([3]);
    expect(is404(() => s.assertRow({ clientId: 3, subCompanyId: 6 }))).toBe(true);
    expect(is404(() => s.assertRow({ clientId: 3, subCompanyId: null }))).toBe(true);
    expect(s.assertRow({ clientId: 3, subCompanyId: 5 }).clientId).toBe(3);
  });

  it('sees nothing for a client-side user without a client, or when signed out', async () => {
    for (const s of [
      await Scope.forUser(db, user(ROLE.companyAdmin, { clientId: null })),
      Scope.nobody(db),
    ]) {
      expect(render(s.where(cols))?.sql).toBe('false');
      expect(s.canSeeClient(3)).toBe(false);
      expect(is404(() => s.assertRow(undefined))).toBe(true);
    }
  });

  it('leaves rows for the provider’s eyes out for company users only, the same way when prepared', async () => {
    const audience = { clientId: alerts.clientId, audience: alerts.audience };
    const company = await Scope.forUser(db, user(ROLE.companyAdmin));
    expect(render(company.where(audience))).toEqual({
      sql: `("alerts"."client_id" in ($1) and "alerts"."audience" <> 'provider')`,
      params: [3],
    });
    expect(company.wherePrepared(audience).shape).toBe('c1,a');
    expect(dialect.sqlToQuery(company.wherePrepared(audience).where!).sql).toBe(
      render(company.where(audience))?.sql,
    );
    const consultant = new Scope(db, { kind: 'consultant', userId: 7, clientIds: [3] });
    expect(render(consultant.where(audience))?.sql).toBe('"alerts"."client_id" in ($1)');
    expect(consultant.wherePrepared(audience).shape).toBe('c1');
    expect((await Scope.forUser(db, user(ROLE.providerAdmin))).where(audience)).toBeUndefined();
  });

  it("passes rows without a client (every client's) where the columns say so, and only there", async () => {
    const general = { clientId: plans.clientId, clientlessPasses: true };
    const consultant = new Scope(db, { kind: 'consultant', userId: 7, clientIds: [3] });
    expect(render(consultant.where(general))).toEqual({
      sql: '("plans"."client_id" in ($1) or "plans"."client_id" is null)',
      params: [3],
    });
    expect(render(consultant.where({ clientId: plans.clientId }))?.sql).toBe('"plans"."client_id" in ($1)');
    const none = new Scope(db, { kind: 'consultant', userId: 7, clientIds: [] });
    expect(render(none.where(general))?.sql).toBe('(false or "plans"."client_id" is null)');
    expect(
      new Scope(db, { kind: 'providerAdmin', userId: 7, clientIds: null }).where(general),
    ).toBeUndefined();
  });

  it('answers 404 before touching the database for a client out of scope', async () => {
    const s = await Scope.forUser(db, user(ROLE.companyAdmin));
    await expect(s.assertClient(4)).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('tenancy lint rule', () => {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  const lint = async (file: string, code: string) => {
    const eslint = new ESLint({ cwd: root });
    const [res] = await eslint.lintText(code, { filePath: `${root}${file}` });
    return res.messages.filter((m) => /req\.scope/.test(m.message)).length;
  };
  const roleCheck = [
    "import { isProviderRole, ROLE } from '@kulu/shared';",
    'export const a = (roleId: number) => isProviderRole(roleId) || roleId === ROLE.consultant;',
    '',
  ].join('\n');

  it('refuses provider-versus-client role checks in a module, and allows them in lib/scope.ts', async () => {
    expect(await lint('apps/api/src/modules/invoices/probe.ts', roleCheck)).toBe(2);
    expect(await lint('apps/api/src/lib/scope.ts', roleCheck)).toBe(0);
  }, 60_000);
});
