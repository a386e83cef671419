/**
 * Finnish number, date, duration and phone-number formats, exact: numbers are parsed into integers
 * scaled by 10^scale (cents for money), never summed as floats.
 */

const MINUS = /^[-\u2212\u2013]/;
const TRAILING_MINUS = /[-\u2212\u2013]$/;
const SPACES = /[\s\u00a0\u202f]/g;

/**
 * Parses `1 234,56`, `1\u00a0234,56`, `-12,30`, `−12,30`, `12,30-`, `12` into an integer scaled by
 * 10^scale (`parseScaled('1 234,5', 2) === 123450`). Returns null when the text is not such a number
 * or has more decimals than `scale`.
 */
export function parseScaled(text: string, scale: number): number | null {
  let s = text.trim();
  let negative = false;
  if (MINUS.test(s)) {
    negative = true;
    s = s.slice(1).trimStart();
  } else if (TRAILING_MINUS.test(s)) {
    negative = true;
    s = s.slice(0, -1).trimEnd();
  } else if (s.startsWith('+')) {
    s = s.slice(1).trimStart();
  }
  // Thousands groups separated by single (no-break) spaces; decimal comma.
  if (!/^\d{1,3}(?:[ \u00a0\u202f]\d{3})*(?:,\d+)?$/.test(s) && !/^\d+(?:,\d+)?$/.test(s)) return null;
  s = s.replace(SPACES, '');
  const [whole, frac = ''] = s.split(',');
  if (frac.length > scale) return null;
  const value = Number(whole) * 10 ** scale + (frac ? Number(frac.padEnd(scale, '0')) : 0);
  if (!Number.isSafeInteger(value)) return null;
  return negative && value !== 0 ? -value : value;
}

/** Money in euros → integer cents, or null. */
export function parseCents(text: string): number | null {
  return parseScaled(text, 2);
}

export interface FormatOptions {
  /** Thousands separator: a space (default), a no-break space or none. */
  thousands?: ' ' | '\u00a0' | '';
  /** `-12,30` (default), `−12,30` (U+2212) or `12,30-`. */
  minus?: 'leading' | 'unicode' | 'trailing';
}

/** Formats an integer scaled by 10^scale the Finnish way: `formatScaled(-123456, 2) === '-1 234,56'`. */
export function formatScaled(value: number, scale: number, options: FormatOptions = {}): string {
  const { thousands = ' ', minus = 'leading' } = options;
  const abs = Math.abs(value);
  const unit = 10 ** scale;
  const whole = Math.floor(abs / unit);
  const frac = abs % unit;
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  const body = scale > 0 ? `${grouped},${String(frac).padStart(scale, '0')}` : grouped;
  if (value >= 0) return body;
  if (minus === 'trailing') return `${body}-`;
  return `${minus === 'unicode' ? '\u2212' : '-'}${body}`;
}

export function formatCents(cents: number, options?: FormatOptions): string {
  return formatScaled(cents, 2, options);
}

/** Integer scaled by 10^scale → a JSON number (exact to the printed decimals). */
export function scaledToNumber(value: number, scale: number): number {
  // An integer below 2^52 divided by a power of ten (both exact doubles, one correctly rounded
  // division) is already the double nearest its decimal text — what Number(text) gives — and its
  // ulp is below 10^-scale, so toFixed would give that very text: no text to make.
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 52 && scale >= 0 && scale <= 15) {
    const n = value / 10 ** scale;
    return n === 0 ? 0 : n;
  }
  return Number((value / 10 ** scale).toFixed(scale));
}

function isValidDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2200) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** `1.10.2026` or `01.10.2026` → `2026-10-01`; null when not a valid date. */
export function parseFinnishDate(text: string): string | null {
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isValidDate(y, mo, d)) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** `2026-10-01` → `1.10.2026` (`pad`: `01.10.2026`). */
export function formatFinnishDate(iso: string, pad = false): string {
  const [y, m, d] = iso.split('-');
  return pad ? `${d}.${m}.${y}` : `${Number(d)}.${Number(m)}.${y}`;
}

/** A date range `1.10.2026–31.10.2026` (en dash, hyphen, or either with spaces) anywhere in the text. */
export const PERIOD_PATTERN = /(\d{1,2}\.\d{1,2}\.\d{4})\s*[-\u2013\u2014]\s*(\d{1,2}\.\d{1,2}\.\d{4})/;

export function parsePeriod(text: string): { start: string; end: string } | null {
  const m = PERIOD_PATTERN.exec(text);
  if (!m) return null;
  const start = parseFinnishDate(m[1]);
  const end = parseFinnishDate(m[2]);
  return start && end ? { start, end } : null;
}

/** A call duration `h:mm:ss` → minutes in hundredths, rounded half up (`2:03:15` → 12325). */
export function parseDurationHundredths(text: string): number | null {
  const m = /^(\d+):([0-5]\d):([0-5]\d)$/.exec(text.trim());
  if (!m) return null;
  const seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  // seconds / 60 * 100 = seconds * 5 / 3, rounded half up in integers.
  return Math.floor((seconds * 10 + 3) / 6);
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** National (`040 123 4567`) or international (`+358 40 123 4567`) Finnish number → E.164, or null. */
export function toE164(text: string): string | null {
  const compact = text.replace(/[\s\u00a0-]/g, '');
  let m = /^\+358(\d{5,12})$/.exec(compact);
  if (m) return `+358${m[1]}`;
  m = /^00358(\d{5,12})$/.exec(compact);
  if (m) return `+358${m[1]}`;
  m = /^0(\d{5,12})$/.exec(compact);
  if (m) return `+358${m[1]}`;
  return null;
}

/** `+358401234567` → `040 123 4567` (national) or `+358 40 123 4567` (international). */
export function formatPhone(e164: string, style: 'national' | 'international'): string {
  const rest = e164.replace(/^\+358/, '');
  const prefix = rest.slice(0, 2);
  const tail = rest.slice(2);
  const grouped = tail.length > 4 ? `${tail.slice(0, tail.length - 4)} ${tail.slice(-4)}` : tail;
  return style === 'national' ? `0${prefix} ${grouped}` : `+358 ${prefix} ${grouped}`;
}

/** `25,5 %` / `24 %` → percent in tenths (255 / 240). */
export function parsePercentTenths(text: string): number | null {
  const m = /^(\d{1,2}(?:,\d)?)\s*%$/.exec(text.trim());
  return m ? parseScaled(m[1], 1) : null;
}
