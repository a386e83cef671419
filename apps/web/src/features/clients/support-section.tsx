import dayjs from 'dayjs';
import { useState } from 'react';
import { App, Button, DatePicker, Flex, Form, Input, Popconfirm, Space, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  firstOfMonth,
  isInCurrentMonthUpToToday,
  supportHoursInputSchema,
  SUPPORT_SORTS,
  type SupportHours,
  type SupportHoursList,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { errorText } from '../../lib/form-rules';
import { formatDate, formatMoney, formatNumber } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import {
  apiToday,
  DAY_FORMAT,
  dayProps,
  deleteSupport,
  saveSupport,
  showApiErrors,
  supportKey,
  supportQuery,
  type SupportBody,
} from './money-api';
import './money-texts';

type SortKey = (typeof SUPPORT_SORTS)[number];
const SORT: SortSpec<SortKey> = { sortable: SUPPORT_SORTS, defaultSort: 'supportDate', defaultOrder: 'desc' };

/**
 * On-demand support (spec §3; §5 hours greater than 0, a day of the current month not after
 * today): the client's support hours newest first, this month's total hours and their cost at the
 * billing plan's support fee, add / edit in a modal, delete after a confirmation.
 */
export function SupportSection({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<SupportHours | 'new' | null>(null);
  const { state, onPageChange } = usePagedState<SortKey>(SORT);
  const query = useQuery(
    supportQuery(clientId, {
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
    }),
  );
  const remove = useMutation({
    mutationFn: deleteSupport,
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      void queryClient.invalidateQueries({ queryKey: supportKey(clientId) });
    },
    onError: (e) => void message.error(errorText(t, e)),
  });

  const monthSummary = (d: SupportHoursList) => {
    const month = new Intl.DateTimeFormat(lang === 'fi' ? 'fi-FI' : 'en-GB', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${d.month}-01T00:00:00Z`));
    const hours = formatNumber(Number(d.monthHours), lang);
    const detail =
      d.hourlyFee == null || d.monthCost == null
        ? `${t('clients.support.monthHours', { hours })}, ${t('clients.support.noFee')}`
        : t('clients.support.monthCost', {
            hours,
            fee: formatMoney(Number(d.hourlyFee), lang),
            cost: formatMoney(Number(d.monthCost), lang),
          });
    return `${t('clients.support.month', { month })}: ${detail}`;
  };

  const columns: PagedColumn<SupportHours>[] = [
    {
      key: 'supportDate',
      dataIndex: 'supportDate',
      title: t('clients.support.supportDate'),
      width: 160,
      render: (v: string) => formatDate(v, lang),
    },
    {
      key: 'description',
      dataIndex: 'description',
      title: t('clients.money.description'),
      render: (v: string | null) => v ?? t('clients.money.none'),
    },
    {
      key: 'hours',
      dataIndex: 'hours',
      title: t('clients.support.hours'),
      align: 'right',
      width: 180,
      render: (v: string) => formatNumber(Number(v), lang),
    },
  ];

  return (
    <div data-testid="client-support">
      <PagedTable<SupportHours, SortKey>
        testId="support-table"
        query={query}
        state={state}
        onPageChange={onPageChange}
        columns={columns}
        sort={SORT}
        rowKey="id"
        emptyText={t('clients.support.empty')}
        toolbar={
          <Flex gap={16} align="center" justify="space-between" wrap>
            <Typography.Text strong data-testid="support-month">
              {query.data ? monthSummary(query.data) : null}
            </Typography.Text>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="support-add"
            >
              {t('clients.support.add')}
            </Button>
          </Flex>
        }
        rowActions={{
          width: 100,
          render: (r) => (
            <Space>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('clients.money.edit')}
                onClick={() => setEditing(r)}
              />
              <Popconfirm
                title={t('clients.support.deleteConfirm')}
                okText={t('clients.money.delete')}
                cancelText={t('clients.money.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutate({ clientId, id: r.id })}
              >
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('clients.money.delete')}
                />
              </Popconfirm>
            </Space>
          ),
        }}
      />
      {editing && (
        <SupportModal
          clientId={clientId}
          row={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}

function SupportModal({
  clientId,
  row,
  onClose,
}: {
  clientId: number;
  row: SupportHours | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SupportBody>();
  const labels = {
    supportDate: t('clients.support.supportDate'),
    hours: t('clients.support.hours'),
    description: t('clients.money.description'),
  };
  const save = useMutation({
    mutationFn: (body: SupportBody) => saveSupport({ clientId, id: row?.id, body }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      void queryClient.invalidateQueries({ queryKey: supportKey(clientId) });
      onClose();
    },
    onError: (e) => {
      if (!showApiErrors(form, e, t, labels)) void message.error(errorText(t, e));
    },
  });
  const shape = supportHoursInputSchema.shape;

  return (
    <AppModal
      open
      title={row ? t('clients.support.editTitle') : t('clients.support.addTitle')}
      okText={t('clients.money.save')}
      cancelText={t('clients.money.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<SupportBody>
        form={form}
        layout="vertical"
        initialValues={{
          supportDate: row?.supportDate ?? apiToday(),
          hours: row?.hours ?? '',
          description: row?.description ?? '',
        }}
        onFinish={(v) => save.mutate({ ...v, description: v.description?.trim() ? v.description : null })}
        data-testid="support-form"
      >
        <Form.Item
          name="supportDate"
          label={labels.supportDate}
          extra={t('clients.support.dateHelp')}
          {...dayProps}
          rules={[
            { required: true, message: t('validation.required', { name: labels.supportDate }) },
            {
              validator: async (_r, v: string | null) => {
                if (v && !isInCurrentMonthUpToToday(v, apiToday()))
                  throw new Error(t('errors.supportDateNotInMonth'));
              },
            },
          ]}
        >
          <DatePicker
            style={{ width: '100%' }}
            format={DAY_FORMAT[lang]}
            disabledDate={(d) => !isInCurrentMonthUpToToday(d.format('YYYY-MM-DD'), apiToday())}
            defaultPickerValue={dayjs(firstOfMonth(apiToday()))}
            data-testid="support-date"
          />
        </Form.Item>
        <Form.Item
          name="hours"
          label={labels.hours}
          rules={[
            { required: true, whitespace: true, message: t('validation.required', { name: labels.hours }) },
            {
              validator: async (_r, v: string) => {
                if (v == null || String(v).trim() === '') return;
                const r = shape.hours.safeParse(v);
                if (r.success) return;
                throw new Error(
                  r.error.issues.some((i) => i.message === 'supportHoursPositive')
                    ? t('errors.supportHoursPositive')
                    : t('validation.invalid', { name: labels.hours }),
                );
              },
            },
          ]}
        >
          <Input inputMode="decimal" suffix="h" maxLength={8} data-testid="support-hours" />
        </Form.Item>
        <Form.Item name="description" label={labels.description}>
          <Input.TextArea rows={3} maxLength={500} data-testid="support-description" />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
