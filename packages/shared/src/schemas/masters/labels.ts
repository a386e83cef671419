import type { Lang, Texts } from '../../messages.js';
import LABEL_TEXTS from '../../texts/master-labels.json' with { type: 'json' };

/**
 * English and Finnish texts of the master screens: field names (also used in the validation
 * messages `{name} is required`), enum values and the Excel export's headers. The data is
 * `texts/master-labels.json` (decision 0027); its keys are the `labelKey`s of the declarations,
 * and the Finnish follows the glossary (shared/glossary.md).
 */
export const MASTER_LABELS: Texts<string> = LABEL_TEXTS;

/** A master label in a language; the key itself when it has no text (a test keeps that from happening). */
export const masterLabel = (key: string, lang: Lang = 'en'): string => MASTER_LABELS[key]?.[lang] ?? key;
