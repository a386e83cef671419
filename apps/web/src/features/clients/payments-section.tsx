import { useState } from 'react';
import { App, Button, DatePicker, Flex, Form, Input, Popconfirm, Space, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isNotAfterToday, paymentInputSchema, PAYMENT_SORTS, type Payment } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { errorText } from '../../lib/form-rules';
import { formatDate, formatMoney } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import {
  apiToday,
  DAY_FORMAT,
  dayProps,
  deletePayment,
  paymentsKey,
  paymentsQuery,
  savePayment,
  showApiErrors,
  type PaymentBody,
} from './money-api';
import './money-texts';

type SortKey = (typeof PAYMENT_SORTS)[number];
const SORT: SortSpec<SortKey> = { sortable: PAYMENT_SORTS, defaultSort: 'paymentDate', defaultOrder: 'desc' };

/**
 * Client payments (spec §3 Client payment; §5 amount greater than 0, date not in the future):
 * the client's payments newest first with the total of all of them, add / edit in a modal,
 * delete after a confirmation; the spec's messages and the API's errors on the fields.
 */
export function PaymentsSection({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Payment | 'new' | null>(null);
  const { state, onPageChange } = usePagedState<SortKey>(SORT);
  const query = useQuery(
    paymentsQuery(clientId, {
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
    }),
  );
  const remove = useMutation({
    mutationFn: deletePayment,
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      void queryClient.invalidateQueries({ queryKey: paymentsKey(clientId) });
    },
    onError: (e) => void message.error(errorText(t, e)),
  });

  const columns: PagedColumn<Payment>[] = [
    {
      key: 'paymentDate',
      dataIndex: 'paymentDate',
      title: t('clients.payments.paymentDate'),
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
      key: 'amount',
      dataIndex: 'amount',
      title: t('clients.payments.amount'),
      align: 'right',
      width: 180,
      render: (v: string) => formatMoney(Number(v), lang),
    },
  ];

  return (
    <div data-testid="client-payments">
      <PagedTable<Payment, SortKey>
        testId="payments-table"
        query={query}
        state={state}
        onPageChange={onPageChange}
        columns={columns}
        sort={SORT}
        rowKey="id"
        emptyText={t('clients.payments.empty')}
        toolbar={
          <Flex gap={16} align="center" justify="space-between" wrap>
            <Typography.Text strong data-testid="payments-total">
              {query.data
                ? t('clients.payments.total', { amount: formatMoney(Number(query.data.totalAmount), lang) })
                : null}
            </Typography.Text>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="payment-add"
            >
              {t('clients.payments.add')}
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
                title={t('clients.payments.deleteConfirm')}
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
        <PaymentModal
          clientId={clientId}
          row={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}

function PaymentModal({
  clientId,
  row,
  onClose,
}: {
  clientId: number;
  row: Payment | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PaymentBody>();
  const labels = {
    paymentDate: t('clients.payments.paymentDate'),
    amount: t('clients.payments.amount'),
    description: t('clients.money.description'),
  };
  const save = useMutation({
    mutationFn: (body: PaymentBody) => savePayment({ clientId, id: row?.id, body }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      void queryClient.invalidateQueries({ queryKey: paymentsKey(clientId) });
      onClose();
    },
    onError: (e) => {
      if (!showApiErrors(form, e, t, labels)) void message.error(errorText(t, e));
    },
  });
  const shape = paymentInputSchema.shape;

  return (
    <AppModal
      open
      title={row ? t('clients.payments.editTitle') : t('clients.payments.addTitle')}
      okText={t('clients.money.save')}
      cancelText={t('clients.money.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<PaymentBody>
        form={form}
        layout="vertical"
        initialValues={{
          paymentDate: row?.paymentDate ?? apiToday(),
          amount: row?.amount ?? '',
          description: row?.description ?? '',
        }}
        onFinish={(v) => save.mutate({ ...v, description: v.description?.trim() ? v.description : null })}
        data-testid="payment-form"
      >
        <Form.Item
          name="paymentDate"
          label={labels.paymentDate}
          {...dayProps}
          rules={[
            { required: true, message: t('validation.required', { name: labels.paymentDate }) },
            {
              validator: async (_r, v: string | null) => {
                if (v && !isNotAfterToday(v, apiToday())) throw new Error(t('errors.paymentDateInFuture'));
              },
            },
          ]}
        >
          <DatePicker
            style={{ width: '100%' }}
            format={DAY_FORMAT[lang]}
            disabledDate={(d) => d.format('YYYY-MM-DD') > apiToday()}
            data-testid="payment-date"
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={labels.amount}
          rules={[
            { required: true, whitespace: true, message: t('validation.required', { name: labels.amount }) },
            {
              validator: async (_r, v: string) => {
                if (v == null || String(v).trim() === '') return;
                const r = shape.amount.safeParse(v);
                if (r.success) return;
                throw new Error(
                  r.error.issues.some((i) => i.message === 'paymentAmountPositive')
                    ? t('errors.paymentAmountPositive')
                    : t('validation.invalid', { name: labels.amount }),
                );
              },
            },
          ]}
        >
          <Input inputMode="decimal" suffix="€" maxLength={16} data-testid="payment-amount" />
        </Form.Item>
        <Form.Item name="description" label={labels.description}>
          <Input.TextArea rows={3} maxLength={500} data-testid="payment-description" />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
