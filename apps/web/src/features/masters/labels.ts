import type { i18n as I18n } from 'i18next';
import { MASTER_LABELS, type Lang } from '@kulu/shared';

/**
 * The masters' field, enum and title texts are declared once in @kulu/shared (MASTER_LABELS,
 * also used by the API's Excel export). They join the web app's translations when the masters
 * chunk loads, so the login page does not carry them.
 */
export function nestLabels(lang: Lang): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, texts] of Object.entries(MASTER_LABELS)) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (next && typeof next === 'object') node = next as Record<string, unknown>;
      else {
        const created: Record<string, unknown> = {};
        node[part] = created;
        node = created;
      }
    }
    node[parts[parts.length - 1]] = texts[lang];
  }
  return root;
}

export function registerMasterLabels(i18n: I18n): void {
  for (const lang of ['en', 'fi'] as const) {
    i18n.addResourceBundle(lang, 'translation', nestLabels(lang), true, false);
  }
}
