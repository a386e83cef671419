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

/** A timestamp as date and time in the interface language. */
export function formatDateTime(value: string | null, lang: 'en' | 'fi'): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return new Intl.DateTimeFormat(lang === 'fi' ? 'fi-FI' : 'en-GB', {
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(d);
}
