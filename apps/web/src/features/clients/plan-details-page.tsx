import { App, Descriptions, Flex, Form, Input, Select, Skeleton, Tag, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { planDetailResource, type Lang, type PlanChoice, type PlanDetail } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { LoadError } from '../../components/load-error';
import { EMPTY_CELL } from '../../components/resource/format';
import { ResourceSection, type Row } from '../../components/resource/resource-section';
import { formatMoney } from '../../lib/format';
import { useSaveError } from '../../lib/use-save-error';
import { PLAN_DETAILS_KEY, planChoicesQuery, savePlanDetail } from './client-masters-api';
import { registerPlanDetailsTexts } from './plan-details-texts';

registerPlanDetailsTexts();

const langOf = (language: string): Lang => (language === 'fi' ? 'fi' : 'en');
/** An amount of the API (decimal euros string) in the interface language, or a dash. */
const money = (value: string | null | undefined, lang: Lang) =>
  value == null || value === '' || !Number.isFinite(Number(value))
    ? EMPTY_CELL
    : formatMoney(Number(value), lang);
/** The API's amount as typed in the interface language ("12,50" in Finnish); blank for none. */
const amountInput = (value: string | null | undefined, lang: Lang) =>
  value == null ? '' : lang === 'fi' ? value.replace('.', ',') : value;
/** A non-negative amount with at most two decimals, with a point or a comma. */
const AMOUNT = /^\d{1,9}([.,]\d{1,2})?$/;

/**
 * Plan Details (spec §2 /company/client-masters/plan-details) on the declared resource screen
 * (`planDetailResource`): each subscription of the client with its current plan, the plan's list
 * price and the client's contract price, searched, sorted and paged; Edit Plan Details (a form of
 * its own) puts a subscription on another plan of its operator and sets the contract price (which
 * queues the client's re-optimization). `clientId` is for provider users (the client page's
 * section).
 */
export function PlanDetailsPage({ clientId }: { clientId?: number }) {
  const { t } = useTranslation();
  const dash = (v: unknown) => (typeof v === 'string' ? v : EMPTY_CELL);
  return (
    <ResourceSection
      resource={planDetailResource}
      base="/api/plan-details"
      queryKey={PLAN_DETAILS_KEY}
      params={{ clientId }}
      rowKey="subscriptionId"
      addable={false}
      deletable={false}
      plainActions
      texts={{
        title: t('menu.clientMasters.planDetails'),
        editTitle: t('planDetails.editTitle'),
        empty: t('planDetails.empty'),
        search: t('planDetails.search'),
        edit: t('planDetails.edit'),
      }}
      testIds={{ root: 'plan-details-page', table: 'plan-details', edit: 'plan-detail-edit' }}
      extras={{
        columns: [
          'phoneNumber',
          'userName',
          'operatorName',
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
          'planName',
          'listPrice',
          'contractPrice',
        ],
        renderCell: {
          planName: (v) =>
            typeof v === 'string' ? (
              v
            ) : (
              <Typography.Text type="secondary">{t('planDetails.noPlan')}</Typography.Text>
            ),
        },
        // Numbers and names need no more: the prices stay in view on a laptop screen.
        widths: { phoneNumber: 130, userName: 100, operatorName: 90, planName: 120 },
        searchWidth: 340,
        EditForm: EditPlanDetailForm,
      }}
    />
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

/**
 * Edit Plan Details: the subscription's plan (its operator's) and the client's contract price of
 * it, the plans' prices in the choice, the price following the chosen plan.
 */
function EditPlanDetailForm(p: { row: Row | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const { message } = App.useApp();
  const row = p.row as unknown as PlanDetail;
  const onClose = p.onClose;
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
      p.onSaved();
      onClose();
    },
    onError: useSaveError(form, labels),
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
    body = <LoadError title={t('planDetails.plansError')} query={choices} />;
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
