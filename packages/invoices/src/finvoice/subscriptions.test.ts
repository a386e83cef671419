import { describe, expect, it } from 'vitest';
import { assignRows, emptyRow, type FinvoiceRow } from './parse.js';
import { findPhoneNumber, numberAndName, numberAtStart, withoutLabels } from './subscriptions.js';

describe('the subscription-number finder', () => {
  it('finds national numbers with and without spaces and international +358 / 00358 numbers', () => {
    for (const text of [
      '040 123 4567',
      '0401234567',
      '+358 40 123 4567',
      '+358401234567',
      '00358 40 1234567',
      'Liittymä 040 123 4567 Matti',
    ]) {
      expect(findPhoneNumber(text)?.phoneNumber, text).toBe('+358401234567');
    }
  });

  it('does not take business ids, amounts, dates or other numbers for a phone number', () => {
    for (const text of [
      'Y-tunnus 0116510-6',
      'Summa 0,069 EUR',
      '1.10.2026–31.10.2026',
      'Asiakasnumero 4241970',
      'Kustannuspaikka 1001',
      '20261001',
      'Laskunumero 636519896',
    ]) {
      expect(findPhoneNumber(text), text).toBeNull();
    }
  });

  it('gives the user name after the number, or before it without a lead word', () => {
    expect(numberAndName('040 123 4567 Matti Meikäläinen')).toEqual({
      phoneNumber: '+358401234567',
      userName: 'Matti Meikäläinen',
    });
    expect(numberAndName('Numero 050 765 4321 \u2013 Åsa Öhman')).toEqual({
      phoneNumber: '+358507654321',
      userName: 'Åsa Öhman',
    });
    expect(numberAndName('Maija Virtanen / +358 44 111 2222')?.userName).toBe('Maija Virtanen');
    expect(numberAndName('Liittymä 044 111 2222')?.userName).toBe('');
  });

  it('leaves labels before a name or a number out of the user name (issue 38 item 6)', () => {
    for (const [text, userName] of [
      ['040 123 4567 Käyttäjä Matti Meikäläinen', 'Matti Meikäläinen'],
      ['Käyttäjä: Matti Meikäläinen 040 123 4567', 'Matti Meikäläinen'],
      ['Liittymä 040 123 4567 Käyttäjä: Matti Meikäläinen', 'Matti Meikäläinen'],
      ['Liittymä: 040 123 4567 / User: Matti Meikäläinen', 'Matti Meikäläinen'],
      ['User: Matti Meikäläinen, Subscription: +358 40 123 4567', 'Matti Meikäläinen'],
      ['Käyttäjä Matti Meikäläinen Liittymä: 0401234567', 'Matti Meikäläinen'],
      ['Puhelinnumero: 040 123 4567 Käyttäjä: Anna-Liisa Nurmi', 'Anna-Liisa Nurmi'],
      ['Numero 040 123 4567 \u2013 Käyttäjä Matti Numeronen', 'Matti Numeronen'],
      ['Liittymä: 040 123 4567', ''],
    ]) {
      expect(numberAndName(text), text).toEqual({ phoneNumber: '+358401234567', userName });
    }
    expect(withoutLabels('Käyttäjä: Matti Meikäläinen')).toBe('Matti Meikäläinen');
    expect(withoutLabels('Numerola Oy')).toBe('Numerola Oy');
  });

  it('takes a number at the start of an article name and the rest as the label', () => {
    expect(numberAtStart('+358 40 123 4567 Puhelut kotimaahan')).toEqual({
      phoneNumber: '+358401234567',
      label: 'Puhelut kotimaahan',
    });
    expect(numberAtStart('0401234567 / Datasiirto EU/ETA')?.label).toBe('Datasiirto EU/ETA');
    expect(numberAtStart('Puhelut kotimaahan 040 123 4567')).toBeNull();
    expect(numberAtStart('040 123 4567')).toBeNull();
  });
});

function row(fields: Partial<FinvoiceRow>, index = 1): FinvoiceRow {
  return { ...emptyRow(index), vatRate: '25,5', vatExcluded: '1,00', ...fields };
}
const text = (articleName: string, accountDimension: string | null = null) =>
  row({ articleName, accountDimension, vatExcluded: null, vatRate: null });
const numbers = (rows: FinvoiceRow[]) => assignRows(rows).map((r) => r.assigned.phoneNumber);

describe('rows → subscriptions', () => {
  it('a heading row holds for the rows below it until the next heading, a subtotal block or "Muut maksut"', () => {
    const rows = [
      text('Numero 040 111 1111 \u2013 Matti Meikäläinen', '1001'),
      row({ articleName: 'Yritysliittymä' }),
      row({ articleName: 'Puhelut kotimaahan' }),
      text('Numero 050 222 2222 \u2013 Maija Virtanen'),
      row({ articleName: 'Yritysliittymä' }),
      row({ subBlock: true, vatExcluded: null }),
      row({ articleName: 'Laskutuslisä' }),
      text('Numero 040 111 1111 \u2013 Matti Meikäläinen'),
      row({ articleName: 'Tekstiviestit' }),
      text('Muut maksut'),
      row({ articleName: 'Laskutuslisä' }),
    ];
    expect(numbers(rows)).toEqual([
      '+358401111111',
      '+358401111111',
      '+358502222222',
      null,
      '+358401111111',
      null,
    ]);
    const first = assignRows(rows)[0].assigned;
    expect(first).toEqual({
      phoneNumber: '+358401111111',
      userName: 'Matti Meikäläinen',
      costCenter: '1001',
      label: 'Yritysliittymä',
    });
  });

  it('a number in the row itself wins over the heading, and rows of one subscription need not be adjacent', () => {
    const rows = [
      text('Kuukausimaksut'),
      row({ articleName: 'Yritysliittymä', freeTexts: ['040 111 1111 Matti'] }),
      row({ articleName: 'Yritysliittymä', freeTexts: ['0502222222 Maija'] }),
      text('Käyttömaksut'),
      row({ articleName: '+358 40 111 1111 Puhelut kotimaahan', freeTexts: ['Matti'] }),
      row({ articleName: '+358502222222 Datasiirto kotimaa' }),
      row({ articleName: 'Laskutuslisä' }),
    ];
    const assigned = assignRows(rows).map((r) => r.assigned);
    expect(assigned.map((a) => a.phoneNumber)).toEqual([
      '+358401111111',
      '+358502222222',
      '+358401111111',
      '+358502222222',
      null,
    ]);
    expect(assigned[2]).toMatchObject({ label: 'Puhelut kotimaahan', userName: 'Matti' });
    expect(assigned[3]).toMatchObject({ label: 'Datasiirto kotimaa', userName: '' });
  });
});
