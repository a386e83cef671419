import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Lang, ReportCostTotals } from '@kulu/shared';
import { formatMoney } from '../../lib/format';
import './texts';

/**
 * The totals line of a report listing subscriptions (Top Users, Base Plan Types): how many, the
 * invoice-level charges no row carries (explained in the tooltip) and the total cost, the same
 * figure as the dashboard's.
 */
export function CostTotals({
  totals,
  testId,
}: {
  totals: ReportCostTotals & { subscriptions: number };
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const money = (v: string) => formatMoney(Number(v), lang);
  return (
    <Tooltip title={t('reports.costTotals.help')}>
      <Typography.Text strong data-testid={testId}>
        {t('reports.costTotals.line', {
          subscriptions: totals.subscriptions,
          invoiceLevel: money(totals.invoiceLevelCost),
          cost: money(totals.cost),
        })}
      </Typography.Text>
    </Tooltip>
  );
}
