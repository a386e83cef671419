import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Flex,
  Form,
  Input,
  Select,
  Skeleton,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PLAN_DETAIL_SORTABLE, type Lang, type PlanChoice, type PlanDetail } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { SearchBox } from '../../components/search-box';
import { formatMoney } from '../../lib/format';
import { applyFieldErrors, errorText } from '../../lib/form-rules';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import {
  PLAN_DETAILS_KEY,
  planChoicesQuery,
  planDetailListQuery,
  savePlanDetail,
} from './client-masters-api';
import { registerPlanDetailsTexts } from './plan-details-texts';

registerPlanDetailsTexts();

type SortKey = (typeof PLAN_DETAIL_SORTABLE)[number];
const SORT: SortSpec<SortKey> = { sortable: PLAN_DETAIL_SORTABLE, defaultSort: 'phoneNumber' };

const EMPTY = '–';
const langOf = (language: string): Lang => (language === 'fi' ? 'fi' : 'en');
/** An amount of the API (decimal euros string) in the interface language, or a dash. */
const money = (value: string | null | undefined, lang: Lang) =>
  value == null || value === '' || !Number.isFinite(Number(value)) ? EMPTY : formatMoney(Number(value), lang);
/** The API's amount as typed in the interface language ("12,50" in Finnish); blank for none. */
const amountInput = (value: string | null | undefined, lang: Lang) =>
  value == null ? '' : lang === 'fi' ? value.replace('.', ',') : value;
/** Amounts stay on one line. */
const nowrap = () => ({ style: { whiteSpace: 'nowrap' as const } });
/** A non-negative amount with at most two decimals, with a point or a comma. */
const AMOUNT = /^\d{1,9}([.,]\d{1,2})?$/;

/**
 * Plan Details (spec §2 /company/client-masters/plan-details): each subscription of the client with
 * its current plan, the plan's list price and the client's contract price, searched, sorted and
 * paged; Edit Plan Details puts a subscription on another plan of its operator and sets the
 * contract price (which queues the client's re-optimization). `clientId` is for provider users
 * (the client page's section).
 */
export function PlanDetailsPage({ clientId }: { clientId?: number }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const [editing, setEditing] = useState<PlanDetail | null>(null);
  const { state, onPageChange, search, setSearch, submitSearch } = usePagedState<SortKey>(SORT);
  const query = useQuery(
    planDetailListQuery({
      clientId,
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
      q: state.q || undefined,
    }),
  );
  const dash = (v: string | null) => v ?? EMPTY;
  const columns: PagedColumn<PlanDetail>[] = [
    { key: 'phoneNumber', dataIndex: 'phoneNumber', title: t('planDetails.phoneNumber') },
    { key: 'userName', dataIndex: 'userName', title: t('planDetails.user') },
    { key: 'operatorName', dataIndex: 'operatorName', title: t('planDetails.operator') },
    {
      // Both on one column (cost center below) so the prices stay in view on a laptop screen.
      key: 'organization',
      title: t('planDetails.subCompanyCostCenter'),
      render: (_, r) => (
        <Flex vertical>
          <span>{dash(r.subCompanyName)}</span>
          <Typography.Text type="secondary">{dash(r.costCenterName)}</Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'planName',
      dataIndex: 'planName',
      title: t('planDetails.plan'),
      render: (v: string | null) =>
        v ?? <Typography.Text type="secondary">{t('planDetails.noPlan')}</Typography.Text>,
    },
    {
      key: 'listPrice',
      dataIndex: 'listPrice',
      title: t('planDetails.listPrice'),
      align: 'right',
      onCell: nowrap,
      render: (v: string | null) => money(v, lang),
    },
    {
      key: 'contractPrice',
      dataIndex: 'contractPrice',
      title: t('planDetails.contractPrice'),
      align: 'right',
      onCell: nowrap,
      render: (v: string | null) => money(v, lang),
    },
  ];
  return (
    <>
      <PageHeading title={t('menu.clientMasters.planDetails')} />
      <PagedTable
        testId="plan-details"
        query={query}
        state={state}
        onPageChange={onPageChange}
        columns={columns}
        sort={SORT}
        emptyText={t('planDetails.empty')}
        rowKey="subscriptionId"
        toolbar={
          <Flex gap={8} wrap style={{ marginBottom: 16 }}>
            <SearchBox
              value={search}
              onChange={setSearch}
              onSearch={submitSearch}
              placeholder={t('planDetails.search')}
              width={340}
            />
          </Flex>
        }
        rowActions={{
          width: 90,
          fixed: true,
          render: (r) => (
            <Tooltip title={t('planDetails.edit')}>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('planDetails.edit')}
                onClick={() => setEditing(r)}
                data-testid="plan-detail-edit"
              />
            </Tooltip>
          ),
        }}
      />
      {editing && <EditPlanDetailModal row={editing} lang={lang} onClose={() => setEditing(null)} />}
    </>
  );
}

interface EditValues {
  planId: number | null;
  contractPrice: string;
}

interface PlanOption {
  value: number;
  label: string;
  choice: PlanChoice;
}

/** Edit Plan Details: the subscription's plan (its operator's) and the client's contract price of it. */
function EditPlanDetailModal({ row, lang, onClose }: { row: PlanDetail; lang: Lang; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<EditValues>();
  // Fetched afresh on each opening: the form starts from the plans' current contract prices.
  const choices = useQuery({ ...planChoicesQuery(row.subscriptionId), refetchOnMount: 'always' });
  const loaded = choices.isFetchedAfterMount && choices.isSuccess;
  const planId = Form.useWatch('planId', form);
  const labels: Record<string, string> = {
    planId: t('planDetails.plan'),
    contractPrice: t('planDetails.contractPrice'),
  };
  const save = useMutation({
    mutationFn: (v: EditValues) => {
      const amount = v.contractPrice.trim();
      return savePlanDetail({
        id: row.subscriptionId,
        body: { planId: v.planId ?? 0, contractPrice: amount === '' ? null : amount.replace(',', '.') },
      });
    },
    onSuccess: (r) => {
      message.success(
        r.reoptimization ? (
          <span data-testid="plan-detail-saved">
            {r.message}
            <br />
            {t('planDetails.reoptimizationQueued')}
          </span>
        ) : (
          r.message
        ),
      );
      void queryClient.invalidateQueries({ queryKey: PLAN_DETAILS_KEY });
      onClose();
    },
    onError: (e) => {
      if (!applyFieldErrors(form, e, t, labels)) message.error(errorText(t, e));
    },
  });

  const list = choices.data ?? [];
  // The subscription's plan among the choices: by id, else by name (the client's own row of it).
  const current =
    list.find((c) => c.id === row.planId) ??
    list.find((c) => row.planName != null && c.name.toLowerCase() === row.planName.toLowerCase());
  const chosen = list.find((c) => c.id === planId);
  const options: PlanOption[] = list.map((c) => ({ value: c.id, label: c.name, choice: c }));

  const details = (
    <Descriptions
      size="small"
      column={1}
      style={{ marginBottom: 16 }}
      items={[
        { key: 'phone', label: t('planDetails.subscription'), children: row.phoneNumber },
        { key: 'user', label: t('planDetails.user'), children: row.userName },
        { key: 'operator', label: t('planDetails.operator'), children: row.operatorName },
      ]}
    />
  );

  let body;
  if (choices.isError && !choices.isFetching)
    body = (
      <Alert
        type="error"
        showIcon
        title={t('planDetails.plansError')}
        description={errorText(t, choices.error)}
        action={<Button onClick={() => void choices.refetch()}>{t('common.retry')}</Button>}
      />
    );
  else if (!loaded) body = <Skeleton active paragraph={{ rows: 3 }} />;
  else
    body = (
      <Form<EditValues>
        form={form}
        layout="vertical"
        initialValues={{
          planId: current?.id ?? null,
          contractPrice: amountInput(current ? current.contractPrice : row.contractPrice, lang),
        }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item
          name="planId"
          label={labels.planId}
          rules={[{ required: true, message: t('validation.required', { name: labels.planId }) }]}
        >
          <Select<number, PlanOption>
            showSearch={{ optionFilterProp: 'label' }}
            options={options}
            data-testid="plan-detail-plan"
            onChange={(id) => {
              const c = list.find((x) => x.id === id);
              form.setFieldValue('contractPrice', amountInput(c?.contractPrice, lang));
            }}
            optionRender={(o) => <PlanOptionText choice={o.data.choice} lang={lang} />}
          />
        </Form.Item>
        <Form.Item
          name="contractPrice"
          label={labels.contractPrice}
          extra={
            chosen
              ? t('planDetails.contractPriceHelp', {
                  // Subscriptions on the plan once this one is on it.
                  count: chosen.subscriptions + (chosen.id === current?.id ? 0 : 1),
                })
              : undefined
          }
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                const s = typeof value === 'string' ? value.trim() : '';
                if (s !== '' && !AMOUNT.test(s)) throw new Error(t('planDetails.contractPriceInvalid'));
              },
            },
          ]}
        >
          <Input
            inputMode="decimal"
            suffix="€"
            placeholder={chosen ? money(chosen.listPrice, lang) : undefined}
            style={{ maxWidth: 220 }}
            data-testid="plan-detail-contract-price"
          />
        </Form.Item>
      </Form>
    );

  return (
    <AppModal
      open
      width={640}
      title={t('planDetails.editTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ disabled: !loaded }}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      {details}
      {body}
    </AppModal>
  );
}

/** A plan in the plan list: its name, list price, and the client's contract price or own row. */
function PlanOptionText({ choice, lang }: { choice: PlanChoice; lang: Lang }) {
  const { t } = useTranslation();
  return (
    <Flex vertical data-testid="plan-option">
      <span>{choice.name}</span>
      <Flex gap={8} align="center" wrap>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('planDetails.listPriceShort', { price: money(choice.listPrice, lang) })}
          {choice.contractPrice != null &&
            ` · ${t('planDetails.contractPriceShort', { price: money(choice.contractPrice, lang) })}`}
        </Typography.Text>
        {choice.customerSpecific && (
          <Tag color="blue" style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px' }}>
            {t('planDetails.customerSpecific')}
          </Tag>
        )}
      </Flex>
    </Flex>
  );
}
