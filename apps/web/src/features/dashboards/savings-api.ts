import type { Lang, Savings, SavingsQuery } from '@kulu/shared';
import { shownQuery } from '../../lib/shown-query';
import { DASHBOARDS_KEY } from './api';

/**
 * The Savings dashboard's figures for the filters; the previous answer stays on screen while
 * the next loads. Marks and re-optimizations change them: the optimization page invalidates
 * `['optimization']`, which this key starts with too.
 */
export const savingsQuery = (params: SavingsQuery, lang: Lang, enabled = true) =>
  shownQuery<Savings>(
    ['optimization', ...DASHBOARDS_KEY, 'savings', lang, params],
    '/api/dashboard/savings',
    { ...params },
    { enabled, staleTime: 30_000 },
  );
