import { integer, numeric, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Columns every schema file uses; kept free of table imports so that any schema file may import it. */

/** A moment: `timestamp with time zone`. */
export const moment = (name: string) => timestamp(name, { withTimezone: true });

/** When something happened, set by the database: not null, default now(). */
export const happenedAt = (name: string) => moment(name).notNull().defaultNow();

export const createdAt = () => happenedAt('created_at');
export const updatedAt = () => happenedAt('updated_at');

/** `created_at` and `updated_at`, in that order. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** A monthly price or fee: 2 decimals. */
export const price = (name: string) => numeric(name, { precision: 12, scale: 2 });

/**
 * A required reference (`integer not null references …`); the table comes as a getter, so that
 * this file imports no table.
 */
export const required = (name: string, target: () => AnyPgColumn, onDelete?: 'cascade' | 'set null') =>
  integer(name).notNull().references(target, { onDelete });
