import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldMessage } from '@kulu/shared';

beforeAll(async () => {
  await i18n.init({ resources: {}, interpolation: { escapeValue: false, prefix: '{', suffix: '}' } });
  await import('./texts');
});

const t = (key: string, lng: 'en' | 'fi', options: Record<string, unknown> = {}) =>
  i18n.t(key, { lng, ...options });

describe('the Alerts page texts', () => {
  it('count alerts in the singular and the plural, never "alert(s)", in English and Finnish', () => {
    expect(t('alerts.acknowledgedCount', 'en', { count: 1 })).toBe('1 alert acknowledged');
    expect(t('alerts.acknowledgedCount', 'en', { count: 3 })).toBe('3 alerts acknowledged');
    expect(t('alerts.acknowledgeTitle', 'en', { count: 1 })).toBe('Acknowledge 1 alert');
    expect(t('alerts.acknowledgeTitle', 'en', { count: 2 })).toBe('Acknowledge 2 alerts');
    expect(t('alerts.acknowledgedCount', 'fi', { count: 1 })).toBe('1 hälytys kuitattu');
    expect(t('alerts.acknowledgedCount', 'fi', { count: 3 })).toBe('3 hälytystä kuitattu');
    expect(t('alerts.acknowledgeTitle', 'fi', { count: 1 })).toBe('Kuittaa 1 hälytys');
    expect(t('alerts.acknowledgeTitle', 'fi', { count: 2 })).toBe('Kuittaa 2 hälytystä');
    expect(t('alerts.acknowledgeMatchingTitle', 'en', { count: 1 })).toBe('Acknowledge 1 matching alert');
    expect(t('alerts.acknowledgeMatchingTitle', 'en', { count: 250 })).toBe(
      'Acknowledge all 250 matching alerts',
    );
    expect(t('alerts.acknowledgeMatchingTitle', 'fi', { count: 250 })).toBe(
      'Kuittaa kaikki 250 suodattimia vastaavaa hälytystä',
    );
  });

  it('name the amount threshold so that its field message says what is wrong ("At least is invalid!" before)', () => {
    expect(fieldMessage('invalid', t('alerts.rules.amount', 'en'), 'en')).toBe('Minimum amount is invalid!');
    expect(fieldMessage('invalid', t('alerts.rules.amount', 'fi'), 'fi')).toBe(
      'Vähimmäissumma on virheellinen!',
    );
  });
});
