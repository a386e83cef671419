/**
 * The value at a dotted key (`menu.reports.title`) of a language's texts, undefined where the path
 * ends: for the tests that every key a page or master names is translated.
 */
export const textAt = (texts: unknown, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>(
      (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      texts,
    );
