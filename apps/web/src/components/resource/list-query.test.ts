import { describe, expect, it } from 'vitest';
import { costElementMaster, planMaster } from '@kulu/shared';
import {
  clampPage,
  fileNameFrom,
  initialListState,
  listParams,
  sortFromTable,
  unpagedParams,
} from './list-query';

describe('list query', () => {
  it('asks for the first page in the default order', () => {
    expect(listParams(planMaster, initialListState(planMaster))).toEqual({
      page: 1,
      pageSize: 20,
      sort: 'name',
      order: 'asc',
    });
  });

  it('sends search and only the declared, valid filters', () => {
    const state = {
      ...initialListState(planMaster),
      page: 3,
      q: '  5G ',
      filters: {
        operatorId: 2,
        planType: 'flat_rate',
        considerForOptimization: false,
        scope: 'bogus',
        nope: 1,
      },
    };
    expect(listParams(planMaster, state)).toEqual({
      page: 3,
      pageSize: 20,
      sort: 'name',
      order: 'asc',
      q: '5G',
      operatorId: 2,
      planType: 'flat_rate',
      considerForOptimization: 'false',
    });
  });

  it('exports the same list without paging', () => {
    const state = { ...initialListState(costElementMaster), filters: { status: 'uncategorized' } };
    expect(unpagedParams(costElementMaster, state)).toEqual({
      sort: 'name',
      order: 'asc',
      status: 'uncategorized',
    });
  });

  it('maps the table sorter and falls back to the default sort', () => {
    expect(sortFromTable(planMaster, 'listPrice', 'descend')).toEqual({ sort: 'listPrice', order: 'desc' });
    expect(sortFromTable(planMaster, 'listPrice', null)).toEqual({ sort: 'name', order: 'asc' });
    expect(sortFromTable(planMaster, 'unlimited', 'ascend')).toEqual({ sort: 'name', order: 'asc' });
  });

  it('steps back when the last page is gone', () => {
    expect(clampPage(3, 20, 40)).toBe(2);
    expect(clampPage(3, 20, 41)).toBe(3);
    expect(clampPage(2, 20, 0)).toBe(1);
  });

  it('reads the file name of a download', () => {
    expect(fileNameFrom('attachment; filename="plans-2026-03-01.xlsx"', 'x.xlsx')).toBe(
      'plans-2026-03-01.xlsx',
    );
    expect(fileNameFrom('attachment; filename="Ohje%20k%C3%A4ytt%C3%A4j%C3%A4lle.pdf"', 'x')).toBe(
      'Ohje käyttäjälle.pdf',
    );
    expect(fileNameFrom(null, 'x.xlsx')).toBe('x.xlsx');
  });
});
