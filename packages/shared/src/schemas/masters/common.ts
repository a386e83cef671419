import { z } from 'zod';
import type { Permission } from '../../permissions.js';
import type { MessageCode } from '../../messages.js';
import {
  blankAsNull,
  blankToNull,
  blankToUndefined,
  idSchema,
  listQuery,
  notBlank,
  pagedAnswer,
  searchText,
  text,
} from '../primitives.js';

/**
 * Building blocks of the master resources: field schemas whose zod issues come out as the
 * spec's `{name} is required` / `{name} is invalid!` (a blank or missing value is "required",
 * anything else wrong is "invalid"), and the declaration type that the API's generic resource
 * mechanism and the web's generic table and form both read.
 *
 * Money travels as a decimal string ("15.90"); see docs/decisions/0002-master-resources.md.
 */

const intLike = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);
/** An amount from a number or a string, a decimal comma read as a point ("15,90"). */
export const decimalLike = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v)
    ? String(v)
    : typeof v === 'string'
      ? v.trim().replace(',', '.')
      : v;

/** A required text: missing or blank is "required"; control characters are refused. */
export const reqText = (max = 200) => notBlank(text({ max }));
/** An optional text: missing or blank becomes null; `multiline` allows tab and line breaks. */
export const optText = (max = 500, multiline = false) => blankAsNull(text({ max, multiline }));

/** A required whole number (also from a numeric string). */
export const reqInt = (min = 0, max = 2_147_483_647) =>
  z.preprocess((v) => intLike(blankToUndefined(v)), z.number().int().min(min).max(max));
export const optInt = (min = 0, max = 2_147_483_647) =>
  z
    .preprocess((v) => intLike(blankToNull(v)), z.number().int().min(min).max(max).nullish())
    .transform((v) => v ?? null);

/** A reference to another row by id. */
export const reqId = () => reqInt(1);
export const optId = () => optInt(1);

const moneyPattern = (decimals: number) => new RegExp(`^\\d{1,9}(\\.\\d{1,${decimals}})?$`);
/** A non-negative amount with at most `decimals` decimals, from a number or a string ("15,90" too). */
export const reqMoney = (decimals = 2) =>
  z.preprocess((v) => blankToUndefined(decimalLike(v)), z.string().regex(moneyPattern(decimals)));
export const optMoney = (decimals = 2) =>
  z
    .preprocess((v) => blankToNull(decimalLike(v)), z.string().regex(moneyPattern(decimals)).nullish())
    .transform((v) => v ?? null);
/** A percentage 0–100 with two decimals. */
export const reqPercent = () =>
  z.preprocess(
    (v) => blankToUndefined(decimalLike(v)),
    z
      .string()
      .regex(moneyPattern(2))
      .refine((s) => Number(s) <= 100),
  );

/** A required choice: missing is "required", a value outside the list "invalid". */
export const reqEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  notBlank(z.string().pipe(z.enum(values)));
export const enumWithDefault = <const T extends readonly [string, ...string[]]>(
  values: T,
  fallback: T[number],
) => notBlank(z.enum(values).default(fallback as never));
export const boolField = (fallback = false) => z.boolean().default(fallback);

/** Amounts as the API answers them: decimal strings. */
export const moneyString = z.string();

/** A zod shape of alike fields: `schema()` under each of `keys`, in their order. */
export const alike = <const K extends string, S extends z.ZodType>(keys: readonly K[], schema: () => S) =>
  Object.fromEntries(keys.map((k) => [k, schema()])) as Record<K, S>;

// ---- declarations -------------------------------------------------------------------------

export type MasterFieldType =
  'text' | 'integer' | 'money' | 'percent' | 'boolean' | 'enum' | 'ref' | 'phone' | 'page' | 'file';

export interface MasterOption {
  value: string | number;
  labelKey: string;
}

/** A form field of the add/edit modal. `key` is the create-schema key. */
export interface MasterField {
  key: string;
  /** Translation key of the field's name; texts in MASTER_LABELS. */
  labelKey: string;
  type: MasterFieldType;
  required?: boolean;
  /** Fixed choices of an enum (labels in MASTER_LABELS). */
  options?: readonly MasterOption[];
  /** Where a `ref` field gets its choices: answers `[{ id, name }]`. */
  optionsUrl?: string;
  /** The choices depend on another field's value, sent as a query parameter of the same name. */
  dependsOn?: string;
  /** Shown only when another field has one of these values. */
  visibleWhen?: { field: string; values: readonly (string | number | boolean)[] };
  maxLength?: number;
  decimals?: number;
  /** For `file`: accepted extensions. */
  accept?: string;
}

/** A column of the list table (and of the Excel export). `key` is an entity key. */
export interface MasterColumn {
  key: string;
  labelKey: string;
  /** `date`: a day, `YYYY-MM-DD`. */
  type: 'text' | 'date' | 'integer' | 'money' | 'percent' | 'boolean' | 'enum';
  options?: readonly MasterOption[];
  decimals?: number;
}

export type MasterFilter =
  { type: 'id' } | { type: 'boolean' } | { type: 'enum'; values: readonly [string, ...string[]] };

export interface MasterMessages {
  created: MessageCode;
  updated: MessageCode;
  deleted: MessageCode;
  /** Answered with 409 when a row with the same name (or other unique value) exists. */
  duplicate: MessageCode;
  /** Answered with 409 when the row is referenced and cannot be deleted. */
  inUse: MessageCode;
}

export interface MasterMeta<
  E extends z.ZodObject = z.ZodObject,
  C extends z.ZodType = z.ZodType,
  S extends readonly [string, ...string[]] = readonly [string, ...string[]],
  T extends z.ZodRawShape = z.ZodRawShape,
> {
  /** Resource key: `masters.titles.<key>`, the key of MASTER_RESOURCES. */
  key: string;
  /** URL segment: `/api/masters/<path>`. */
  path: string;
  /** Key of the menu entry under /admin/master (spec §2): a master's; a client section has none. */
  menuKey?: string;
  permission: Permission;
  /** Text fields that `q` searches (ILIKE). */
  searchable: readonly string[];
  sortable: S;
  defaultSort: S[number];
  filters: Readonly<Record<string, MasterFilter>>;
  columns: readonly MasterColumn[];
  fields: readonly MasterField[];
  messages: MasterMessages;
  /** Rows are created by a special route (help files: multipart upload) rather than POST JSON. */
  customWrite?: boolean;
  /** The order of a list that asks for no sort (default: the query's `order`, i.e. ascending). */
  defaultOrder?: 'asc' | 'desc';
  /**
   * Further keys of the list answer beside the page, computed over the whole list (not only the
   * page), e.g. a client's total paid amount; the API's resource declares how (`totals`).
   */
  totals?: T;
  /**
   * Writes answer with the message: POST and PUT `{ [savedAs]: entity, code, message }`, DELETE
   * `{ code, message }` (default: POST and PUT answer the entity, DELETE `{ id, code, message }`).
   */
  savedAs?: string;
  /** With `savedAs`: DELETE answers `{ id, code, message }` still (as without it). */
  deleteAnswersId?: boolean;
  entity: E;
  create: C;
}

export const enumOptions = (enumName: string, values: readonly string[]): MasterOption[] =>
  values.map((value) => ({ value, labelKey: `masters.enums.${enumName}.${value}` }));

/**
 * Table columns and form fields labelled `<prefix>.<key>` (`extra.labelKey` names another label,
 * e.g. a name column labelled as the reference field it shows).
 */
export const labelledBy = (prefix: string) => {
  const labelKey = (key: string) => `${prefix}.${key}`;
  return {
    labelKey,
    col: (
      key: string,
      type: MasterColumn['type'] = 'text',
      extra: Partial<MasterColumn> = {},
    ): MasterColumn => ({
      key,
      labelKey: labelKey(key),
      type,
      ...extra,
    }),
    field: (key: string, type: MasterField['type'], extra: Partial<MasterField> = {}): MasterField => ({
      key,
      labelKey: labelKey(key),
      type,
      ...extra,
    }),
  };
};

const filterSchema = (f: MasterFilter) =>
  f.type === 'id'
    ? idSchema.optional()
    : f.type === 'boolean'
      ? z
          .enum(['true', 'false'])
          .transform((v) => v === 'true')
          .optional()
      : z.enum(f.values).optional();

/**
 * The list query of a resource: paging, whitelisted sort, search (when something is searchable)
 * and its declared filters.
 */
export function listQuerySchemaFor<S extends readonly [string, ...string[]]>(meta: {
  sortable: S;
  searchable?: readonly string[];
  filters: Readonly<Record<string, MasterFilter>>;
}) {
  const filters: Record<string, z.ZodType> = {};
  for (const [k, f] of Object.entries(meta.filters)) filters[k] = filterSchema(f);
  return listQuery(meta.sortable, {
    ...(meta.searchable?.length === 0 ? {} : { q: searchText.optional() }),
    ...filters,
  });
}

export interface MasterListQuery {
  page: number;
  pageSize: number;
  sort?: string;
  order: 'asc' | 'desc';
  q?: string;
  [filter: string]: unknown;
}

export const listResponseSchemaOf = <E extends z.ZodType>(entity: E) => pagedAnswer(entity);

export interface MasterList<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const optionSchema = z.object({ id: z.number().int(), name: z.string() });
export type MasterOptionRow = z.infer<typeof optionSchema>;

export const idsSchema = z.object({ ids: z.array(idSchema).min(1).max(1000) });

/**
 * Declares a resource (a master, or a section nested under its client); adds its list query and
 * list response schemas (the page, and the declared `totals`).
 */
export function defineMaster<
  E extends z.ZodObject,
  C extends z.ZodType,
  const S extends readonly [string, ...string[]],
  T extends z.ZodRawShape = Record<never, never>,
>(meta: MasterMeta<E, C, S, T>) {
  return {
    ...meta,
    update: meta.create,
    listQuery: listQuerySchemaFor(meta),
    list: listResponseSchemaOf(meta.entity).extend((meta.totals ?? {}) as T),
  };
}

export type MasterResource = ReturnType<typeof defineMaster>;

export const DEFAULT_MESSAGES: MasterMessages = {
  created: 'created',
  updated: 'updated',
  deleted: 'deleted',
  duplicate: 'nameExists',
  inUse: 'inUse',
};
