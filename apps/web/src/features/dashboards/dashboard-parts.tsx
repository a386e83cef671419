import { type ReactNode } from 'react';
import { Button, Card, Col, Empty, Flex, Skeleton, Statistic, Typography } from 'antd';
import { LoadError } from '../../components/load-error';
import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { invoiceUploadPath } from '@kulu/shared';
import { useSession } from '../../lib/session';

/**
 * The pieces every dashboard page shares (Cost and Usage, Savings): the figure cards and the states
 * before the figures are in. The labelled filters of the filter bar are in components/filter-fields.
 */

/** One of the period's totals: a figure with an optional line below it. */
export function TotalCard(props: { title: string; value: string; testId: string; children?: ReactNode }) {
  return (
    <Col xs={24} sm={12} xl={6}>
      <Card size="small" style={{ height: '100%' }}>
        <Statistic title={props.title} value={props.value} data-testid={props.testId} />
        {props.children}
      </Card>
    </Col>
  );
}

/**
 * The figures of a dashboard once they are in; before that, "choose a client first" (provider
 * users), the error with a retry, or a skeleton. Test ids: `<testId>-client-first|error|loading`.
 */
export function FiguresState<T>({
  ready,
  query,
  clientFirst,
  testId,
  children,
}: {
  ready: boolean;
  query: { data?: T; isError: boolean; error: unknown; refetch: () => unknown };
  clientFirst: string;
  testId: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (!ready)
    return (
      <Card>
        <Empty description={clientFirst} data-testid={`${testId}-client-first`} />
      </Card>
    );
  if (query.isError && !query.data)
    return (
      <LoadError title={t('dashboards.loadFailed')} query={query} smallButton testId={`${testId}-error`} />
    );
  if (!query.data)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} data-testid={`${testId}-loading`} />
      </Card>
    );
  return children(query.data);
}

/**
 * A dashboard with no invoice figures in its period (a new customer's first visit): where the
 * figures come from and the way to *Upload Invoice*, or whom to ask when the user may not upload.
 */
export function NoInvoicesHint({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const mayUpload = !!session?.acessPermissions.includes('invoices.upload');
  return (
    <Card data-testid={`${testId}-no-invoices`}>
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <Flex vertical gap={4}>
            <Typography.Text strong>{t('dashboards.noInvoices.title')}</Typography.Text>
            <Typography.Text>
              {mayUpload ? t('dashboards.noInvoices.upload') : t('dashboards.noInvoices.ask')}
            </Typography.Text>
          </Flex>
        }
      >
        {mayUpload && session && (
          <Link to={invoiceUploadPath(session.basePath)} data-testid={`${testId}-upload-link`}>
            <Button type="primary" icon={<CloudUploadOutlined />} tabIndex={-1}>
              {t('menu.invoiceUpload')}
            </Button>
          </Link>
        )}
      </Empty>
    </Card>
  );
}
