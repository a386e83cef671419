import { useState } from 'react';
import { App, Button, Descriptions, Empty, Flex, Select, Skeleton, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillingPlanFees } from '@kulu/shared';
import { LoadError } from '../../components/load-error';
import { ApiRequestError } from '../../lib/api-client';
import { errorText } from '../../lib/form-rules';
import { formatMoney, formatNumber } from '../../lib/format';
import { CLIENTS_KEY } from './api';
import { billingKey, billingQuery, saveBilling } from './money-api';
import './money-texts';

const FEES = [
  'costPerPlan',
  'adminFee',
  'setUpFee',
  'setUpFeePerCompany',
  'additionalUsersFee',
  'companyAdditionalUsersFee',
  'automatedInvoiceUploadFee',
  'onDemandSupportFee',
] as const;

/**
 * Billing management (spec §2; §3 Client billing plan): the Client Billing Plan the client is
 * billed by, chosen from the master, and its fees read-only (they are edited in the master).
 */
export function BillingSection({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const billing = useQuery(billingQuery(clientId));
  const [chosen, setChosen] = useState<number | null | undefined>(undefined);
  const [fieldError, setFieldError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: saveBilling,
    onSuccess: (r) => {
      queryClient.setQueryData(billingKey(clientId), r.billing);
      // The profile carries the plan too: read it again so its form does not send an old one.
      void queryClient.invalidateQueries({ queryKey: [...CLIENTS_KEY, 'detail', clientId] });
      setChosen(undefined);
      setFieldError(null);
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
    },
    onError: (e) => {
      // An unknown plan (deleted meanwhile) belongs to the field; anything else is a message.
      if (e instanceof ApiRequestError && e.fields?.billingPlanId)
        setFieldError(t('validation.invalid', { name: t('clients.billing.plan') }));
      else void message.error(errorText(t, e));
    },
  });

  if (billing.isLoading) return <Skeleton active />;
  if (billing.isError || !billing.data) return <LoadError query={billing} />;

  const data = billing.data;
  const value = chosen === undefined ? data.billingPlanId : chosen;
  const dirty = value !== data.billingPlanId;
  const plan: BillingPlanFees | null = data.plans.find((p) => p.id === value) ?? null;

  return (
    <Flex vertical gap={16} style={{ maxWidth: 960 }} data-testid="client-billing">
      <Typography.Text type="secondary">{t('clients.billing.help')}</Typography.Text>
      <Flex gap={8} align="start" wrap>
        <Flex vertical style={{ flex: 1, minWidth: 280, maxWidth: 480 }}>
          <Typography.Text strong>{t('clients.billing.plan')}</Typography.Text>
          <Select<number | null>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            aria-label={t('clients.billing.plan')}
            placeholder={t('clients.billing.placeholder')}
            value={value ?? undefined}
            onChange={(v) => {
              setChosen(v ?? null);
              setFieldError(null);
            }}
            status={fieldError ? 'error' : undefined}
            options={data.plans.map((p) => ({ value: p.id, label: p.name }))}
            data-testid="billing-plan-select"
          />
          {fieldError && <Typography.Text type="danger">{fieldError}</Typography.Text>}
        </Flex>
        <Button
          type="primary"
          style={{ marginTop: 22 }}
          disabled={!dirty}
          loading={save.isPending}
          onClick={() => save.mutate({ clientId, billingPlanId: value ?? null })}
          data-testid="billing-save"
        >
          {t('clients.money.save')}
        </Button>
      </Flex>
      {plan ? (
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2 }}
          title={
            <Flex gap={8} align="center">
              {t('clients.billing.fees')}: {plan.name}
              {dirty && <Tag color="orange">{t('clients.billing.unsaved')}</Tag>}
            </Flex>
          }
          items={[
            {
              key: 'contractLengthMonths',
              label: t('clients.billing.contractLengthMonths'),
              children: t('clients.billing.months', { count: plan.contractLengthMonths }),
            },
            {
              key: 'advancePaymentDiscountPercent',
              label: t('clients.billing.advancePaymentDiscountPercent'),
              children: `${formatNumber(Number(plan.advancePaymentDiscountPercent), lang)} %`,
            },
            ...FEES.map((f) => ({
              key: f,
              label: t(`clients.billing.${f}`),
              children: formatMoney(Number(plan[f]), lang),
            })),
          ]}
          data-testid="billing-fees"
        />
      ) : (
        <Empty description={t('clients.billing.noPlan')} />
      )}
    </Flex>
  );
}
