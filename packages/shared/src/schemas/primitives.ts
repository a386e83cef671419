import { z } from 'zod';

/**
 * The primitives every request schema is built from, declared once: ids, paging, sort and text.
 * Their zod issues carry a message code of MESSAGES (`invalidId`, `invalidPaging`, `invalidSort`,
 * `controlCharacters`), which the API's error handler answers as a 400 with a clear message.
 * A missing value keeps zod's own message, so forms still tell "required" from "invalid".
 */

/** Largest value of a PostgreSQL `integer` (serial ids). */
export const ID_MAX = 2_147_483_647;
export const PAGE_MAX = 1_000_000;
export const PAGE_SIZE_MAX = 200;
export const PAGE_SIZE_DEFAULT = 20;

/** A zod error option: the code for a present but wrong value, zod's own message for a missing one. */
const codeUnlessMissing = (code: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? undefined : code),
});

/** A whole number from a JSON number or a string of digits ("12", not "1.5", "1e3" or "0x1"). */
const digitsToNumber = (v: unknown) => (typeof v === 'string' && /^\s*\d{1,20}\s*$/.test(v) ? Number(v) : v);

/** A whole number in [min, max], from a number or a string of digits, refused with `code`. */
export const intIn = (min: number, max: number, code = 'validation') =>
  z.preprocess(
    digitsToNumber,
    z
      .number(codeUnlessMissing(code))
      .int({ error: code })
      .min(min, { error: code })
      .max(max, { error: code }),
  );

/** A row id: a positive whole number that fits PostgreSQL's `integer`. */
export const idSchema = intIn(1, ID_MAX, 'invalidId');
/** `/:id` */
export const idParams = z.object({ id: idSchema });

/** Paging of every list: page 1…1 000 000, page size 1…200. */
export const pagingQuery = z.object({
  page: intIn(1, PAGE_MAX, 'invalidPaging').default(1),
  pageSize: intIn(1, PAGE_SIZE_MAX, 'invalidPaging').default(PAGE_SIZE_DEFAULT),
});

/** A sort key among the resource's sortable keys; a wrong one is refused with `invalidSort`,
 * whose message names the allowed values. */
export const sortKey = <const S extends readonly [string, ...string[]]>(sortable: S) =>
  z.enum(sortable, { error: 'invalidSort' });
/** `asc` or `desc`. */
export const sortOrder = z.enum(['asc', 'desc'], { error: 'invalidSort' });

/** Sort (optional) and order (default `asc`) of a list, limited to the resource's sortable keys. */
export const sortQuery = <const S extends readonly [string, ...string[]]>(sortable: S) =>
  z.object({ sort: sortKey(sortable).optional(), order: sortOrder.default('asc') });

/**
 * Paging and a sort among `sortable` that falls back to `sort` in `order` (a list whose default is
 * not its first column ascending, e.g. the newest invoices first); the list's own filters follow.
 */
export const pagedSortedBy = <const S extends readonly [string, ...string[]]>(
  sortable: S,
  sort: S[number],
  order: 'asc' | 'desc',
) => ({
  ...pagingQuery.shape,
  sort: sortKey(sortable).default(sort),
  order: sortOrder.default(order),
});

/** The query of a paged, sorted list: paging, the sort among `sortable`, then the list's own filters. */
export const listQuery = <const S extends readonly [string, ...string[]], F extends z.ZodRawShape>(
  sortable: S,
  filters: F,
) => pagingQuery.extend({ ...sortQuery(sortable).shape, ...filters });

/**
 * Control characters (U+0000–U+001F, U+007F) never belong in a stored text: PostgreSQL refuses
 * NUL outright. Multi-line texts may hold tab, line feed and carriage return.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SINGLE_LINE = /^[^\u0000-\u001F\u007F]*$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const MULTI_LINE = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;
export const hasControlCharacters = (s: string, multiline = false) =>
  !(multiline ? MULTI_LINE : SINGLE_LINE).test(s);

export interface TextOptions {
  /** Longest accepted text after trimming (default 200). */
  max?: number;
  /** Shortest accepted text after trimming (default 0). */
  min?: number;
  /** Tab, line feed and carriage return allowed (notes, addresses). */
  multiline?: boolean;
  /** Leading and trailing blanks removed (default true; false for passwords). */
  trim?: boolean;
}

/** The one text primitive: bounded length, no control characters. */
export function text({ max = 200, min = 0, multiline = false, trim = true }: TextOptions = {}) {
  const base = trim ? z.string().trim() : z.string();
  return base
    .regex(multiline ? MULTI_LINE : SINGLE_LINE, { error: 'controlCharacters' })
    .min(min)
    .max(max);
}

/** A blank form value (empty or only spaces) is a missing one. */
export const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** A blank form value (empty or only spaces) is null. */
export const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** A required value: missing or blank is "required", anything else is checked by `schema`. */
export const notBlank = <S extends z.ZodType>(schema: S) => z.preprocess(blankToUndefined, schema);
/** An optional value: missing, null or blank is null, anything else is checked by `schema`. */
export const blankAsNull = <S extends z.ZodType>(schema: S) =>
  z.preprocess(blankToNull, schema.nullish()).transform((v) => v ?? null);

/** A search text (`q`): one line, at most 100 characters. */
export const searchText = text({ max: 100 });

// ---- answers ---------------------------------------------------------------------------------------

/**
 * A row's link to another row as an answer shows it: `<key>Id` and `<key>Name` side by side (an
 * invoice's client, a subscription's operator). `namedOrNull`: both null where the link is optional.
 */
type Named<K extends string, I extends z.ZodType, N extends z.ZodType> = Record<`${K}Id`, I> &
  Record<`${K}Name`, N>;
export const named = <const K extends string>(key: K) =>
  ({ [`${key}Id`]: z.number().int(), [`${key}Name`]: z.string() }) as Named<K, z.ZodNumber, z.ZodString>;
export const namedOrNull = <const K extends string>(key: K) =>
  ({ [`${key}Id`]: z.number().int().nullable(), [`${key}Name`]: z.string().nullable() }) as Named<
    K,
    z.ZodNullable<z.ZodNumber>,
    z.ZodNullable<z.ZodString>
  >;

/**
 * The answer of a list: its rows, how many match the filters, then what the list adds beside them
 * (`extra`: its totals and the like, in that order).
 */
export const listAnswer = <I extends z.ZodType, X extends z.ZodRawShape = Record<never, never>>(
  item: I,
  extra: X = {} as X,
) => z.object({ items: z.array(item), total: z.number().int(), ...extra });

/** The answer of a paged list: `listAnswer`, then the page it is. */
export const pagedAnswer = <I extends z.ZodType, X extends z.ZodRawShape = Record<never, never>>(
  item: I,
  extra: X = {} as X,
) => listAnswer(item, extra).extend({ page: z.number().int(), pageSize: z.number().int() });

/** The answer of a write that says only what was done: the message's code and text. */
export const messageAnswer = z.object({ code: z.string(), message: z.string() });

/** The answer of a write: the row as saved under its name (`{ payment, code, message }`). */
export const savedAnswer = <K extends string, R extends z.ZodType>(key: K, row: R) =>
  z.object({ [key]: row } as { [P in K]: R }).extend(messageAnswer.shape);
