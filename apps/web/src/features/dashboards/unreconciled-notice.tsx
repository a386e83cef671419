import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { detailPath, type CostUsage, type Lang } from '@kulu/shared';
import { formatMoney } from '../../lib/format';
import { euros } from '../../lib/chart-options';
import { useSession } from '../../lib/session';

/**
 * A period that includes an invoice with an unexplained difference (above one cent between its own
 * stated and computed figures) says so, with a link to each such invoice (issue 38).
 */
export function UnreconciledNotice({ data, lang }: { data: CostUsage; lang: Lang }) {
  const { t } = useTranslation();
  const base = useSession()?.basePath ?? '';
  const list = data.unreconciledInvoices;
  if (!list.length) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="dashboard-unreconciled"
      title={t('dashboards.unreconciled', { count: list.length })}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {list.map((i) => (
            <li key={i.id}>
              <Link to={detailPath(base, 'invoice', i.id)} data-testid="dashboard-unreconciled-link">
                {t('dashboards.unreconciledInvoice', {
                  number: i.invoiceNumber ?? '',
                  operator: i.operatorName ?? '',
                  amount: formatMoney(euros(i.difference), lang),
                })}
              </Link>
            </li>
          ))}
        </ul>
      }
    />
  );
}
