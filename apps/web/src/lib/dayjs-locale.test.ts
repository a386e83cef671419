import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { REGISTERED_LOCALES, applyDayjsLocale } from './dayjs-locale';

describe('locale data', () => {
  it('is registered for English, Finnish and French (spec: English and French locale data)', () => {
    const date = dayjs('2026-12-02');
    expect(date.locale('fr').format('D MMMM YYYY')).toBe('2 décembre 2026');
    expect(date.locale('fi').format('MMMM')).toBe('joulukuu');
    expect(date.locale('en-gb').format('D MMMM YYYY')).toBe('2 December 2026');
    expect([...REGISTERED_LOCALES].sort()).toEqual(['en-gb', 'fi', 'fr']);
  });

  it('leaves the interface languages as they were: dates follow English or Finnish', () => {
    applyDayjsLocale('fi');
    expect(dayjs.locale()).toBe('fi');
    applyDayjsLocale('en');
    expect(dayjs.locale()).toBe('en-gb');
  });
});
