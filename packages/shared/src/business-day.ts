/**
 * Kulu's business calendar (issue 22): every business date (payment and support days, contract
 * validity and the lock-out, report periods, reminders, date pickers) is a day in Europe/Helsinki,
 * on the server and in the browser alike, whatever the machine's own time zone. "Today" is the
 * Helsinki day of an instant taken from an injectable clock (the API's `deps.now()`, the browser's
 * `new Date()`), never its UTC day: between midnight and 02:00 (winter) or 03:00 (summer) Finnish
 * time the UTC day is still yesterday, and on the 1st of a month the previous month.
 */

export const BUSINESS_TIME_ZONE = 'Europe/Helsinki';

const dayParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The business day of an instant: its calendar day `YYYY-MM-DD` in Europe/Helsinki. */
export function helsinkiDay(now: Date): string {
  let y = '';
  let m = '';
  let d = '';
  for (const p of dayParts.formatToParts(now)) {
    if (p.type === 'year') y = p.value;
    else if (p.type === 'month') m = p.value;
    else if (p.type === 'day') d = p.value;
  }
  return `${y}-${m}-${d}`;
}

/** The business month of an instant: its month `YYYY-MM` in Europe/Helsinki. */
export const helsinkiMonth = (now: Date): string => helsinkiDay(now).slice(0, 7);

/** A day `YYYY-MM-DD` moved by `n` calendar days (pure calendar arithmetic, no time zone). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** A month `YYYY-MM` moved by `n` months (pure calendar arithmetic, no time zone). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const i = y! * 12 + (m! - 1) + n;
  return `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/**
 * The instant a business day `YYYY-MM-DD` begins: midnight in Europe/Helsinki (22:00 UTC of the
 * day before in winter, 21:00 in summer; Finland changes its clocks at 03:00/04:00, never at
 * midnight). For filters of timestamps by business days: `at >= start(from) and at < start(to + 1)`.
 */
export function helsinkiDayStart(day: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  for (const hours of [3, 2]) {
    const t = new Date(utcMidnight - hours * 3_600_000);
    if (helsinkiDay(t) === day && helsinkiDay(new Date(t.getTime() - 1)) !== day) return t;
  }
  throw new Error(`no Helsinki midnight for ${day}`);
}

/**
 * An instant as the interface writes a date and time (issue 37 item 19), in Helsinki time: English
 * `2 Dec 2026, 14:05` (never 02/12/2026), Finnish `2.12.2026 klo 14.05`. The activity log and its
 * export; empty for none.
 */
export function businessDateTime(value: string | Date | null | undefined, lang: 'en' | 'fi'): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(lang === 'fi' ? 'fi-FI' : 'en-GB', {
    day: 'numeric',
    month: lang === 'fi' ? 'numeric' : 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: BUSINESS_TIME_ZONE,
  }).format(date);
}
