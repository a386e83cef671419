/**
 * Finnish party identifiers of a Peppol (UBL) invoice → a business id (Y-tunnus) `1234567-8`.
 * Schemes (ISO 6523 ICD / Peppol EAS): 0037 LY-tunnus (the business id), 0216 OVT code (`0037`, the
 * business id's 8 digits, an optional suffix of up to 5 characters), 0212 Finnish organisation
 * identifier (the business id), 0213 Finnish VAT number (`FI` and the business id's 8 digits).
 */

/** One identifier a party states, with its scheme ('' when none) and where (for messages). */
export interface PartyId {
  scheme: string;
  value: string;
}

/** A business id as `1234567-8` from `1234567-8` or its 8 digits; null when not one. */
function fromDigits(value: string): string | null {
  const compact = value.replace(/[\s-]/g, '');
  return /^\d{8}$/.test(compact) ? `${compact.slice(0, 7)}-${compact[7]}` : null;
}

/**
 * The Finnish business id an identifier names, by its scheme; an identifier without a scheme (the
 * VAT number of PartyTaxScheme, a PartyIdentification) only when it is written as one (`1234567-8`,
 * `FI12345678`, an OVT code `0037…`); null otherwise.
 */
export function businessIdOf({ scheme, value }: PartyId): string | null {
  const v = value.trim();
  switch (scheme.trim()) {
    case '0037':
    case '0212':
      return fromDigits(v);
    case '0213':
      return /^FI/i.test(v) ? fromDigits(v.slice(2)) : fromDigits(v);
    case '0216':
      return ovtBusinessId(v);
    case '':
      if (/^\d{7}-\d$/.test(v)) return v;
      if (/^FI\s?\d{8}$/i.test(v)) return fromDigits(v.slice(2));
      return ovtBusinessId(v);
    default:
      return null;
  }
}

/** `003701165106` (+ suffix) → `0116510-6`; null when not an OVT code. */
function ovtBusinessId(value: string): string | null {
  const m = /^0037(\d{8})[0-9A-Za-z]{0,5}$/.exec(value.replace(/\s/g, ''));
  return m ? fromDigits(m[1]) : null;
}

/** The first business id among a party's identifiers (in the order given); null when none. */
export function firstBusinessId(ids: PartyId[]): string | null {
  for (const id of ids) {
    const found = businessIdOf(id);
    if (found) return found;
  }
  return null;
}
