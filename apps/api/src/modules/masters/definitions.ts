import { and, eq, ne } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  basePlanGroupMaster,
  billingPlanMaster,
  costCategoryMaster,
  costCenterMaster,
  costElementMaster,
  costGroupMaster,
  countryMaster,
  currencyMaster,
  helpFileMaster,
  type MASTER_RESOURCES,
  operatorMaster,
  type MasterKey,
  planGroupMaster,
  planMaster,
  skippedNumberMaster,
} from '@kulu/shared';
import {
  basePlanGroups,
  clientBillingPlans,
  clientContracts,
  clientOperators,
  clients,
  costCategories,
  costCenters,
  costElements,
  costGroups,
  countries,
  currencies,
  files,
  helpFiles,
  monthlyFacts,
  operators,
  planGroups,
  plans,
  skippedPhoneNumbers,
  subCompanies,
  userCostCenters,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { nameOf, type ResourceDef, type Row, uniqueIndex } from '../../lib/resource/resource.service.js';
import { recategorizeFacts } from './cost-elements.service.js';
import { queueOptimizationForPlan } from '../optimization/optimize.service.js';

/**
 * What the API adds to each shared declaration: its table, the expression of each entity key,
 * the references to check and the unique rules. Everything else is the generic mechanism.
 */

const operatorName = (fk: Parameters<typeof nameOf>[2]) => nameOf(operators.name, operators.id, fk);
const clientName = (fk: Parameters<typeof nameOf>[2]) => nameOf(clients.companyName, clients.id, fk);

export const operatorResource: ResourceDef = {
  meta: operatorMaster,
  table: operators,
  id: operators.id,
  select: { id: operators.id, name: operators.name },
  unique: [uniqueIndex(operators, 'operators_name_unique', { name: 'lower' })],
  referencedBy: [
    clientOperators.operatorId,
    costCategories.operatorId,
    costElements.operatorId,
    planGroups.operatorId,
    basePlanGroups.operatorId,
    plans.operatorId,
  ],
};

export const countryResource: ResourceDef = {
  meta: countryMaster,
  table: countries,
  id: countries.id,
  select: { id: countries.id, name: countries.name, code: countries.code, zone: countries.zone },
  unique: [
    uniqueIndex(countries, 'countries_name_uq', { name: 'lower' }),
    uniqueIndex(countries, 'countries_code_uq', { code: 'same' }, 'codeExists'),
  ],
};

export const currencyResource: ResourceDef = {
  meta: currencyMaster,
  table: currencies,
  id: currencies.id,
  select: {
    id: currencies.id,
    name: currencies.name,
    abbreviation: currencies.abbreviation,
    symbol: currencies.symbol,
  },
  unique: [
    uniqueIndex(currencies, 'currencies_name_uq', { name: 'lower' }),
    uniqueIndex(currencies, 'currencies_abbreviation_uq', { abbreviation: 'same' }, 'codeExists'),
  ],
};

export const costCenterResource: ResourceDef = {
  meta: costCenterMaster,
  table: costCenters,
  id: costCenters.id,
  scopeColumns: { clientId: costCenters.clientId },
  select: {
    id: costCenters.id,
    clientId: costCenters.clientId,
    clientName: clientName(costCenters.clientId),
    subCompanyId: costCenters.subCompanyId,
    subCompanyName: nameOf(subCompanies.name, subCompanies.id, costCenters.subCompanyId),
    name: costCenters.name,
  },
  refs: { clientId: clients.id, subCompanyId: subCompanies.id },
  async validate(tx, input) {
    if (input.subCompanyId == null) return;
    const [sub] = await tx
      .select({ id: subCompanies.id })
      .from(subCompanies)
      .where(
        and(
          eq(subCompanies.id, input.subCompanyId as number),
          eq(subCompanies.clientId, input.clientId as number),
        ),
      );
    if (!sub) throw new AppError(400, 'validation', { subCompanyId: 'invalid' });
  },
  unique: [uniqueIndex(costCenters, 'cost_centers_client_name_uq', { clientId: 'same', name: 'lower' })],
  referencedBy: [userCostCenters.costCenterId],
};

export const costGroupResource: ResourceDef = {
  meta: costGroupMaster,
  table: costGroups,
  id: costGroups.id,
  select: { id: costGroups.id, name: costGroups.name, isCurrentPlan: costGroups.isCurrentPlan },
  unique: [uniqueIndex(costGroups, 'cost_groups_name_uq', { name: 'lower' })],
  referencedBy: [costCategories.costGroupId],
};

export const costCategoryResource: ResourceDef = {
  meta: costCategoryMaster,
  table: costCategories,
  id: costCategories.id,
  select: {
    id: costCategories.id,
    name: costCategories.name,
    nameFi: costCategories.nameFi,
    operatorId: costCategories.operatorId,
    operatorName: operatorName(costCategories.operatorId),
    usageType: costCategories.usageType,
    zone: costCategories.zone,
    costGroupId: costCategories.costGroupId,
    costGroupName: nameOf(costGroups.name, costGroups.id, costCategories.costGroupId),
  },
  refs: { operatorId: operators.id, costGroupId: costGroups.id },
  unique: [uniqueIndex(costCategories, 'cost_categories_name_uq', { name: 'lower', operatorId: 'orNull' })],
  referencedBy: [costElements.costCategoryId, planGroups.costCategoryId, basePlanGroups.costCategoryId],
};

export const costElementResource: ResourceDef = {
  meta: costElementMaster,
  table: costElements,
  id: costElements.id,
  // A name one company's upload brought is that company's (issue 37 item 7); shared ones everyone's.
  scopeColumns: { clientId: costElements.clientId, clientlessPasses: true },
  select: {
    id: costElements.id,
    name: costElements.name,
    operatorId: costElements.operatorId,
    operatorName: operatorName(costElements.operatorId),
    costCategoryId: costElements.costCategoryId,
    costCategoryName: nameOf(costCategories.name, costCategories.id, costElements.costCategoryId),
    status: costElements.status,
    clientId: costElements.clientId,
    clientName: clientName(costElements.clientId),
  },
  refs: { operatorId: operators.id, costCategoryId: costCategories.id, clientId: clients.id },
  /** An element another company's costs use cannot become one company's own (its name would show there). */
  async validate(tx, input, existing) {
    if (!existing || input.clientId == null || existing.clientId === input.clientId) return;
    const [used] = await tx
      .select({ id: monthlyFacts.id })
      .from(monthlyFacts)
      .where(
        and(
          eq(monthlyFacts.costElementId, existing.id as number),
          ne(monthlyFacts.clientId, input.clientId as number),
        ),
      )
      .limit(1);
    if (used) throw new AppError(400, 'validation', { clientId: 'invalid' });
  },
  /** A changed category makes the element categorized again (approval is of one mapping). */
  toValues(input, existing) {
    const values: Row = {
      name: input.name,
      operatorId: input.operatorId,
      costCategoryId: input.costCategoryId,
      // null (none chosen): the shared list, e.g. a company's own name made everyone's.
      clientId: input.clientId ?? null,
      updatedAt: new Date(),
    };
    if (!existing || existing.costCategoryId !== input.costCategoryId) {
      values.status = input.costCategoryId == null ? 'uncategorized' : 'categorized';
      values.approvedAt = null;
      values.approvedBy = null;
    }
    return values;
  },
  /** The facts keyed by a re-categorized element follow it in the same transaction. */
  async afterWrite(tx, event) {
    if (event.type === 'update' && event.before.costCategoryId !== event.after.costCategoryId) {
      await recategorizeFacts(tx, [event.id]);
    }
  },
  unique: [
    uniqueIndex(costElements, 'cost_elements_name_uq', {
      operatorId: 'same',
      name: 'lower',
      clientId: 'orNull',
    }),
  ],
};

const planGroupResourceOf = (
  meta: typeof planGroupMaster,
  table: typeof planGroups | typeof basePlanGroups,
  index: string,
  usedBy: PgColumn,
): ResourceDef => ({
  meta,
  table,
  id: table.id,
  select: {
    id: table.id,
    name: table.name,
    operatorId: table.operatorId,
    operatorName: operatorName(table.operatorId),
    planType: table.planType,
    costCategoryId: table.costCategoryId,
    costCategoryName: nameOf(costCategories.name, costCategories.id, table.costCategoryId),
    automaticCategorization: table.automaticCategorization,
  },
  refs: { operatorId: operators.id, costCategoryId: costCategories.id },
  unique: [uniqueIndex(table, index, { operatorId: 'same', name: 'lower' })],
  referencedBy: [usedBy],
});

export const planGroupResource = planGroupResourceOf(
  planGroupMaster,
  planGroups,
  'plan_groups_name_uq',
  plans.planGroupId,
);
export const basePlanGroupResource = planGroupResourceOf(
  basePlanGroupMaster,
  basePlanGroups,
  'base_plan_groups_name_uq',
  plans.basePlanGroupId,
);

const planSelect = Object.fromEntries(
  Object.keys(planMaster.entity.shape).map((k) => [k, plans[k as keyof typeof plans] as never]),
);

export const planResource: ResourceDef = {
  meta: planMaster,
  table: plans,
  id: plans.id,
  // A customer-specific plan is its client's; a general one (no client) every client's.
  scopeColumns: { clientId: plans.clientId, clientlessPasses: true },
  select: {
    ...planSelect,
    operatorName: operatorName(plans.operatorId),
    planGroupName: nameOf(planGroups.name, planGroups.id, plans.planGroupId),
    basePlanGroupName: nameOf(basePlanGroups.name, basePlanGroups.id, plans.basePlanGroupId),
    clientName: clientName(plans.clientId),
  },
  refs: {
    operatorId: operators.id,
    planGroupId: planGroups.id,
    basePlanGroupId: basePlanGroups.id,
    clientId: clients.id,
  },
  toValues: (input, existing) => ({ ...input, ...(existing ? { updatedAt: new Date() } : {}) }),
  /**
   * A new, changed or deleted plan re-optimizes the clients it concerns (queued in this
   * transaction, sent after commit): a general plan every client with subscriptions of its
   * operator, a customer-specific one its client.
   */
  async afterWrite(tx, event) {
    const rows = [event.before, event.after].filter((r) => r != null);
    const seen = new Set<string>();
    for (const row of rows as Array<{ operatorId: number; clientId: number | null }>) {
      const key = `${row.operatorId}:${row.clientId}`;
      if (!seen.has(key)) await queueOptimizationForPlan(tx, row);
      seen.add(key);
    }
  },
  /** A plan's groups belong to the plan's operator. */
  async validate(tx, input) {
    const wrong: Record<string, string> = {};
    for (const [key, table] of [
      ['planGroupId', planGroups],
      ['basePlanGroupId', basePlanGroups],
    ] as const) {
      if (input[key] == null) continue;
      const [g] = await tx
        .select({ operatorId: table.operatorId })
        .from(table)
        .where(eq(table.id, input[key] as number));
      if (g && g.operatorId !== input.operatorId) wrong[key] = 'invalid';
    }
    if (Object.keys(wrong).length) throw new AppError(400, 'validation', wrong);
  },
  unique: [uniqueIndex(plans, 'plans_name_uq', { operatorId: 'same', name: 'lower', clientId: 'orNull' })],
};

export const skippedNumberResource: ResourceDef = {
  meta: skippedNumberMaster,
  table: skippedPhoneNumbers,
  id: skippedPhoneNumbers.id,
  // A number skipped for one client is that client's; one skipped for all (no client) everyone's.
  scopeColumns: { clientId: skippedPhoneNumbers.clientId, clientlessPasses: true },
  select: {
    id: skippedPhoneNumbers.id,
    phoneNumber: skippedPhoneNumbers.phoneNumber,
    clientId: skippedPhoneNumbers.clientId,
    clientName: clientName(skippedPhoneNumbers.clientId),
    note: skippedPhoneNumbers.note,
  },
  optionLabel: skippedPhoneNumbers.phoneNumber,
  refs: { clientId: clients.id },
  unique: [
    uniqueIndex(skippedPhoneNumbers, 'skipped_phone_numbers_uq', { phoneNumber: 'same', clientId: 'orNull' }),
  ],
};

export const billingPlanResource: ResourceDef = {
  meta: billingPlanMaster,
  table: clientBillingPlans,
  id: clientBillingPlans.id,
  select: Object.fromEntries(
    Object.keys(billingPlanMaster.entity.shape).map((k) => [
      k,
      clientBillingPlans[k as keyof typeof clientBillingPlans] as never,
    ]),
  ),
  unique: [uniqueIndex(clientBillingPlans, 'client_billing_plans_name_uq', { name: 'lower' })],
  referencedBy: [clientContracts.billingPlanId],
};

export const helpFileResource: ResourceDef = {
  meta: helpFileMaster,
  table: helpFiles,
  id: helpFiles.id,
  select: {
    id: helpFiles.id,
    roleId: helpFiles.roleId,
    page: helpFiles.page,
    languageId: helpFiles.languageId,
    fileId: helpFiles.fileId,
    fileName: nameOf(files.name, files.id, helpFiles.fileId),
    mime: nameOf(files.mime, files.id, helpFiles.fileId),
    size: nameOf(files.size, files.id, helpFiles.fileId),
  },
  optionLabel: helpFiles.page,
  async afterWrite(tx, event) {
    if (event.type === 'delete') await tx.delete(files).where(eq(files.id, event.before.fileId as number));
  },
};

/**
 * Every master by its typed key (the key of MASTER_RESOURCES): a master without its definition,
 * or a definition under another master's key, does not compile or fails the declarations test.
 */
export const MASTER_DEFS: { readonly [K in MasterKey]: ResourceDef<(typeof MASTER_RESOURCES)[K]> } = {
  operators: operatorResource as ResourceDef<typeof operatorMaster>,
  countries: countryResource as ResourceDef<typeof countryMaster>,
  currencies: currencyResource as ResourceDef<typeof currencyMaster>,
  costCenters: costCenterResource as ResourceDef<typeof costCenterMaster>,
  costGroups: costGroupResource as ResourceDef<typeof costGroupMaster>,
  costCategories: costCategoryResource as ResourceDef<typeof costCategoryMaster>,
  costElements: costElementResource as ResourceDef<typeof costElementMaster>,
  plans: planResource as ResourceDef<typeof planMaster>,
  planGroups: planGroupResource as ResourceDef<typeof planGroupMaster>,
  basePlanGroups: basePlanGroupResource as ResourceDef<typeof basePlanGroupMaster>,
  skippedNumbers: skippedNumberResource as ResourceDef<typeof skippedNumberMaster>,
  billingPlans: billingPlanResource as ResourceDef<typeof billingPlanMaster>,
  help: helpFileResource as ResourceDef<typeof helpFileMaster>,
};

/** Every master, in menu order; each is served under `/api/masters/<path>`. */
export const MASTER_RESOURCE_DEFS: readonly ResourceDef[] = Object.values(MASTER_DEFS) as ResourceDef[];
