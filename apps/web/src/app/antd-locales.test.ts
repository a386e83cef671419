import { describe, expect, it } from 'vitest';
import { antdLocale } from './antd-locales';

/** Every text of a locale by its path (formats and "OK", the same in both languages, left out). */
function texts(locale: object, path = ''): Array<[string, string]> {
  return Object.entries(locale).flatMap(([k, v]): Array<[string, string]> => {
    const at = path ? `${path}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) return texts(v as object, at);
    return typeof v === 'string' && !/Format$|^OK$|^locale$/.test(k) && v !== 'OK' ? [[at, v]] : [];
  });
}

describe("antd's texts follow the interface language", () => {
  it('has a Finnish text for every English screen-reader label and pagination text of antd', () => {
    const fi = new Map(texts(antdLocale('fi')));
    const untranslated = texts(antdLocale('en'))
      .filter(([at, en]) => !/\.locale$/.test(at) && (fi.get(at) === undefined || fi.get(at) === en))
      .map(([at, en]) => `${at}: ${en}`);
    expect(untranslated).toEqual([]);
    expect(antdLocale('fi').Pagination).toMatchObject({
      page_size: 'Sivun koko',
      jump_to_confirm: 'vahvista',
    });
    expect(antdLocale('fi').DatePicker?.lang.timeSelect).toBe('Valitse aika');
    expect(antdLocale('en').Pagination?.page_size).toBe('Page Size');
  });
});
