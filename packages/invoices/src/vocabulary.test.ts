import { describe, expect, it } from 'vitest';
import { classifyLine } from './vocabulary.js';

describe('classifyLine', () => {
  it.each([
    ['Puhelut kotimaahan', '2026-10-01', 'voice', 'domestic'],
    ['Puhelut Pohjoismaissa ja Baltiassa', '2026-10-01', 'voice', 'nordic_baltic'],
    ['Puhelut EU/ETA-alueella', '2026-10-01', 'voice', 'eu'],
    ['Ulkomaanpuhelut', '2026-10-01', 'voice', 'world'],
    ['Roaming puhelut muualla', '2026-10-01', 'voice', 'world'],
    ['Tekstiviestit', '2026-10-01', 'sms', 'domestic'],
    ['Tekstiviestit muualla', '2026-10-01', 'sms', 'world'],
    ['Multimediaviestit', '2026-10-01', 'mms', 'domestic'],
    ['Datasiirto Pohjoismaat ja Baltia', '2026-10-01', 'data', 'nordic_baltic'],
    ['Datasiirto EU/ETA', '2026-10-01', 'data', 'eu'],
    ['Palvelunumerot', '2026-10-01', 'service_number', null],
    ['Liittymän avausmaksu', null, 'one_off', null],
    ['Laskutuslisä', null, 'one_off', null],
    ['Hyvitys', null, 'discount', null],
    ['Alennus', '2026-11-01', 'discount', null],
    ['Elisa Yritysliittymä 5G (1000M)', '2026-11-01', 'monthly_fee', null],
    ['Lisälaite data', '2026-11-01', 'monthly_fee', null],
    ['Something else', '2026-10-01', 'other', null],
  ])('%s → %s / %s', (label, periodStart, category, region) => {
    expect(classifyLine(label, periodStart, '2026-11')).toEqual({ category, region });
  });
});
