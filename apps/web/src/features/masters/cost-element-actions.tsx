import { useState } from 'react';
import { App, Button, Form, Popconfirm, Space, Tag } from 'antd';
import { IconButton } from '../../components/icon-button';
import { CheckOutlined, TagOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OPTIONS_URL, type CostElementStatus } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { errorText } from '../../lib/form-rules';
import {
  approveCostElement,
  approveCostElements,
  categorizeCostElement,
  categorizeCostElements,
  MASTERS_KEY,
  type Row,
} from './api';
import { RefSelect } from '../../components/resource/ref-select';

const STATUS_COLORS: Record<CostElementStatus, string> = {
  uncategorized: 'warning',
  categorized: 'processing',
  auto_categorized: 'purple',
  approved: 'success',
};

export function CostElementStatusTag({ status }: { status: unknown }) {
  const { t } = useTranslation();
  const s = status as CostElementStatus;
  return (
    <Tag color={STATUS_COLORS[s] ?? 'default'} data-testid="cost-element-status">
      {t(`masters.enums.costElementStatus.${s}`)}
    </Tag>
  );
}

/** Approving needs a category; an approved element needs nothing more. */
export const canApprove = (row: Record<string, unknown>): boolean =>
  row.status !== 'approved' && row.costCategoryId !== null && row.costCategoryId !== undefined;

function useCostElementWrite() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return (successCode: string) => ({
    onSuccess: (res: unknown) => {
      void queryClient.invalidateQueries({ queryKey: MASTERS_KEY });
      const code = res && typeof res === 'object' && 'code' in res ? String(res.code) : successCode;
      void message.success(t(`errors.${code}`));
    },
    onError: (err: unknown) => void message.error(errorText(t, err)),
  });
}

/** The dialog that assigns one cost category to one or many cost elements. */
function AssignCategoryModal({
  open,
  count,
  initial,
  pending,
  onSubmit,
  onClose,
}: {
  open: boolean;
  count: number;
  initial?: number | null;
  pending: boolean;
  onSubmit: (costCategoryId: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ costCategoryId?: number }>();
  const label = t('masters.fields.costCategoryId');
  return (
    <AppModal
      open={open}
      title={
        count > 1
          ? t('masters.costElements.assignTitleMany', { count })
          : t('masters.costElements.assignTitle')
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={pending}
      destroyOnHidden
      width={480}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ costCategoryId: initial ?? undefined }}
        onFinish={(v) => v.costCategoryId && onSubmit(v.costCategoryId)}
      >
        <Form.Item
          name="costCategoryId"
          label={label}
          rules={[{ required: true, message: t('validation.required', { name: label }) }]}
        >
          <RefSelect url={OPTIONS_URL.costCategories} data-testid="assign-category-select" />
        </Form.Item>
      </Form>
    </AppModal>
  );
}

/** Per row: assign a category, approve. */
export function CostElementRowActions({ row }: { row: Row }) {
  const { t } = useTranslation();
  const [assigning, setAssigning] = useState(false);
  const handlers = useCostElementWrite();
  const approve = useMutation({
    mutationFn: () => approveCostElement(row.id),
    ...handlers('costElementsApproved'),
  });
  const assign = useMutation({
    mutationFn: (costCategoryId: number) => categorizeCostElement(row.id, costCategoryId),
    ...handlers('costElementsCategorized'),
    onSettled: (_d, err) => !err && setAssigning(false),
  });
  return (
    <>
      <IconButton
        label={t('masters.costElements.assign')}
        size="small"
        icon={<TagOutlined />}
        onClick={() => setAssigning(true)}
      />
      <IconButton
        label={t('masters.costElements.approve')}
        size="small"
        icon={<CheckOutlined />}
        disabled={!canApprove(row)}
        loading={approve.isPending}
        onClick={() => approve.mutate()}
        data-testid="approve-row"
      />
      <AssignCategoryModal
        open={assigning}
        count={1}
        initial={row.costCategoryId as number | null}
        pending={assign.isPending}
        onSubmit={(id) => assign.mutate(id)}
        onClose={() => setAssigning(false)}
      />
    </>
  );
}

/** For the selected rows: assign a category to all, approve all. */
export function CostElementBulkActions({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [assigning, setAssigning] = useState(false);
  const handlers = useCostElementWrite();
  const approve = useMutation({
    mutationFn: () => approveCostElements(ids),
    ...handlers('costElementsApproved'),
    onSettled: (_d, err) => !err && onDone(),
  });
  const assign = useMutation({
    mutationFn: (costCategoryId: number) => categorizeCostElements(ids, costCategoryId),
    ...handlers('costElementsCategorized'),
    onSettled: (_d, err) => {
      if (err) return;
      setAssigning(false);
      onDone();
    },
  });
  const none = ids.length === 0;
  return (
    <Space wrap>
      <Button
        icon={<TagOutlined />}
        disabled={none}
        onClick={() => setAssigning(true)}
        data-testid="bulk-assign"
      >
        {t('masters.costElements.assignSelected', { count: ids.length })}
      </Button>
      <Popconfirm
        title={t('masters.costElements.approveConfirm', { count: ids.length })}
        okText={t('masters.costElements.approve')}
        cancelText={t('common.cancel')}
        onConfirm={() => approve.mutate()}
        disabled={none}
      >
        <Button
          icon={<CheckOutlined />}
          disabled={none}
          loading={approve.isPending}
          data-testid="bulk-approve"
        >
          {t('masters.costElements.approveSelected', { count: ids.length })}
        </Button>
      </Popconfirm>
      <AssignCategoryModal
        open={assigning}
        count={ids.length}
        pending={assign.isPending}
        onSubmit={(id) => assign.mutate(id)}
        onClose={() => setAssigning(false)}
      />
    </Space>
  );
}
