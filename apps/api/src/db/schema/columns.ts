import { numeric, timestamp } from 'drizzle-orm/pg-core';

/** Columns every schema file uses; kept free of table imports so that any schema file may import it. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A monthly price or fee: 2 decimals. */
export const price = (name: string) => numeric(name, { precision: 12, scale: 2 });
