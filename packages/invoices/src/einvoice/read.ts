/**
 * Small readers every e-invoice format's reader uses: an element's text within Kulu's limits, and a
 * calendar date from its year, month and day.
 */
import type { XmlReader } from '../finvoice/xml.js';
import { TEXT_LIMITS, TextTooLongError } from '../limits.js';

/**
 * An element's trimmed text, refused when longer than any field Kulu reads may be (limits.ts). A row's
 * element is named `field of rowElement rowIndex` (`RowFreeText of row 12`), built only when refused.
 */
export function elementText(
  reader: XmlReader,
  field: string,
  rowElement?: string,
  rowIndex?: number,
): string {
  const text = reader.text().trim();
  if (text.length > TEXT_LIMITS.element) {
    const what = rowElement === undefined ? field : `${field} of ${rowElement} ${rowIndex}`;
    throw new TextTooLongError(what, text.length, TEXT_LIMITS.element);
  }
  return text;
}

/** `yyyy-mm-dd` from a date's digits (`2026`, `02`, `28`); null when it is not a day of the calendar. */
export function isoDate(year: string, month: string, day: string): string | null {
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  return `${year}-${month}-${day}`;
}
