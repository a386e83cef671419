import { z } from 'zod';
import type { Permission } from '../../permissions.js';
import { ROLE, ROLE_IDS, LANGUAGE } from '../../roles.js';
import { phoneSchema } from '../auth.js';
import { named, namedOrNull, notBlank } from '../primitives.js';
import {
  alike,
  boolField,
  DEFAULT_MESSAGES,
  defineMaster,
  enumWithDefault,
  labelledBy,
  moneyString,
  optId,
  optInt,
  optMoney,
  enumOptions,
  idsSchema,
  optText,
  reqEnum,
  reqId,
  reqInt,
  reqMoney,
  reqPercent,
  reqText,
  type MasterField,
  type MasterFilter,
} from './common.js';

/**
 * Every master resource of spec §2 "/admin/master", declared once: entity and create schemas,
 * what can be searched, sorted and filtered, the table's columns and the form's fields.
 * The API registers its routes from these, the web renders its pages from them.
 */

// ---- vocabularies ---------------------------------------------------------------------------

/** Where a cost arises (spec §2 cost category: domestic, Nordic/Baltic, EU; glossary). */
export const ZONES = ['domestic', 'nordic_baltic', 'eu', 'world'] as const;
export type Zone = (typeof ZONES)[number];
export const USAGE_TYPES = [
  'monthly_fee',
  'voice',
  'sms',
  'mms',
  'data',
  'one_off',
  'discount',
  'other',
] as const;
export type UsageType = (typeof USAGE_TYPES)[number];
/** Plan types: flat rate (voice + data), pay per use, data only, machine-to-machine. */
export const PLAN_TYPES = ['flat_rate', 'pay_per_use', 'data_only', 'm2m'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];
export const PLAN_COVERAGES = ['no_limitations', 'domestic_only'] as const;
export const PLAN_SCOPES = ['general', 'customer_specific'] as const;
export const COST_ELEMENT_STATUSES = [
  'uncategorized',
  'categorized',
  'auto_categorized',
  'approved',
] as const;
export type CostElementStatus = (typeof COST_ELEMENT_STATUSES)[number];

const { col, field } = labelledBy('masters.fields');
const refField = (key: string, optionsUrl: string, extra: Partial<MasterField> = {}) =>
  field(key, 'ref', { optionsUrl, ...extra });

export const OPTIONS_URL = {
  operators: '/api/masters/operators/options',
  costGroups: '/api/masters/cost-groups/options',
  costCategories: '/api/masters/cost-categories/options',
  planGroups: '/api/masters/plan-groups/options',
  basePlanGroups: '/api/masters/base-plan-groups/options',
  clients: '/api/masters/lookups/clients',
  subCompanies: '/api/masters/lookups/sub-companies',
} as const;

const id = z.number().int();
/** A master's name, required, at most 200 characters: in the create schema and the form. */
const name = reqText(200);
const nameField = field('name', 'text', { required: true, maxLength: 200 });

/**
 * A master's reference to a row of another master (a cost element's operator), declared once for
 * each place it stands in: the list's filter `<key>Id`, the table's column `<key>Name`, the form's
 * picker of `<key>Id` (choices from `optionsUrl`), the entity's id and name (nullable unless
 * `required`) and the create schema's id. `field` adds to the picker (`dependsOn`, `visibleWhen`).
 */
function reference<const K extends string, const R extends boolean = false>(
  key: K,
  optionsUrl: string,
  opts: { required?: R; field?: Partial<MasterField> } = {},
) {
  type Id = `${K}Id`;
  type Name = `${K}Name`;
  type Ref<S extends z.ZodType> = R extends true ? S : z.ZodNullable<S>;
  const idKey: Id = `${key}Id`;
  const nameKey: Name = `${key}Name`;
  const required = opts.required === true;
  return {
    filter: { [idKey]: { type: 'id' } } as Record<Id, MasterFilter>,
    column: col(nameKey),
    field: refField(idKey, optionsUrl, { ...(required ? { required } : {}), ...opts.field }),
    entity: (required ? named(key) : namedOrNull(key)) as Record<Id, Ref<typeof id>> &
      Record<Name, Ref<z.ZodString>>,
    create: { [idKey]: required ? reqId() : optId() } as Record<
      Id,
      R extends true ? ReturnType<typeof reqId> : ReturnType<typeof optId>
    >,
  };
}

// ---- operators, countries, currencies --------------------------------------------------------

export const operatorMaster = defineMaster({
  key: 'operators',
  path: 'operators',
  menuKey: 'operators',
  permission: 'masters.operators',
  searchable: ['name'],
  sortable: ['name', 'id'],
  defaultSort: 'name',
  filters: {},
  columns: [col('name')],
  fields: [nameField],
  messages: DEFAULT_MESSAGES,
  entity: z.object({ id, name: z.string() }),
  create: z.object({ name }),
});

export const countryMaster = defineMaster({
  key: 'countries',
  path: 'countries',
  menuKey: 'country',
  permission: 'masters.countries',
  searchable: ['name', 'code'],
  sortable: ['name', 'code', 'zone', 'id'],
  defaultSort: 'name',
  filters: { zone: { type: 'enum', values: ZONES } },
  columns: [col('name'), col('code'), col('zone', 'enum', { options: enumOptions('zone', ZONES) })],
  fields: [
    nameField,
    field('code', 'text', { required: true, maxLength: 2 }),
    field('zone', 'enum', { required: true, options: enumOptions('zone', ZONES) }),
  ],
  messages: { ...DEFAULT_MESSAGES, duplicate: 'nameExists' },
  entity: z.object({ id, name: z.string(), code: z.string(), zone: z.enum(ZONES) }),
  create: z.object({
    name,
    /** ISO 3166-1 alpha-2. */
    code: z.preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim().toUpperCase()) : v),
      z.string().regex(/^[A-Z]{2}$/),
    ),
    zone: reqEnum(ZONES),
  }),
});

export const currencyMaster = defineMaster({
  key: 'currencies',
  path: 'currencies',
  menuKey: 'currency',
  permission: 'masters.currencies',
  searchable: ['name', 'abbreviation'],
  sortable: ['name', 'abbreviation', 'id'],
  defaultSort: 'name',
  filters: {},
  columns: [col('name'), col('abbreviation'), col('symbol')],
  fields: [
    field('name', 'text', { required: true, maxLength: 100 }),
    field('abbreviation', 'text', { required: true, maxLength: 3 }),
    field('symbol', 'text', { required: true, maxLength: 5 }),
  ],
  messages: DEFAULT_MESSAGES,
  entity: z.object({ id, name: z.string(), abbreviation: z.string(), symbol: z.string() }),
  create: z.object({
    name: reqText(100),
    /** ISO 4217 code. */
    abbreviation: z.preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim().toUpperCase()) : v),
      z.string().regex(/^[A-Z]{3}$/),
    ),
    symbol: reqText(5),
  }),
});

// ---- cost centers, groups, categories, elements --------------------------------------------

const centerClient = reference('client', OPTIONS_URL.clients, { required: true });
const centerSubCompany = reference('subCompany', OPTIONS_URL.subCompanies, {
  field: { dependsOn: 'clientId' },
});
export const costCenterMaster = defineMaster({
  key: 'costCenters',
  path: 'cost-centers',
  menuKey: 'cost-centers',
  permission: 'masters.costCenters',
  searchable: ['name', 'clientName', 'subCompanyName'],
  sortable: ['name', 'clientName', 'subCompanyName', 'id'],
  defaultSort: 'clientName',
  filters: { ...centerClient.filter, ...centerSubCompany.filter },
  columns: [centerClient.column, centerSubCompany.column, col('name')],
  fields: [centerClient.field, centerSubCompany.field, nameField],
  messages: DEFAULT_MESSAGES,
  entity: z.object({ id, ...centerClient.entity, ...centerSubCompany.entity, name: z.string() }),
  create: z.object({ ...centerClient.create, ...centerSubCompany.create, name }),
});

export const costGroupMaster = defineMaster({
  key: 'costGroups',
  path: 'cost-groups',
  menuKey: 'cost-groups',
  permission: 'masters.costGroups',
  searchable: ['name'],
  sortable: ['name', 'isCurrentPlan', 'id'],
  defaultSort: 'name',
  filters: { isCurrentPlan: { type: 'boolean' } },
  columns: [col('name'), col('isCurrentPlan', 'boolean')],
  fields: [nameField, field('isCurrentPlan', 'boolean')],
  messages: DEFAULT_MESSAGES,
  entity: z.object({ id, name: z.string(), isCurrentPlan: z.boolean() }),
  create: z.object({ name, isCurrentPlan: boolField() }),
});

/** null: the category applies to every operator. */
const categoryOperator = reference('operator', OPTIONS_URL.operators);
const categoryGroup = reference('costGroup', OPTIONS_URL.costGroups);
export const costCategoryMaster = defineMaster({
  key: 'costCategories',
  path: 'cost-categories',
  menuKey: 'cost-category',
  permission: 'masters.costCategories',
  searchable: ['name', 'nameFi', 'operatorName'],
  sortable: ['name', 'nameFi', 'operatorName', 'usageType', 'zone', 'costGroupName', 'id'],
  defaultSort: 'name',
  filters: {
    ...categoryOperator.filter,
    usageType: { type: 'enum', values: USAGE_TYPES },
    zone: { type: 'enum', values: ZONES },
    ...categoryGroup.filter,
  },
  columns: [
    col('name'),
    col('nameFi'),
    categoryOperator.column,
    col('usageType', 'enum', { options: enumOptions('usageType', USAGE_TYPES) }),
    col('zone', 'enum', { options: enumOptions('zone', ZONES) }),
    categoryGroup.column,
  ],
  fields: [
    nameField,
    field('nameFi', 'text', { required: true, maxLength: 200 }),
    categoryOperator.field,
    field('usageType', 'enum', { required: true, options: enumOptions('usageType', USAGE_TYPES) }),
    field('zone', 'enum', { required: true, options: enumOptions('zone', ZONES) }),
    categoryGroup.field,
  ],
  messages: DEFAULT_MESSAGES,
  entity: z.object({
    id,
    name: z.string(),
    nameFi: z.string(),
    ...categoryOperator.entity,
    usageType: z.enum(USAGE_TYPES),
    zone: z.enum(ZONES),
    ...categoryGroup.entity,
  }),
  create: z.object({
    name,
    nameFi: reqText(200),
    ...categoryOperator.create,
    usageType: reqEnum(USAGE_TYPES),
    zone: reqEnum(ZONES),
    ...categoryGroup.create,
  }),
});

const elementOperator = reference('operator', OPTIONS_URL.operators, { required: true });
const elementCategory = reference('costCategory', OPTIONS_URL.costCategories);
/** null: the shared list; else a name one company's own upload brought, that company's alone (issue 37). */
const elementClient = reference('client', OPTIONS_URL.clients);
export const costElementMaster = defineMaster({
  key: 'costElements',
  path: 'cost-elements',
  menuKey: 'cost-elements',
  permission: 'masters.costElements',
  searchable: ['name', 'operatorName', 'costCategoryName', 'clientName'],
  sortable: ['name', 'operatorName', 'costCategoryName', 'status', 'clientName', 'id'],
  defaultSort: 'name',
  filters: {
    ...elementOperator.filter,
    ...elementCategory.filter,
    status: { type: 'enum', values: COST_ELEMENT_STATUSES },
    ...elementClient.filter,
  },
  columns: [
    col('name'),
    elementOperator.column,
    elementCategory.column,
    col('status', 'enum', { options: enumOptions('costElementStatus', COST_ELEMENT_STATUSES) }),
    elementClient.column,
  ],
  fields: [
    field('name', 'text', { required: true, maxLength: 300 }),
    elementOperator.field,
    elementCategory.field,
    elementClient.field,
  ],
  messages: DEFAULT_MESSAGES,
  entity: z.object({
    id,
    /** The line label as the operator prints it on the invoice. */
    name: z.string(),
    ...elementOperator.entity,
    ...elementCategory.entity,
    status: z.enum(COST_ELEMENT_STATUSES),
    ...elementClient.entity,
  }),
  create: z.object({
    name: reqText(300),
    ...elementOperator.create,
    ...elementCategory.create,
    ...elementClient.create,
  }),
});

/** Assign one cost element, or many at once, to a cost category. */
export const costElementCategorizeSchema = z.object({
  ids: idsSchema.shape.ids,
  costCategoryId: reqId(),
});
export const costElementCategorySchema = z.object({ costCategoryId: reqId() });

// ---- plans, plan groups, base plan groups ------------------------------------------------------

/** What a plan and a plan group both are, first in each of their declarations: a name, an operator and a plan type. */
const planOperator = reference('operator', OPTIONS_URL.operators, { required: true });
const planBasics = {
  filters: { ...planOperator.filter, planType: { type: 'enum', values: PLAN_TYPES } },
  columns: [
    col('name'),
    planOperator.column,
    col('planType', 'enum', { options: enumOptions('planType', PLAN_TYPES) }),
  ],
  fields: [
    nameField,
    planOperator.field,
    field('planType', 'enum', { required: true, options: enumOptions('planType', PLAN_TYPES) }),
  ],
  entity: { id, name: z.string(), ...planOperator.entity, planType: z.enum(PLAN_TYPES) },
  create: { name, ...planOperator.create, planType: reqEnum(PLAN_TYPES) },
} as const;
const groupCategory = reference('costCategory', OPTIONS_URL.costCategories);

const planGroupDefinition = (key: 'planGroups' | 'basePlanGroups') =>
  defineMaster({
    key,
    path: key === 'planGroups' ? 'plan-groups' : 'base-plan-groups',
    menuKey: key === 'planGroups' ? 'plan-groups' : 'base-plan-groups',
    permission: key === 'planGroups' ? 'masters.planGroups' : 'masters.basePlanGroups',
    searchable: ['name', 'operatorName', 'costCategoryName'],
    sortable: ['name', 'operatorName', 'planType', 'costCategoryName', 'automaticCategorization', 'id'],
    defaultSort: 'name',
    filters: planBasics.filters,
    columns: [...planBasics.columns, groupCategory.column, col('automaticCategorization', 'boolean')],
    fields: [...planBasics.fields, groupCategory.field, field('automaticCategorization', 'boolean')],
    messages: DEFAULT_MESSAGES,
    entity: z.object({
      ...planBasics.entity,
      ...groupCategory.entity,
      automaticCategorization: z.boolean(),
    }),
    create: z.object({ ...planBasics.create, ...groupCategory.create, automaticCategorization: boolField() }),
  });

export const planGroupMaster = planGroupDefinition('planGroups');
export const basePlanGroupMaster = planGroupDefinition('basePlanGroups');

const planFlags = [
  'dataInNordicBaltic',
  'smsInNordicBaltic',
  'voiceInNordicBaltic',
  'dataInEu',
  'smsInEu',
  'voiceInEu',
] as const;
/** Prices of a minute and an SMS, € with four decimals. */
const planUnitPrices = ['voiceListPrice', 'voiceContractPrice', 'smsListPrice', 'smsContractPrice'] as const;
/** A packet plan's prices: a minute, an extra minute, an SMS (€, four decimals). */
const packetPrices = ['perMinuteCost', 'additionalMinuteCost', 'smsCost'] as const;

const planGroup = reference('planGroup', OPTIONS_URL.planGroups);
const planBaseGroup = reference('basePlanGroup', OPTIONS_URL.basePlanGroups);
/** The client whose own (contract-priced) row this is: none on a general plan, asked for on a customer-specific one. */
const planClient = reference('client', OPTIONS_URL.clients, {
  field: { required: true, visibleWhen: { field: 'scope', values: ['customer_specific'] } },
});
export const planMaster = defineMaster({
  key: 'plans',
  path: 'plans',
  menuKey: 'plan',
  permission: 'masters.plans',
  searchable: ['name', 'operatorName', 'planGroupName', 'clientName'],
  sortable: [
    'name',
    'operatorName',
    'planType',
    'planGroupName',
    'listPrice',
    'contractPrice',
    'dataSpeedMbps',
    'euDataGb',
    'scope',
    'clientName',
    'id',
  ],
  defaultSort: 'name',
  filters: {
    ...planBasics.filters,
    ...planGroup.filter,
    ...planBaseGroup.filter,
    scope: { type: 'enum', values: PLAN_SCOPES },
    ...planClient.filter,
    considerForOptimization: { type: 'boolean' },
  },
  columns: [
    ...planBasics.columns,
    planGroup.column,
    col('dataSpeedMbps', 'integer'),
    col('listPrice', 'money', { decimals: 2 }),
    col('contractPrice', 'money', { decimals: 2 }),
    col('euDataGb', 'money', { decimals: 2 }),
    col('unlimited', 'boolean'),
    col('scope', 'enum', { options: enumOptions('planScope', PLAN_SCOPES) }),
    planClient.column,
    col('considerForOptimization', 'boolean'),
  ],
  fields: [
    ...planBasics.fields,
    planGroup.field,
    planBaseGroup.field,
    field('listPrice', 'money', { required: true, decimals: 2 }),
    field('contractPrice', 'money', { decimals: 2 }),
    field('unlimited', 'boolean'),
    field('dataSlabMb', 'integer'),
    field('dataSpeedMbps', 'integer'),
    field('exceedingDataCost', 'money', { decimals: 4 }),
    field('euDataGb', 'money', { decimals: 2 }),
    ...planUnitPrices.map((f) => field(f, 'money', { decimals: 4 })),
    field('packetPlanSize', 'integer'),
    ...packetPrices.map((f) => field(f, 'money', { decimals: 4 })),
    field('smsAddonSize', 'integer'),
    ...planFlags.map((f) => field(f, 'boolean')),
    field('coverage', 'enum', { options: enumOptions('planCoverage', PLAN_COVERAGES) }),
    field('scope', 'enum', { options: enumOptions('planScope', PLAN_SCOPES) }),
    planClient.field,
    field('considerForOptimization', 'boolean'),
  ],
  messages: DEFAULT_MESSAGES,
  entity: z.object({
    ...planBasics.entity,
    ...planGroup.entity,
    ...planBaseGroup.entity,
    listPrice: moneyString,
    contractPrice: moneyString.nullable(),
    unlimited: z.boolean(),
    dataSlabMb: z.number().int().nullable(),
    dataSpeedMbps: z.number().int().nullable(),
    exceedingDataCost: moneyString.nullable(),
    euDataGb: moneyString.nullable(),
    ...alike(planUnitPrices, () => moneyString.nullable()),
    packetPlanSize: z.number().int().nullable(),
    ...alike(packetPrices, () => moneyString.nullable()),
    smsAddonSize: z.number().int().nullable(),
    ...alike(planFlags, () => z.boolean()),
    coverage: z.enum(PLAN_COVERAGES),
    scope: z.enum(PLAN_SCOPES),
    ...planClient.entity,
    considerForOptimization: z.boolean(),
  }),
  create: z
    .object({
      ...planBasics.create,
      ...planGroup.create,
      ...planBaseGroup.create,
      /** Monthly list price excluding VAT. */
      listPrice: reqMoney(2),
      contractPrice: optMoney(2),
      /** Unlimited domestic data (flat rate at the plan's speed). */
      unlimited: boolField(),
      /** Domestic data included per month, MB (null with unlimited). */
      dataSlabMb: optInt(0),
      dataSpeedMbps: optInt(0, 100_000),
      /** € per GB over the included data. */
      exceedingDataCost: optMoney(4),
      /** EU/EEA fair-use data allowance per month, GB. */
      euDataGb: optMoney(2),
      ...alike(planUnitPrices, () => optMoney(4)),
      /** Minutes included in a packet plan. */
      packetPlanSize: optInt(0),
      ...alike(packetPrices, () => optMoney(4)),
      smsAddonSize: optInt(0),
      ...alike(planFlags, () => boolField()),
      coverage: enumWithDefault(PLAN_COVERAGES, 'no_limitations'),
      scope: enumWithDefault(PLAN_SCOPES, 'general'),
      ...planClient.create,
      considerForOptimization: boolField(true),
    })
    .superRefine((v, ctx) => {
      if (v.scope === 'customer_specific' && v.clientId == null) {
        ctx.addIssue({
          code: 'invalid_type',
          expected: 'number',
          input: undefined,
          path: ['clientId'],
          message: 'Invalid input: expected number, received undefined',
        });
      }
    })
    .transform((v) => (v.scope === 'general' ? { ...v, clientId: null } : v)),
});

// ---- skipped phone numbers ---------------------------------------------------------------------

/** Phone numbers as invoices print them, normalized to international form (+358…). */
export const normalizePhoneNumber = (raw: string): string => {
  const digits = raw.replace(/\(0\)/g, '').replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return `+${digits.slice(1).replace(/\D/g, '')}`;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  if (digits.startsWith('358')) return `+${digits}`;
  if (digits.startsWith('0')) return `+358${digits.slice(1)}`;
  return digits;
};

/** null: skipped on every client's invoices. */
const skippedClient = reference('client', OPTIONS_URL.clients);
export const skippedNumberMaster = defineMaster({
  key: 'skippedNumbers',
  path: 'skipped-numbers',
  menuKey: 'skipped-phone-number',
  permission: 'masters.skippedNumbers',
  searchable: ['phoneNumber', 'clientName', 'note'],
  sortable: ['phoneNumber', 'clientName', 'id'],
  defaultSort: 'phoneNumber',
  filters: skippedClient.filter,
  columns: [col('phoneNumber'), skippedClient.column, col('note')],
  fields: [
    field('phoneNumber', 'phone', { required: true, maxLength: 20 }),
    skippedClient.field,
    field('note', 'text', { maxLength: 500 }),
  ],
  messages: { ...DEFAULT_MESSAGES, duplicate: 'phoneNumberExists' },
  entity: z.object({ id, phoneNumber: z.string(), ...skippedClient.entity, note: z.string().nullable() }),
  create: z.object({
    phoneNumber: notBlank(phoneSchema).transform(normalizePhoneNumber),
    ...skippedClient.create,
    note: optText(500, true),
  }),
});

// ---- client billing plans ----------------------------------------------------------------------

const billingFees = [
  'costPerPlan',
  'setUpFee',
  'setUpFeePerCompany',
  'additionalUsersFee',
  'automatedInvoiceUploadFee',
  /** Per hour. */
  'onDemandSupportFee',
  'adminFee',
  'companyAdditionalUsersFee',
] as const;

export const billingPlanMaster = defineMaster({
  key: 'billingPlans',
  path: 'billing-plans',
  menuKey: 'client-billing-plan',
  permission: 'masters.billingPlans',
  searchable: ['name'],
  sortable: ['name', 'contractLengthMonths', 'costPerPlan', 'id'],
  defaultSort: 'name',
  filters: {},
  columns: [
    col('name'),
    col('contractLengthMonths', 'integer'),
    col('advancePaymentDiscountPercent', 'percent', { decimals: 2 }),
    ...billingFees.map((f) => col(f, 'money', { decimals: 2 })),
  ],
  fields: [
    nameField,
    field('contractLengthMonths', 'integer', { required: true }),
    field('advancePaymentDiscountPercent', 'percent', { required: true, decimals: 2 }),
    ...billingFees.map((f) => field(f, 'money', { required: true, decimals: 2 })),
  ],
  messages: {
    created: 'billingPlanCreated',
    updated: 'billingPlanUpdated',
    deleted: 'billingPlanDeleted',
    duplicate: 'billingPlanNameExists',
    inUse: 'billingPlanInUse',
  },
  entity: z.object({
    id,
    name: z.string(),
    contractLengthMonths: z.number().int(),
    advancePaymentDiscountPercent: moneyString,
    ...alike(billingFees, () => moneyString),
  }),
  create: z.object({
    name,
    contractLengthMonths: reqInt(1, 120),
    advancePaymentDiscountPercent: reqPercent(),
    ...alike(billingFees, () => reqMoney(2)),
  }),
});

// ---- help files ----------------------------------------------------------------------------

export const HELP_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const HELP_FILE_ACCEPT = '.pdf,.doc,.docx';
const ROLE_OPTIONS = (Object.keys(ROLE) as Array<keyof typeof ROLE>).map((k) => ({
  value: ROLE[k],
  labelKey: `masters.enums.role.${k}`,
}));
const LANGUAGE_OPTIONS = (Object.keys(LANGUAGE) as Array<keyof typeof LANGUAGE>).map((k) => ({
  value: LANGUAGE[k],
  labelKey: `masters.enums.language.${k}`,
}));

/** Form fields arrive as strings. */
const idFromForm = (v: unknown) =>
  typeof v === 'string' ? (v.trim() === '' ? undefined : /^\d+$/.test(v.trim()) ? Number(v) : v) : v;

/** The page a help file belongs to: a route path of the menus, e.g. /admin/master/plan. */
export const helpPageSchema = z
  .string()
  .trim()
  .regex(/^\/[A-Za-z0-9/_-]{0,199}$/);

export const helpFileMaster = defineMaster({
  key: 'help',
  path: 'help',
  menuKey: 'help',
  permission: 'masters.help',
  searchable: ['page', 'fileName'],
  sortable: ['roleId', 'page', 'languageId', 'fileName', 'id'],
  defaultSort: 'page',
  filters: { roleId: { type: 'id' }, languageId: { type: 'id' } },
  columns: [
    col('roleId', 'enum', { options: ROLE_OPTIONS }),
    col('page'),
    col('languageId', 'enum', { options: LANGUAGE_OPTIONS }),
    col('fileName'),
    col('size', 'integer'),
  ],
  fields: [
    field('roleId', 'enum', { required: true, options: ROLE_OPTIONS }),
    field('page', 'page', { required: true, maxLength: 200 }),
    field('languageId', 'enum', { required: true, options: LANGUAGE_OPTIONS }),
    field('file', 'file', { required: true, accept: HELP_FILE_ACCEPT }),
  ],
  messages: { ...DEFAULT_MESSAGES, created: 'helpFileUploaded' },
  customWrite: true,
  entity: z.object({
    id,
    roleId: z.number().int(),
    page: z.string(),
    languageId: z.number().int(),
    fileId: id,
    fileName: z.string(),
    mime: z.string(),
    size: z.number().int(),
  }),
  /** The multipart form's text fields (the file travels beside them). */
  create: z.object({
    roleId: z.preprocess(
      idFromForm,
      z
        .number()
        .int()
        .refine((v) => (ROLE_IDS as readonly number[]).includes(v)),
    ),
    page: notBlank(helpPageSchema),
    languageId: z.preprocess(
      idFromForm,
      z
        .number()
        .int()
        .refine((v) => v === LANGUAGE.en || v === LANGUAGE.fi),
    ),
  }),
});

/** What a user gets for the help of a page (GET /api/help?page=). */
export const helpForPageSchema = z.object({
  id,
  fileName: z.string(),
  mime: z.string(),
  size: z.number().int(),
  languageId: z.number().int(),
  url: z.string(),
});
export type HelpForPage = z.infer<typeof helpForPageSchema>;

// ---- the registry ----------------------------------------------------------------------------

export const MASTER_RESOURCES = {
  operators: operatorMaster,
  countries: countryMaster,
  currencies: currencyMaster,
  costCenters: costCenterMaster,
  costGroups: costGroupMaster,
  costCategories: costCategoryMaster,
  costElements: costElementMaster,
  plans: planMaster,
  planGroups: planGroupMaster,
  basePlanGroups: basePlanGroupMaster,
  skippedNumbers: skippedNumberMaster,
  billingPlans: billingPlanMaster,
  help: helpFileMaster,
} as const;

export type MasterKey = keyof typeof MASTER_RESOURCES;

/**
 * Who may read the client and sub-company look-ups (`OPTIONS_URL.clients`, `.subCompanies`): the
 * holders of any master whose form picks a client from them.
 */
export const MASTER_LOOKUP_PERMISSIONS: readonly Permission[] = Object.values(MASTER_RESOURCES)
  .filter((m) =>
    m.fields.some((f) => f.optionsUrl === OPTIONS_URL.clients || f.optionsUrl === OPTIONS_URL.subCompanies),
  )
  .map((m) => m.permission);
export const masterByMenuKey = (menuKey: string) =>
  Object.values(MASTER_RESOURCES).find((m) => m.menuKey === menuKey);

export type Operator = z.infer<typeof operatorMaster.entity>;
export type Country = z.infer<typeof countryMaster.entity>;
export type Currency = z.infer<typeof currencyMaster.entity>;
export type CostCenter = z.infer<typeof costCenterMaster.entity>;
export type CostGroup = z.infer<typeof costGroupMaster.entity>;
export type CostCategory = z.infer<typeof costCategoryMaster.entity>;
export type CostElement = z.infer<typeof costElementMaster.entity>;
export type Plan = z.infer<typeof planMaster.entity>;
export type PlanCreate = z.output<typeof planMaster.create>;
export type PlanGroup = z.infer<typeof planGroupMaster.entity>;
export type SkippedNumber = z.infer<typeof skippedNumberMaster.entity>;
export type BillingPlan = z.infer<typeof billingPlanMaster.entity>;
export type BillingPlanCreate = z.output<typeof billingPlanMaster.create>;
export type HelpFile = z.infer<typeof helpFileMaster.entity>;
