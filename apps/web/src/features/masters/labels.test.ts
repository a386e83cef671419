import { describe, expect, it } from 'vitest';
import { MASTER_RESOURCES, masterByMenuKey, ADMIN_MENU } from '@kulu/shared';
import en from '../../locales/en.json';
import fi from '../../locales/fi.json';
import { textAt } from '../../locales/text-at';
import { MASTER_EXTRAS } from './extras';
import { nestLabels } from './labels';

const keysOf = (obj: unknown, prefix = ''): string[] =>
  obj && typeof obj === 'object'
    ? Object.entries(obj).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k))
    : [prefix];

describe('masters texts', () => {
  const bundles = { en: { ...en, ...nestLabels('en') }, fi: { ...fi, ...nestLabels('fi') } };
  // nestLabels merges under `masters`; check the merged tree like i18next does.
  const merged = (lang: 'en' | 'fi') => ({
    ...bundles[lang],
    masters: { ...(lang === 'en' ? en.masters : fi.masters), ...(nestLabels(lang).masters as object) },
  });

  it('has the same keys in English and Finnish', () => {
    expect(keysOf(fi.masters).sort()).toEqual(keysOf(en.masters).sort());
  });

  it('has every label, enum, title and dialog title of every master in both languages', () => {
    for (const lang of ['en', 'fi'] as const) {
      const texts = merged(lang);
      for (const r of Object.values(MASTER_RESOURCES)) {
        const keys = [
          `masters.titles.${r.key}`,
          `masters.modal.${r.key}.add`,
          `masters.modal.${r.key}.edit`,
          ...r.fields.map((f) => f.labelKey),
          ...r.columns.map((c) => c.labelKey),
          ...[...r.fields, ...r.columns].flatMap((x) => (x.options ?? []).map((o) => o.labelKey)),
        ];
        for (const key of keys) expect(typeof textAt(texts, key), `${lang} ${key}`).toBe('string');
      }
    }
  });

  it('finds a master for every Masters menu entry, each with a page name', () => {
    const group = ADMIN_MENU.find((m) => m.key === 'master')!;
    expect(group.children).toHaveLength(13);
    for (const entry of group.children!) {
      expect(masterByMenuKey(entry.key), entry.key).toBeDefined();
      expect(entry.page).toBe('master');
    }
  });

  it('gives every ref field and id filter a place to load its choices', () => {
    for (const r of Object.values(MASTER_RESOURCES)) {
      for (const f of r.fields)
        if (f.type === 'ref') expect(f.optionsUrl, `${r.key}.${f.key}`).toMatch(/^\/api\//);
      for (const [key, filter] of Object.entries(r.filters)) {
        const field = r.fields.find((f) => f.key === key);
        if (filter.type === 'id')
          expect(field?.optionsUrl ?? field?.options, `${r.key} filter ${key}`).toBeTruthy();
      }
    }
  });

  it('keeps the special parts to masters that exist', () => {
    for (const key of Object.keys(MASTER_EXTRAS)) expect(Object.keys(MASTER_RESOURCES)).toContain(key);
  });
});
