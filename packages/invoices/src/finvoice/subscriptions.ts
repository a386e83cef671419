/**
 * Which subscription a Finvoice row belongs to. Finvoice has no field for it: operators put the
 * subscription number (national with or without spaces, or international `+358…`) and usually the
 * user's name in the row's free text, at the start of the article name (the label is then the rest),
 * or in a text row heading the subscription's rows (docs/decisions/0020-finvoice.md).
 */
import { toE164 } from '../finnish.js';

/**
 * A Finnish phone number inside text: `+358 40 123 4567`, `+358401234567`, `00358…`, `040 123 4567`,
 * `0401234567`; digits grouped by single spaces. Not part of a longer number, a business id
 * (`0116510-6`), an amount or a date.
 */
const PHONE = /(?<![\d+,.])(?:\+358|00358|0)(?: ?\d){6,11}(?![\d,.\-/]\d|\d)/;

/** Words that introduce the number in a heading (`Liittymä 040 …`, `Numero 040 …`). */
const LEAD_WORDS = /^(?:liittymä|liittymänumero|puhelinnumero|numero|nro|matkapuhelin|käyttäjä)\s*:?\s*$/i;
/**
 * Labels written before a name or a number in free text (`Käyttäjä Matti Meikäläinen`, `User: …`,
 * `Liittymä: 040 …`): not part of the user's name.
 */
const LABEL =
  '(?:käyttäjä|käyttäjän nimi|user|user name|liittymä|liittymänumero|puhelinnumero|numero|nro|matkapuhelin|subscription|phone number|phone)';
const LEADING_LABEL = new RegExp(`^${LABEL}(?:\\s*:\\s*|\\s+)`, 'i');
const TRAILING_LABEL = new RegExp(`[\\s/\u2013\u2014:,|-]+${LABEL}\\s*:?$|^${LABEL}\\s*:?$`, 'i');

/** A name without the labels around it (`Käyttäjä: Matti Meikäläinen` → `Matti Meikäläinen`). */
export function withoutLabels(text: string): string {
  let name = text;
  for (let previous = ''; previous !== name;) {
    previous = name;
    name = name.replace(LEADING_LABEL, '').replace(TRAILING_LABEL, '').replace(EDGE, '');
  }
  return name;
}

/** Separators between the number, the name and the label: `/`, `–`, `-`, `:`, `,`, `|`. */
const EDGE = /^[\s/\u2013\u2014:,|-]+|[\s/\u2013\u2014:,|-]+$/g;

export interface NumberMatch {
  /** E.164 (`+358401234567`). */
  phoneNumber: string;
  /** The text before the number, trimmed of separators. */
  before: string;
  /** The text after the number, trimmed of separators. */
  after: string;
}

/** The first Finnish phone number in `text`, with the text around it; null when there is none. */
export function findPhoneNumber(text: string): NumberMatch | null {
  const m = PHONE.exec(text);
  if (!m) return null;
  const phoneNumber = toE164(m[0]);
  if (!phoneNumber) return null;
  return {
    phoneNumber,
    before: text.slice(0, m.index).replace(EDGE, ''),
    after: text.slice(m.index + m[0].length).replace(EDGE, ''),
  };
}

/**
 * A number at the very start of an article name (`+358 40 123 4567 Puhelut kotimaahan`,
 * `0401234567 / Puhelut`): the number and the label after it; null otherwise.
 */
export function numberAtStart(articleName: string): { phoneNumber: string; label: string } | null {
  const m = findPhoneNumber(articleName);
  if (!m || m.before !== '' || m.after === '') return null;
  return { phoneNumber: m.phoneNumber, label: m.after };
}

/**
 * A number and the user's name in free text or a heading (`040 123 4567 Matti Meikäläinen`,
 * `Numero 040 123 4567 – Matti Meikäläinen`, `Matti Meikäläinen +358 40 123 4567`): the name is the
 * text after the number, else the text before it without a lead word (`Liittymä`, `Numero`); labels
 * before a name or a number (`Käyttäjä: …`, `User: …`, `Liittymä …`) are not part of it.
 */
export function numberAndName(text: string): { phoneNumber: string; userName: string } | null {
  const m = findPhoneNumber(text);
  if (!m) return null;
  let userName = withoutLabels(m.after);
  if (!userName && !LEAD_WORDS.test(m.before)) userName = withoutLabels(m.before);
  return { phoneNumber: m.phoneNumber, userName };
}

/** A text row that ends the subscription opened by a heading: invoice-level charges or a total. */
export function isSectionEnd(text: string): boolean {
  return /^(?:muut maksut|muut veloitukset|yhteiset|yleiset|laskukohtaiset|other charges)\b|yhteensä\b/i.test(
    text.trim(),
  );
}
