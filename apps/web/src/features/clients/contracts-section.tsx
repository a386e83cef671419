import { useMemo, useRef, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Col,
  DatePicker,
  Descriptions,
  Flex,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Row as GridRow,
  Select,
  Space,
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
  BILLING_CYCLES,
  contractCosts,
  contractResource,
  type BillingCycle,
  type Contract,
  type ContractStatus,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import {
  ResourceSection,
  type EditForm,
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
  DAY_FORMAT,
  dayProps,
  saveContract,
  showApiErrors,
  terminateContract,
  type ContractBody,
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
  useQuery(billingQuery(clientId));
  const ContractForm = useMemo<EditForm>(
    () =>
      function ContractForm(p) {
        return (
          <ContractModal
            clientId={clientId}
            row={p.row as Contract | null}
            others={contractsOf(p.rows).filter((x) => x.id !== p.row?.id)}
            onSaved={p.onSaved}
            onClose={p.onClose}
          />
        );
      },
    [clientId],
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
        EditForm: ContractForm,
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

interface FormValues {
  term: string | null;
  startDate: string | null;
  endDate: string | null;
  billingPlanId: number | null;
  billingCycle: BillingCycle;
  numberOfPlans: number | null;
  units: number;
  inactive: boolean;
  inactiveDate: string | null;
}

function ContractModal({
  clientId,
  row,
  others,
  onSaved,
  onClose,
}: {
  clientId: number;
  row: Contract | null;
  others: Contract[];
  onSaved: () => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const { message } = App.useApp();
  const billing = useQuery(billingQuery(clientId));
  const plans = billing.data?.plans ?? [];
  const clientPlanId = billing.data?.billingPlanId ?? null;
  const [form] = Form.useForm<FormValues>();
  const submitted = useRef<ContractStatus>('active');
  const c = (key: string) => t(`clients.contracts.${key}`);
  const labels: Record<string, string> = Object.fromEntries(
    [
      'term',
      'startDate',
      'endDate',
      'billingPlanId',
      'billingCycle',
      'numberOfPlans',
      'units',
      'inactiveDate',
    ].map((k) => [k, c(k)]),
  );
  const isActive = row?.status === 'active';

  const save = useMutation({
    mutationFn: (body: ContractBody) => saveContract({ clientId, id: row?.id, body }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      onSaved();
      onClose();
    },
    onError: (e) => {
      if (!showApiErrors(form, e, t, labels)) void message.error(errorText(t, e));
    },
  });

  const submit = async (status: ContractStatus) => {
    submitted.current = status;
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const inactive = isActive && v.inactive;
    save.mutate({
      term: v.term?.trim() ? v.term.trim() : null,
      startDate: v.startDate!,
      endDate: v.endDate!,
      billingPlanId: v.billingPlanId ?? null,
      billingCycle: v.billingCycle,
      numberOfPlans: v.numberOfPlans ?? 0,
      units: v.units,
      status: inactive ? 'inactive' : status,
      ...(row ? { inactiveDate: inactive ? (v.inactiveDate ?? null) : null } : {}),
    });
  };

  // The live cost preview: the chosen plan, else the client's plan (as the API prices it).
  const values = Form.useWatch([], form) as Partial<FormValues> | undefined;
  const planId = values?.billingPlanId ?? clientPlanId;
  const plan = plans.find((p) => p.id === planId) ?? null;
  const n = values?.numberOfPlans;
  const preview =
    plan &&
    typeof n === 'number' &&
    Number.isInteger(n) &&
    n >= 0 &&
    (values?.units === 0 || values?.units === 1)
      ? contractCosts(
          { units: values.units, numberOfPlans: n, billingCycle: values.billingCycle ?? 'monthly' },
          plan,
        )
      : null;

  const required = (key: string) => ({
    required: true,
    message: t('validation.required', { name: labels[key] }),
  });
  const canDraft = !row || row.status === 'draft';
  const inactive = Form.useWatch('inactive', form);
  // Saved as active, a contract starting later leaves the client locked out until then.
  const startsLater =
    row?.status !== 'active' &&
    !!values?.startDate &&
    activationLeavesLockedOut(values.startDate, others, apiToday());

  return (
    <AppModal
      open
      width={760}
      title={row ? c('editTitle') : c('addTitle')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('clients.money.cancel')}</Button>
          {canDraft && (
            <Button
              loading={save.isPending && submitted.current === 'draft'}
              onClick={() => void submit('draft')}
              data-testid="contract-save-draft"
            >
              {c('saveDraft')}
            </Button>
          )}
          <Button
            type="primary"
            loading={save.isPending && submitted.current !== 'draft'}
            onClick={() => void submit('active')}
            data-testid="contract-submit"
          >
            {!row ? c('submitActive') : row.status === 'draft' ? c('activate') : t('clients.money.save')}
          </Button>
        </Space>
      }
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{
          term: row?.term ?? '',
          startDate: row?.startDate ?? null,
          endDate: row?.endDate ?? null,
          billingPlanId: row?.billingPlanId ?? clientPlanId,
          billingCycle: row?.billingCycle ?? 'monthly',
          numberOfPlans: row?.numberOfPlans ?? null,
          units: row?.units ?? 1,
          inactive: false,
          inactiveDate: apiToday(),
        }}
        data-testid="contract-form"
      >
        {startsLater && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('clients.contracts.startsLater', {
              date: formatDate(values!.startDate!, lang),
            })}
            data-testid="contract-starts-later"
          />
        )}
        <GridRow gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="term" label={labels.term}>
              <Input maxLength={50} data-testid="contract-term" />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item
              name="startDate"
              label={labels.startDate}
              {...dayProps}
              rules={[required('startDate')]}
            >
              <DatePicker style={{ width: '100%' }} format={DAY_FORMAT[lang]} data-testid="contract-start" />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item
              name="endDate"
              label={labels.endDate}
              {...dayProps}
              dependencies={['startDate']}
              rules={[
                required('endDate'),
                ({ getFieldValue }) => ({
                  validator: async (_r, v: string | null) => {
                    const start = getFieldValue('startDate') as string | null;
                    if (v && start && v < start)
                      throw new Error(t('validation.invalid', { name: labels.endDate }));
                  },
                }),
              ]}
            >
              <DatePicker style={{ width: '100%' }} format={DAY_FORMAT[lang]} data-testid="contract-end" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="billingPlanId" label={labels.billingPlanId}>
              <Select<number | null>
                allowClear
                placeholder={c('billingPlanDefault')}
                options={plans.map((p) => ({ value: p.id, label: p.name }))}
                data-testid="contract-plan"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="billingCycle" label={labels.billingCycle} rules={[required('billingCycle')]}>
              <Select<BillingCycle>
                options={BILLING_CYCLES.map((v) => ({ value: v, label: c(`cycles.${v}`) }))}
                data-testid="contract-cycle"
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={12}>
            <Form.Item name="numberOfPlans" label={labels.numberOfPlans} rules={[required('numberOfPlans')]}>
              <InputNumber
                min={0}
                max={1_000_000}
                precision={0}
                style={{ width: '100%' }}
                data-testid="contract-plans"
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={12}>
            <Form.Item name="units" label={labels.units} rules={[required('units')]}>
              <Select<number>
                options={[0, 1].map((v) => ({ value: v, label: String(v) }))}
                data-testid="contract-units"
              />
            </Form.Item>
          </Col>
          {isActive && (
            <>
              <Col xs={12} md={12}>
                <Form.Item name="inactive" label={c('makeInactive')} valuePropName="checked">
                  <Switch data-testid="contract-inactive" />
                </Form.Item>
              </Col>
              {inactive && (
                <Col xs={12} md={12}>
                  <Form.Item
                    name="inactiveDate"
                    label={labels.inactiveDate}
                    {...dayProps}
                    rules={[required('inactiveDate')]}
                  >
                    <DatePicker style={{ width: '100%' }} format={DAY_FORMAT[lang]} />
                  </Form.Item>
                </Col>
              )}
            </>
          )}
        </GridRow>
      </Form>
      {preview ? (
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
      )}
    </AppModal>
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
            format={DAY_FORMAT[lang]}
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
