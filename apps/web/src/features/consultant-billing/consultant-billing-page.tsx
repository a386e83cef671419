import { Flex, Table, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CONSULTANT_BILLING_SORTABLE,
  helsinkiMonth,
  type ConsultantBillingRow,
  type Lang,
} from '@kulu/shared';
import type { PagedColumn } from '../../components/paged-table';
import { PagedReport } from '../../components/paged-report';
import { SearchBox } from '../../components/search-box';
import { formatMoney } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { MonthField, SelectField } from '../../components/filter-fields';
import {
  consultantBillingQuery,
  consultantOptionsQuery,
  exportConsultantBilling,
  type ConsultantBillingParams,
} from './api';
import './texts';

type SortKey = (typeof CONSULTANT_BILLING_SORTABLE)[number];
const SORT: SortSpec<SortKey> = { sortable: CONSULTANT_BILLING_SORTABLE, defaultSort: 'companyName' };

/**
 * Consultant Billing (spec §2 admin reports, §3, issue 12): per consultant and month, each company
 * it manages with the figures billed from the consultant's billing plan, a totals row and the Excel
 * export. Admins pick the consultant (or all); a consultant sees its own.
 */
export function ConsultantBillingPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { state, patch, paging, tableOf, searchBox } = usePagedState<
    SortKey,
    { month: string; consultantId?: number }
  >(SORT, { month: helsinkiMonth(new Date()) });
  const options = useQuery(consultantOptionsQuery());
  const params: ConsultantBillingParams = {
    ...paging,
    month: state.month,
    consultantId: state.consultantId,
  };
  const list = useQuery(consultantBillingQuery(params));
  const data = list.data;
  const money = (v: string) => formatMoney(Number(v), lang);
  const many = (options.data?.consultants.length ?? 0) > 1;

  const columns: PagedColumn<ConsultantBillingRow>[] = [
    ...(many && state.consultantId == null
      ? [
          {
            key: 'consultantName',
            dataIndex: 'consultantName',
            title: t('consultantBilling.consultant'),
          } as PagedColumn<ConsultantBillingRow>,
        ]
      : []),
    {
      key: 'companyName',
      dataIndex: 'companyName',
      title: t('consultantBilling.company'),
    },
    {
      key: 'businessId',
      dataIndex: 'businessId',
      title: t('consultantBilling.businessId'),
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    { key: 'plans', dataIndex: 'plans', title: t('consultantBilling.plans'), align: 'right' },
    {
      key: 'additionalUsers',
      dataIndex: 'additionalUsers',
      title: t('consultantBilling.additionalUsers'),
      align: 'right',
    },
    {
      key: 'automatedUploads',
      dataIndex: 'automatedUploads',
      title: t('consultantBilling.automatedUploads'),
      align: 'right',
    },
    {
      key: 'isNew',
      dataIndex: 'isNew',
      title: t('consultantBilling.isNew'),
      render: (v: boolean) =>
        v ? <Tag color="blue">{t('consultantBilling.yes')}</Tag> : t('consultantBilling.no'),
    },
    {
      key: 'billingPlanName',
      dataIndex: 'billingPlanName',
      title: t('consultantBilling.billingPlan'),
      render: (v: string | null) =>
        v ?? <Typography.Text type="secondary">{t('consultantBilling.noPlan')}</Typography.Text>,
    },
    {
      key: 'total',
      dataIndex: 'total',
      title: t('consultantBilling.total'),
      align: 'right',
      render: (v: string, r) => (
        <Tooltip
          title={t('consultantBilling.breakdown', {
            plans: money(r.plansCost),
            users: money(r.additionalUsersCost),
            uploads: money(r.automatedUploadsCost),
            setUp: money(r.setUpCost),
          })}
        >
          <Typography.Text strong>{money(v)}</Typography.Text>
        </Tooltip>
      ),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
  ];
  const firstFigure = columns.findIndex((c) => c.key === 'plans');

  return (
    <PagedReport<ConsultantBillingRow, SortKey>
      testId="consultant-billing"
      title={t('menu.reports.consultantBilling')}
      texts="consultantBilling"
      exportRequest={() => exportConsultantBilling(params)}
      {...tableOf(list)}
      columns={columns}
      rowKey={(r) => `${r.consultantId}-${r.companyId}`}
      summary={() =>
        data && data.total > 0 ? (
          <Table.Summary.Row data-testid="consultant-billing-totals">
            <Table.Summary.Cell index={0} colSpan={firstFigure}>
              <Typography.Text strong>{t('consultantBilling.totalsRow')}</Typography.Text>
            </Table.Summary.Cell>
            {[data.totals.plans, data.totals.additionalUsers, data.totals.automatedUploads].map((n, i) => (
              <Table.Summary.Cell key={i} index={firstFigure + i} align="right">
                <Typography.Text strong>{n}</Typography.Text>
              </Table.Summary.Cell>
            ))}
            <Table.Summary.Cell index={firstFigure + 3}>
              <Typography.Text strong>{data.totals.newCompanies}</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={firstFigure + 4} />
            <Table.Summary.Cell index={firstFigure + 5} align="right">
              <Typography.Text strong>{money(data.totals.total)}</Typography.Text>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        ) : null
      }
      toolbar={
        <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
          <MonthField
            label={t('consultantBilling.month')}
            value={state.month}
            onChange={(month) => patch({ month })}
            testId="consultant-billing-month"
          />
          <SelectField<number>
            label={t('consultantBilling.consultant')}
            placeholder={t('consultantBilling.allConsultants')}
            minWidth={240}
            search
            value={state.consultantId}
            onChange={(v) => patch({ consultantId: v })}
            loading={options.isLoading}
            options={(options.data?.consultants ?? []).map((c) => ({ value: c.id, label: c.name }))}
            testId="consultant-billing-consultant"
          />
          <SearchBox {...searchBox} placeholder={t('consultantBilling.search')} width={300} />
        </Flex>
      }
    />
  );
}
