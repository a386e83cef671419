import { cloneElement, type ReactElement, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Flex,
  Select,
  Skeleton,
  Statistic,
  Typography,
} from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Dayjs } from 'dayjs';
import { DASHBOARD_MAX_MONTHS, invoiceUploadPath } from '@kulu/shared';
import { errorText } from '../../lib/form-rules';
import { useSession } from '../../lib/session';

/**
 * The pieces every dashboard page shares (Cost and Usage, Savings): the labelled filters of the
 * filter bar, the figure cards, and the states before the figures are in.
 */

/** While picking, months more than the API's longest period away from the first pick are off. */
export const tooLong = (d: Dayjs, from: Dayjs | undefined) =>
  !!from && Math.abs(d.diff(from, 'month')) >= DASHBOARD_MAX_MONTHS;

/**
 * A labelled filter in the filter bar. The visible label is also the control's accessible name
 * (`aria-label`, for screen readers and axe's `label` rule), unless `namesControl` is false because
 * the child is a group whose controls carry their own names.
 */
export function FilterField({
  label,
  children,
  namesControl = true,
}: {
  label: string;
  children: ReactElement<{ 'aria-label'?: string }>;
  namesControl?: boolean;
}) {
  return (
    <Flex align="center" gap={8} wrap>
      <Typography.Text strong>{label}</Typography.Text>
      {namesControl ? cloneElement(children, { 'aria-label': label }) : children}
    </Flex>
  );
}

/** The period filter: a range of months, at most the API's longest period. */
export function PeriodField({
  value,
  onChange,
  disabled,
  testId,
}: {
  value: [Dayjs, Dayjs] | null;
  onChange: (period: [Dayjs, Dayjs]) => void;
  disabled: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <FilterField label={t('dashboards.period')}>
      <DatePicker.RangePicker
        picker="month"
        allowClear={false}
        value={value}
        onChange={(v) => {
          if (v?.[0] && v[1]) onChange([v[0], v[1]]);
        }}
        disabledDate={(d, info) => tooLong(d, info.from)}
        placeholder={[t('dashboards.from'), t('dashboards.to')]}
        disabled={disabled}
        data-testid={testId}
      />
    </FilterField>
  );
}

/** The sub-company filter, shown only when there is more than one to choose from. */
export function SubCompanyField({
  options,
  value,
  onChange,
  disabled,
  testId,
}: {
  options: ReadonlyArray<{ id: number; name: string }>;
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  disabled: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  if (options.length <= 1) return null;
  return (
    <FilterField label={t('dashboards.subCompany')}>
      <Select<number>
        allowClear
        style={{ minWidth: 200 }}
        placeholder={t('dashboards.allSubCompanies')}
        value={value}
        onChange={onChange}
        options={options.map((s) => ({ value: s.id, label: s.name }))}
        disabled={disabled}
        data-testid={testId}
      />
    </FilterField>
  );
}

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
      <Alert
        type="error"
        showIcon
        title={t('dashboards.loadFailed')}
        description={errorText(t, query.error)}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
        data-testid={`${testId}-error`}
      />
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
