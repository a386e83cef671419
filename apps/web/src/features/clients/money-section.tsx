import { useState, type ReactNode } from 'react';
import { App, Button, DatePicker, Flex, Form, Input, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { PlusOutlined } from '@ant-design/icons';
import { RowEditDelete } from '../../components/row-edit-delete';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import type { Lang, MasterResource } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { errorText } from '../../lib/form-rules';
import { formatDate } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import {
  apiToday,
  DAY_FORMAT,
  dayProps,
  deleteSectionRow,
  saveSectionRow,
  sectionKey,
  sectionQuery,
  showApiErrors,
} from './money-api';
import './money-texts';

/** A row of a money section: a day, an optional description and an amount (decimal strings). */
export type MoneyRow = { id: number; description: string | null } & Record<string, unknown>;

/**
 * One money section of a client (payments, on-demand support), declared: its shared resource
 * (the API path, sorts, input schema), which keys are its day and its amount, its texts and test
 * ids, its day rule and the summary of the list above the table.
 */
export interface MoneySectionSpec<L> {
  resource: MasterResource;
  /** The section's texts: `<texts>.empty`, `.add`, `.addTitle`, `.editTitle`, `.deleteConfirm`. */
  texts: string;
  /** The query key's section name (`['clients', section, clientId]`). */
  section: string;
  /** Test ids: `client-<testIds.section>`, `<table>`, `<row>-add`, `<row>-form`, `<row>-date`… */
  testIds: { section: string; table: string; row: string; summary: string };
  date: {
    key: string;
    label: string;
    /** Spec §5: the day rule (today: the API's business day) and its message code. */
    ok: (day: string, today: string) => boolean;
    code: string;
    help?: string;
    defaultPickerValue?: () => Dayjs;
  };
  amount: {
    key: string;
    label: string;
    /** The message code of a value not greater than 0. */
    positiveCode: string;
    format: (v: number, lang: Lang) => string;
    suffix: string;
    maxLength: number;
  };
  summary: (list: L, t: TFunction, lang: Lang) => ReactNode;
}

/**
 * A client's money section (spec §3 Client payment, On-demand support): its rows newest first
 * with the summary of the whole list, add / edit in a modal, delete after a confirmation; the
 * spec's messages and the API's errors on the fields.
 */
export function MoneySection<L extends { items: MoneyRow[]; total: number }>({
  clientId,
  spec,
}: {
  clientId: number;
  spec: MoneySectionSpec<L>;
}) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<MoneyRow | 'new' | null>(null);
  const { resource, date, amount, testIds } = spec;
  const sort: SortSpec<string> = {
    sortable: resource.sortable,
    defaultSort: resource.defaultSort,
    defaultOrder: resource.defaultOrder ?? 'asc',
  };
  const { state, onPageChange } = usePagedState<string>(sort);
  const query = useQuery(
    sectionQuery<L>(clientId, spec.section, resource.path, {
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
    }),
  );
  const remove = useMutation({
    mutationFn: (id: number) => deleteSectionRow(clientId, resource.path, id),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      void queryClient.invalidateQueries({ queryKey: sectionKey(clientId, spec.section) });
    },
    onError: (e) => void message.error(errorText(t, e)),
  });

  const columns: PagedColumn<MoneyRow>[] = [
    {
      key: date.key,
      dataIndex: date.key,
      title: t(date.label),
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
      key: amount.key,
      dataIndex: amount.key,
      title: t(amount.label),
      align: 'right',
      width: 180,
      render: (v: string) => amount.format(Number(v), lang),
    },
  ];

  return (
    <div data-testid={`client-${testIds.section}`}>
      <PagedTable<MoneyRow, string>
        testId={testIds.table}
        query={query}
        state={state}
        onPageChange={onPageChange}
        columns={columns}
        sort={sort}
        rowKey="id"
        emptyText={t(`${spec.texts}.empty`)}
        toolbar={
          <Flex gap={16} align="center" justify="space-between" wrap>
            <Typography.Text strong data-testid={testIds.summary}>
              {query.data ? spec.summary(query.data, t, lang) : null}
            </Typography.Text>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid={`${testIds.row}-add`}
            >
              {t(`${spec.texts}.add`)}
            </Button>
          </Flex>
        }
        rowActions={{
          width: 100,
          render: (r) => (
            <RowEditDelete
              onEdit={() => setEditing(r)}
              onDelete={() => remove.mutate(r.id)}
              editLabel={t('clients.money.edit')}
              deleteLabel={t('clients.money.delete')}
              confirm={t(`${spec.texts}.deleteConfirm`)}
              cancelLabel={t('clients.money.cancel')}
            />
          ),
        }}
      />
      {editing && (
        <MoneyModal
          clientId={clientId}
          spec={spec}
          row={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}

type MoneyBody = Record<string, string | null>;

function MoneyModal<L>({
  clientId,
  spec,
  row,
  onClose,
}: {
  clientId: number;
  spec: MoneySectionSpec<L>;
  row: MoneyRow | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<MoneyBody>();
  const { resource, date, amount, testIds } = spec;
  const labels = {
    [date.key]: t(date.label),
    [amount.key]: t(amount.label),
    description: t('clients.money.description'),
  };
  const save = useMutation({
    mutationFn: (body: MoneyBody) => saveSectionRow(clientId, resource.path, row?.id, body),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      void queryClient.invalidateQueries({ queryKey: sectionKey(clientId, spec.section) });
      onClose();
    },
    onError: (e) => {
      if (!showApiErrors(form, e, t, labels)) void message.error(errorText(t, e));
    },
  });
  const amountSchema = (resource.create as z.ZodObject).shape[amount.key] as z.ZodType;

  return (
    <AppModal
      open
      title={row ? t(`${spec.texts}.editTitle`) : t(`${spec.texts}.addTitle`)}
      okText={t('clients.money.save')}
      cancelText={t('clients.money.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<MoneyBody>
        form={form}
        layout="vertical"
        initialValues={{
          [date.key]: (row?.[date.key] as string | undefined) ?? apiToday(),
          [amount.key]: (row?.[amount.key] as string | undefined) ?? '',
          description: row?.description ?? '',
        }}
        onFinish={(v) => save.mutate({ ...v, description: v.description?.trim() ? v.description : null })}
        data-testid={`${testIds.row}-form`}
      >
        <Form.Item
          name={date.key}
          label={labels[date.key]}
          extra={date.help ? t(date.help) : undefined}
          {...dayProps}
          rules={[
            { required: true, message: t('validation.required', { name: labels[date.key] }) },
            {
              validator: async (_r, v: string | null) => {
                if (v && !date.ok(v, apiToday())) throw new Error(t(`errors.${date.code}`));
              },
            },
          ]}
        >
          <DatePicker
            style={{ width: '100%' }}
            format={DAY_FORMAT[lang]}
            disabledDate={(d) => !date.ok(d.format('YYYY-MM-DD'), apiToday())}
            defaultPickerValue={date.defaultPickerValue?.()}
            data-testid={`${testIds.row}-date`}
          />
        </Form.Item>
        <Form.Item
          name={amount.key}
          label={labels[amount.key]}
          rules={[
            {
              required: true,
              whitespace: true,
              message: t('validation.required', { name: labels[amount.key] }),
            },
            {
              validator: async (_r, v: string) => {
                if (v == null || String(v).trim() === '') return;
                const r = amountSchema.safeParse(v);
                if (r.success) return;
                throw new Error(
                  r.error.issues.some((i) => i.message === amount.positiveCode)
                    ? t(`errors.${amount.positiveCode}`)
                    : t('validation.invalid', { name: labels[amount.key] }),
                );
              },
            },
          ]}
        >
          <Input
            inputMode="decimal"
            suffix={amount.suffix}
            maxLength={amount.maxLength}
            data-testid={`${testIds.row}-${amount.key}`}
          />
        </Form.Item>
        <Form.Item name="description" label={labels.description}>
          <Input.TextArea rows={3} maxLength={500} data-testid={`${testIds.row}-description`} />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
