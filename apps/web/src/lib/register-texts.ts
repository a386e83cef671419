import i18n from 'i18next';
import type { Lang } from '@kulu/shared';

/**
 * Adds a module's texts under `key` (e.g. `alerts` for `alerts.*`) in both languages, deep-merged:
 * keys already there are kept, so several modules may add to one key.
 */
export function registerTexts(key: string, texts: Record<Lang, object>): void {
  for (const lang of ['en', 'fi'] as const) {
    i18n.addResourceBundle(lang, 'translation', { [key]: texts[lang] }, true, false);
  }
}
