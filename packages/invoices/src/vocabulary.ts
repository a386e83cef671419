import type { LineCategory, LineRegion } from './types.js';

export interface Classification {
  category: LineCategory;
  region: LineRegion | null;
}

const RULES: { pattern: RegExp; category: LineCategory; regional: boolean }[] = [
  { pattern: /^(hyvitys|alennus)\b/i, category: 'discount', regional: false },
  {
    pattern: /^(liittymän avausmaksu|sim-kortin vaihto|laskutuslisä|avausmaksu|toimitusmaksu)/i,
    category: 'one_off',
    regional: false,
  },
  { pattern: /^(palvelunumerot|maksulliset palvelut)/i, category: 'service_number', regional: false },
  { pattern: /^(puhelut|ulkomaanpuhelut|roaming puhelut)/i, category: 'voice', regional: true },
  { pattern: /^(roaming )?tekstiviestit/i, category: 'sms', regional: true },
  { pattern: /^(roaming )?multimediaviestit/i, category: 'mms', regional: true },
  { pattern: /^(roaming )?datasiirto/i, category: 'data', regional: true },
];

export function regionOf(label: string): LineRegion {
  if (/pohjoismai|baltia/i.test(label)) return 'nordic_baltic';
  if (/eu\/eta|\beu\b|eta-alue/i.test(label)) return 'eu';
  if (/muualla|ulkomaan|maailma/i.test(label)) return 'world';
  return 'domestic';
}

/**
 * Category and region of an invoice line from its label (see the vocabulary in the README). A label
 * outside the vocabulary is a monthly fee when it is billed for the invoice's own month in advance
 * (plans and add-on packages), else `other`.
 */
export function classifyLine(
  label: string,
  periodStart: string | null,
  invoiceMonth: string,
): Classification {
  for (const rule of RULES) {
    if (rule.pattern.test(label))
      return { category: rule.category, region: rule.regional ? regionOf(label) : null };
  }
  if (periodStart && periodStart.slice(0, 7) === invoiceMonth)
    return { category: 'monthly_fee', region: null };
  return { category: 'other', region: null };
}
