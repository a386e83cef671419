import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CategoryCost, Lang } from '@kulu/shared';
import { categoryOption, euros } from '../lib/chart-options';
import { ChartCard } from './chart-card';
import { sliceColumns } from './report-columns';

/**
 * The cost by category of one invoice or subscription, as a chart and a table: categories without
 * cost are left out, the row of no category is named so. `extra` stands in the card's corner.
 */
export function CategoryCard({
  byCategory,
  lang,
  testId,
  height,
  extra,
}: {
  byCategory: readonly CategoryCost[];
  lang: Lang;
  testId: string;
  height: number;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const uncategorized = t('dashboards.uncategorized');
  const categories = useMemo(
    () => byCategory.filter((c) => euros(c.cost) !== 0).map((c) => ({ ...c, name: c.name || uncategorized })),
    [byCategory, uncategorized],
  );
  const chart = useMemo(() => categoryOption(categories, lang), [categories, lang]);
  return (
    <ChartCard<CategoryCost>
      title={t('dashboards.byCategory')}
      testId={testId}
      option={chart}
      rows={categories}
      columns={sliceColumns<CategoryCost>(t, lang, t('dashboards.costCategory'))}
      rowKey="costCategoryId"
      height={height}
      extra={extra}
    />
  );
}
