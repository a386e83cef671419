import type { FetchRun } from '@kulu/shared';

export const RUN_COLOR: Record<FetchRun['status'], string> = {
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
};

/** "2026-03" (or a date in it) as the month's name and year in the interface language. */
export function formatMonth(value: string, lang: 'en' | 'fi'): string {
  const m = /^(\d{4})-(\d{2})/.exec(value);
  if (!m) return value;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
  return new Intl.DateTimeFormat(lang === 'fi' ? 'fi-FI' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}
