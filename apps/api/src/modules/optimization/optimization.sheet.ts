import { message, type Lang, type OptimizationExportQuery } from '@kulu/shared';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { NUM_FMT, rowsOf, safeOrNull, safeText, type XlsxSheet } from '../../lib/xlsx/index.js';
import { exportRows } from './optimization.service.js';
import { subscriptionCells } from '../../lib/subscription-names.js';

/** Headers of the Excel export, in the caller's language. */
const EXPORT_HEADERS = {
  en: [
    'User',
    'Phone number',
    'Sub-company',
    'Cost center',
    'Current plan',
    'Best plan',
    'Current monthly cost (€)',
    'Best monthly cost (€)',
    'Monthly saving (€)',
    'Yearly saving (€)',
    'Reason',
    'Marked',
  ],
  fi: [
    'Käyttäjä',
    'Puhelinnumero',
    'Tytäryhtiö',
    'Kustannuspaikka',
    'Nykyinen liittymätyyppi',
    'Paras liittymätyyppi',
    'Nykyinen kuukausikustannus (€)',
    'Paras kuukausikustannus (€)',
    'Säästö kuukaudessa (€)',
    'Säästö vuodessa (€)',
    'Peruste',
    'Merkitty',
  ],
} as const;
export const OPTIMIZATION_SHEET = { en: 'Optimization', fi: 'Optimointi' } as const;
const MONEY_COLUMNS = new Set([6, 7, 8, 9]);

/**
 * The findings of the filters as a sheet (every matching row, the list's sort): the optimization
 * export and the report archive's optimized / un-optimized / no-usage users. The client and Scope
 * checks answer before the first row.
 */
export async function optimizationSheet(
  db: Db,
  scope: Scope,
  q: OptimizationExportQuery,
  lang: Lang,
  name: string = OPTIMIZATION_SHEET[lang],
): Promise<XlsxSheet> {
  const batches = await exportRows(db, scope, q, lang);
  const marked = message('markedForOptimization', lang);
  const cells = () =>
    rowsOf(batches, (i) => [
      ...subscriptionCells(i),
      safeOrNull(i.currentPlan),
      safeOrNull(i.bestPlan),
      Number(i.currentMonthlyCost),
      Number(i.bestMonthlyCost),
      Number(i.monthlySaving),
      Number(i.yearlySaving),
      safeText(i.reason),
      i.mark ? marked : null,
    ]);
  return {
    name,
    columns: EXPORT_HEADERS[lang].map((header, i) => ({
      header,
      numFmt: MONEY_COLUMNS.has(i) ? NUM_FMT.euro : undefined,
      width: i === 10 ? 60 : undefined,
    })),
    rows: cells(),
    table: true,
  };
}
