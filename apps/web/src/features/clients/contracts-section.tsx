import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Col,
  DatePicker,
  Descriptions,
  Flex,
  Form,
  Popconfirm,
  Row as GridRow,
  Select,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { CheckOutlined, StopOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  activationLeavesLockedOut,
  contractCosts,
  contractResource,
  type BillingCycle,
  type BillingPlanFees,
  type Contract,
  type ContractStatus,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import {
  ResourceSection,
  type FieldOverride,
  type FormContext,
  type FormValues,
  type PagedColumn,
  type Row,
} from '../../components/resource/resource-section';
import { errorText } from '../../lib/form-rules';
import { formatDate, formatMoney } from '../../lib/format';
import {
  apiToday,
  billingQuery,
  contractBody,
  contractsKey,
  DAY_PICKER_FORMAT,
  dayProps,
  saveContract,
  showApiErrors,
  terminateContract,
} from './money-api';
import './money-texts';

const STATUS_COLORS: Record<ContractStatus, string> = {
  draft: 'blue',
  active: 'green',
  inactive: 'default',
  terminated: 'red',
};

type Lang = 'en' | 'fi';
const langOf = (l: string): Lang => (l === 'fi' ? 'fi' : 'en');
const money = (v: string | null, lang: Lang) => (v == null ? '–' : formatMoney(Number(v), lang));
const FIELD_TEST_IDS: Record<string, string> = { billingCycle: 'cycle', numberOfPlans: 'plans' };

/** The list's rows as contracts (the declaration's entity). */
const contractsOf = (rows: readonly Row[]) => rows as unknown as Contract[];

/**
 * Contract management (spec §3 Client contract; §4 draft → active → inactive / terminated; §5) on
 * the declared resource screen (`contractResource`, the whole list): the client's contracts with
 * their status, dates, billing cycle, plans, units and costs; add (active) or save as a draft and
 * edit in the contract's own form, which previews the monthly and yearly cost with the same
 * formula the API stores; activating a draft and terminating on a date between start and end are
 * workflows beside it. Never deleted.
 */
export function ContractsSection({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const c = (key: string) => t(`clients.contracts.${key}`);
  // The form starts from the client's billing plan: loaded before it opens.
  const billing = useQuery(billingQuery(clientId));
  const plans = billing.data?.plans ?? [];
  const clientPlanId = billing.data?.billingPlanId ?? null;
  const day = (testId: string): FieldOverride => ({
    item: { ...dayProps },
    input: () => (
      <DatePicker style={{ width: '100%' }} format={DAY_PICKER_FORMAT[lang]} data-testid={testId} />
    ),
  });
  // Saved as active, a contract starting later leaves the client locked out until then.
  const startsLater = (values: FormValues, { row, rows }: FormContext) =>
    row?.status !== 'active' &&
    typeof values.startDate === 'string' &&
    activationLeavesLockedOut(
      values.startDate,
      contractsOf(rows).filter((x) => x.id !== row?.id),
      apiToday(),
    );
  const column = (
    key: string,
    render: (r: Contract) => React.ReactNode,
    align?: 'right',
  ): PagedColumn<Row> => ({
    key,
    title: c(key),
    align,
    render: (_v, r) => render(r as unknown as Contract),
  });
  const secondary = (text: React.ReactNode) => (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {text}
    </Typography.Text>
  );
  return (
    <ResourceSection
      resource={contractResource}
      base={`/api/clients/${clientId}/contracts`}
      queryKey={contractsKey(clientId)}
      unpaged
      deletable={false}
      texts={{
        add: c('add'),
        addTitle: c('addTitle'),
        editTitle: c('editTitle'),
        empty: c('empty'),
        edit: t('clients.money.edit'),
      }}
      testIds={{
        root: 'client-contracts',
        table: 'contracts-table',
        add: 'contract-add',
        form: 'contract-form',
        save: 'contract-submit',
        field: (key) => `contract-${FIELD_TEST_IDS[key] ?? key}`,
        edit: 'contract-edit',
      }}
      extras={{
        columns: [
          column('status', (r) => (
            <Flex vertical gap={2}>
              <Tag color={STATUS_COLORS[r.status]} style={{ width: 'fit-content' }}>
                {c(`statuses.${r.status}`)}
              </Tag>
              {(r.terminationDate ?? r.inactiveDate) &&
                secondary(formatDate((r.terminationDate ?? r.inactiveDate)!, lang))}
            </Flex>
          )),
          column('period', (r) => (
            <Flex vertical gap={2}>
              <span>{`${formatDate(r.startDate, lang)} – ${formatDate(r.endDate, lang)}`}</span>
              {r.term && secondary(`${c('term')}: ${r.term}`)}
            </Flex>
          )),
          column('billingCycle', (r) => c(`cycles.${r.billingCycle}`)),
          'billingPlanName',
          { ...column('numberOfPlans', (r) => r.numberOfPlans, 'right'), title: c('plansShort') },
          column('units', (r) => r.units, 'right'),
          'monthlyCost',
          'yearlyCost',
        ],
        // Only a draft or an active contract can be changed.
        editable: (r) => r.status === 'draft' || r.status === 'active',
        RowActions: ContractActions,
        errorFields: { contractStartBeforePrevious: 'startDate', contractNoBillingPlan: 'billingPlanId' },
        fields: {
          startDate: day('contract-start'),
          endDate: day('contract-end'),
          billingPlanId: {
            initial: () => clientPlanId,
            input: () => (
              <Select<number | null>
                allowClear
                placeholder={c('billingPlanDefault')}
                options={plans.map((plan) => ({ value: plan.id, label: plan.name }))}
                data-testid="contract-plan"
              />
            ),
          },
          billingCycle: { initial: () => 'monthly' },
          units: {
            initial: () => '1',
            input: () => (
              <Select
                options={['0', '1'].map((v) => ({ value: v, label: v }))}
                data-testid="contract-units"
              />
            ),
          },
        },
        formExtra: {
          keys: ['inactive', 'inactiveDate'],
          initial: () => ({ inactive: false, inactiveDate: apiToday() }),
          top: (values, ctx) =>
            startsLater(values, ctx) && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 16 }}
                title={t('clients.contracts.startsLater', {
                  date: formatDate(String(values.startDate), lang),
                })}
                data-testid="contract-starts-later"
              />
            ),
          render: (values, { row }) => (
            <>
              {row?.status === 'active' && (
                <GridRow gutter={16}>
                  <Col xs={12} md={12}>
                    <Form.Item name="inactive" label={c('makeInactive')} valuePropName="checked">
                      <Switch data-testid="contract-inactive" />
                    </Form.Item>
                  </Col>
                  {values.inactive === true && (
                    <Col xs={12} md={12}>
                      <Form.Item
                        name="inactiveDate"
                        label={c('inactiveDate')}
                        {...dayProps}
                        rules={[
                          { required: true, message: t('validation.required', { name: c('inactiveDate') }) },
                        ]}
                      >
                        <DatePicker style={{ width: '100%' }} format={DAY_PICKER_FORMAT[lang]} />
                      </Form.Item>
                    </Col>
                  )}
                </GridRow>
              )}
              <CostPreview
                values={values}
                plan={plans.find((x) => x.id === (values.billingPlanId ?? clientPlanId))}
              />
            </>
          ),
          payload: (v, row) => {
            const inactive = row?.status === 'active' && v.inactive === true;
            return {
              status: inactive ? 'inactive' : 'active',
              ...(row ? { inactiveDate: inactive ? (v.inactiveDate ?? null) : null } : {}),
            };
          },
          saveLabel: (row) =>
            !row ? c('submitActive') : row.status === 'draft' ? c('activate') : t('clients.money.save'),
          // A new contract or a draft may be saved as a draft.
          submits: (row) =>
            !row || row.status === 'draft'
              ? [{ label: c('saveDraft'), body: { status: 'draft' }, testId: 'contract-save-draft' }]
              : [],
        },
      }}
    />
  );
}

/**
 * The workflows of a contract's row: activate a draft (after a confirmation that warns when the
 * client stays locked out until its start), terminate an active one on a date.
 */
function ContractActions({ row, rows }: { row: Row; rows: readonly Row[] }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [terminating, setTerminating] = useState(false);
  const r = row as unknown as Contract;
  const c = (key: string) => t(`clients.contracts.${key}`);
  const activate = useMutation({
    mutationFn: () => saveContract({ clientId: r.clientId, id: r.id, body: contractBody(r, 'active') }),
    onSuccess: (answer) => {
      void message.success(t(`errors.${answer.code}`, { defaultValue: answer.message }));
      void queryClient.invalidateQueries({ queryKey: contractsKey(r.clientId) });
    },
    onError: (e) => void message.error(errorText(t, e)),
  });
  // Activating a contract that starts later leaves the client locked out until its start when no
  // other contract is in force today: the provider is told before.
  const startsLater = () =>
    activationLeavesLockedOut(
      r.startDate,
      contractsOf(rows).filter((x) => x.id !== r.id),
      apiToday(),
    );
  return (
    <>
      {r.status === 'draft' && (
        <Popconfirm
          title={c('activateConfirm')}
          description={
            startsLater() ? (
              <Typography.Text type="warning" data-testid="contract-starts-later">
                {t('clients.contracts.startsLater', { date: formatDate(r.startDate, lang) })}
              </Typography.Text>
            ) : undefined
          }
          okText={c('activate')}
          cancelText={t('clients.money.cancel')}
          onConfirm={() => activate.mutate()}
        >
          <Tooltip title={c('activate')}>
            <Button
              size="small"
              icon={<CheckOutlined />}
              aria-label={c('activate')}
              data-testid={`contract-activate-${r.id}`}
            />
          </Tooltip>
        </Popconfirm>
      )}
      {/* Only a contract in force can be terminated (a draft never started). */}
      {r.status === 'active' && (
        <Tooltip title={c('terminate')}>
          <Button
            size="small"
            danger
            icon={<StopOutlined />}
            aria-label={c('terminate')}
            onClick={() => setTerminating(true)}
            data-testid={`contract-terminate-${r.id}`}
          />
        </Tooltip>
      )}
      {terminating && <TerminateModal clientId={r.clientId} row={r} onClose={() => setTerminating(false)} />}
    </>
  );
}

function TerminateModal({
  clientId,
  row,
  onClose,
}: {
  clientId: number;
  row: Contract;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ terminationDate: string | null }>();
  const label = t('clients.contracts.terminationDate');
  const today = apiToday();
  const initial = today < row.startDate ? row.startDate : today > row.endDate ? row.endDate : today;

  const terminate = useMutation({
    mutationFn: (terminationDate: string) => terminateContract({ clientId, id: row.id, terminationDate }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      void queryClient.invalidateQueries({ queryKey: contractsKey(clientId) });
      onClose();
    },
    onError: (e) => {
      if (!showApiErrors(form, e, t, { terminationDate: label })) void message.error(errorText(t, e));
    },
  });

  return (
    <AppModal
      open
      title={t('clients.contracts.terminateTitle')}
      okText={t('clients.contracts.terminate')}
      okButtonProps={{ danger: true, id: 'contract-terminate-confirm' }}
      cancelText={t('clients.money.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={terminate.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('clients.contracts.terminateHelp')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        {formatDate(row.startDate, lang)} – {formatDate(row.endDate, lang)}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ terminationDate: initial }}
        onFinish={(v) => v.terminationDate && terminate.mutate(v.terminationDate)}
      >
        <Form.Item
          name="terminationDate"
          label={label}
          {...dayProps}
          rules={[
            { required: true, message: t('validation.required', { name: label }) },
            {
              validator: async (_r, v: string | null) => {
                if (v && (v < row.startDate || v > row.endDate))
                  throw new Error(t('errors.contractTerminationDate'));
              },
            },
          ]}
        >
          <DatePicker
            style={{ width: '100%' }}
            format={DAY_PICKER_FORMAT[lang]}
            disabledDate={(d) => {
              const day = d.format('YYYY-MM-DD');
              return day < row.startDate || day > row.endDate;
            }}
            data-testid="contract-termination-date"
          />
        </Form.Item>
      </Form>
    </AppModal>
  );
}

/** A whole number typed in the form, or null. */
const wholeNumber = (v: unknown) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : null);

/**
 * The live cost preview of the form: the chosen plan, else the client's plan (as the API prices
 * it), with the same formula the API stores.
 */
function CostPreview({ values, plan }: { values: FormValues; plan: BillingPlanFees | undefined }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const c = (key: string) => t(`clients.contracts.${key}`);
  const n = wholeNumber(values.numberOfPlans);
  const units = wholeNumber(values.units);
  const preview =
    plan && n !== null && (units === 0 || units === 1)
      ? contractCosts(
          {
            units,
            numberOfPlans: n,
            billingCycle: (values.billingCycle as BillingCycle | undefined) ?? 'monthly',
          },
          plan,
        )
      : null;
  return preview ? (
    <Descriptions
      bordered
      size="small"
      column={3}
      title={c('preview')}
      data-testid="contract-preview"
      items={[
        { key: 'costPerUnit', label: c('costPerUnit'), children: money(preview.costPerUnit, lang) },
        { key: 'monthlyCost', label: c('monthlyCost'), children: money(preview.monthlyCost, lang) },
        { key: 'yearlyCost', label: c('yearlyCost'), children: money(preview.yearlyCost, lang) },
      ]}
    />
  ) : (
    <Typography.Text type="secondary" data-testid="contract-preview">
      {plan ? c('previewIncomplete') : c('previewNoPlan')}
    </Typography.Text>
  );
}
