import { timestamp } from 'drizzle-orm/pg-core';

/** Columns every schema file uses; kept free of table imports so that any schema file may import it. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
