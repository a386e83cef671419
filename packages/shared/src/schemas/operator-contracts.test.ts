import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_ACCEPT,
  documentNameFromFile,
  documentNameSchema,
  isDocumentName,
  isReminderBetween,
  operatorContractUpdateSchema,
} from './operator-contracts.js';

describe('end date reminder rule', () => {
  it('lies after the start and before the end, both excluded, and needs both dates', () => {
    expect(isReminderBetween('2031-06-01', '2031-01-01', '2031-12-31')).toBe(true);
    expect(isReminderBetween('2031-01-02', '2031-01-01', '2031-12-31')).toBe(true);
    expect(isReminderBetween('2031-01-01', '2031-01-01', '2031-12-31')).toBe(false);
    expect(isReminderBetween('2031-12-31', '2031-01-01', '2031-12-31')).toBe(false);
    expect(isReminderBetween('2030-12-31', '2031-01-01', '2031-12-31')).toBe(false);
    expect(isReminderBetween('2031-06-01', null, '2031-12-31')).toBe(false);
    expect(isReminderBetween('2031-06-01', '2031-01-01', null)).toBe(false);
  });
});

describe('document names', () => {
  it('are letters and digits with single spaces between words', () => {
    for (const ok of ['Sopimus', 'Sopimus 2031', 'Liite Äö 2', 'ÅÄÖ', 'a'.repeat(100)]) {
      expect(isDocumentName(ok), ok).toBe(true);
    }
    for (const bad of [
      '',
      ' a',
      'a ',
      'a  b',
      'a-b',
      'a_b',
      'a.pdf',
      '../x',
      'a/b',
      'a\tb',
      'a'.repeat(101),
    ]) {
      expect(isDocumentName(bad), bad).toBe(false);
    }
    expect(documentNameSchema.parse('  Sopimus 1 ')).toBe('Sopimus 1');
    expect(documentNameSchema.safeParse('Sopimus-1').success).toBe(false);
  });
  it('are proposed from a file name without extension and symbols', () => {
    expect(documentNameFromFile('Hinnasto_2031-v2.final.xlsx')).toBe('Hinnasto 2031 v2 final');
    expect(documentNameFromFile('C:\\docs\\sopimus (1).pdf')).toBe('sopimus 1');
    expect(isDocumentName(documentNameFromFile('Äänet & viestit.csv'))).toBe(true);
    expect(DOCUMENT_ACCEPT).toBe('.doc,.docx,.xls,.xlsx,.csv,.pdf');
  });
});

describe('operator contract update', () => {
  it('trims the contact, defaults the reminder flag and refuses an end before the start', () => {
    expect(operatorContractUpdateSchema.parse({ salesContactName: ' Petri ' })).toEqual({
      salesContactName: 'Petri',
      uploadInvoiceReminder: false,
      contractStartDate: null,
      contractEndDate: null,
      contractEndReminder: null,
    });
    const r = operatorContractUpdateSchema.safeParse({
      contractStartDate: '2031-05-01',
      contractEndDate: '2031-04-30',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['contractEndDate']);
    expect(operatorContractUpdateSchema.safeParse({ contractStartDate: '2031-02-30' }).success).toBe(false);
  });
});
