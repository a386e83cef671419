import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '@kulu/shared';
import { LANGUAGE_KEY } from './storage';

export type { Lang };
export const LANGS: readonly Lang[] = ['en', 'fi'];

export const isLang = (v: unknown): v is Lang => v === 'en' || v === 'fi';

export function storedLanguage(): Lang {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_KEY);
  return isLang(v) ? v : 'en';
}

const applyDocumentLanguage = (lang: Lang) => {
  void import('./dayjs-locale').then((m) => m.applyDayjsLocale(lang));
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
};

/**
 * Each language's texts are their own chunk, loaded when the language is first used, so that the
 * login page carries one language and the texts can grow without growing its bundle.
 */
const LOCALES: Record<Lang, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('../locales/en.json'),
  fi: () => import('../locales/fi.json'),
};

/**
 * errors.<code> and validation.<kind>: @kulu/shared's messages, the one source of those texts, cut
 * to one language at build time (shared-texts-plugin.ts), so the login page carries one language.
 */
const SHARED_TEXTS: Record<Lang, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('virtual:shared-texts/en'),
  fi: () => import('virtual:shared-texts/fi'),
};

const loaded = new Set<Lang>();

async function ensureLanguage(lang: Lang): Promise<void> {
  // Not hasResourceBundle: a feature chunk may have added its own keys of this language first.
  if (loaded.has(lang)) return;
  const [{ default: texts }, { default: shared }] = await Promise.all([
    LOCALES[lang](),
    SHARED_TEXTS[lang](),
  ]);
  loaded.add(lang);
  // Deep-merge: feature chunks (masters labels) may have added keys of this language already.
  i18n.addResourceBundle(lang, 'translation', { ...texts, ...shared }, true, false);
}

void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: LANGS,
  // The shared texts use `{name}`; keep one placeholder style everywhere.
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  returnNull: false,
});
applyDocumentLanguage(storedLanguage());

/** Resolves when the stored language's texts are in: render the app after it. */
export const i18nReady: Promise<void> = ensureLanguage(storedLanguage());

/** Switches the interface language and remembers it under localStorage `language`. */
export async function setLanguage(lang: Lang): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, lang);
  applyDocumentLanguage(lang);
  await ensureLanguage(lang);
  await i18n.changeLanguage(lang);
}

export const currentLang = (): Lang => (isLang(i18n.language) ? i18n.language : 'en');

export default i18n;
