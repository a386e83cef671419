import {
  Alert as Notice,
  App,
  Button,
  Card,
  Drawer,
  Flex,
  Form,
  InputNumber,
  Skeleton,
  Switch,
  Typography,
} from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ALERT_RULE_LABELS,
  ALERT_RULE_THRESHOLDS,
  ALERT_RULES,
  alertRuleUpdateSchema,
  type AlertRule,
  type AlertRuleRow,
  type Lang,
} from '@kulu/shared';
import { errorText, fieldRules } from '../../lib/form-rules';
import { ALERTS_KEY, alertRulesQuery, saveAlertRules } from './api';

type Threshold = 'factor' | 'amount' | 'days';
type Values = Record<AlertRule, Pick<AlertRuleRow, 'enabled' | Threshold>>;

const UNITS: Record<
  Threshold,
  { suffix: (t: (k: string) => string) => string; step: number; precision: number }
> = {
  factor: { suffix: () => '×', step: 0.5, precision: 1 },
  amount: { suffix: () => '€', step: 5, precision: 2 },
  days: { suffix: (t) => t('alerts.rules.daysUnit'), step: 1, precision: 0 },
};

/** The label of a rule's threshold: "days" is a day of the month for one rule, days ahead for another. */
const thresholdKey = (rule: AlertRule, k: Threshold) =>
  k === 'days' ? (rule === 'invoice_missing' ? 'dayOfMonth' : 'daysAhead') : k;

const toValues = (rows: AlertRuleRow[]): Values =>
  Object.fromEntries(
    rows.map(({ rule, enabled, factor, amount, days }) => [rule, { enabled, factor, amount, days }]),
  ) as Values;

/**
 * The alert rules of a client (issue 26): each on or off with the thresholds it reads, saved in
 * one PUT. Read-only for a user limited to sub-companies or cost centers (the API says so).
 */
export function AlertRulesDrawer({
  open,
  clientId,
  lang,
  onClose,
}: {
  open: boolean;
  clientId: number | undefined;
  lang: Lang;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const rules = useQuery(alertRulesQuery(clientId, open));
  const editable = rules.data?.editable ?? false;

  const save = useMutation({
    mutationFn: (values: Values) =>
      saveAlertRules(
        clientId,
        ALERT_RULES.map((rule) => ({
          rule,
          enabled: values[rule].enabled,
          ...Object.fromEntries(ALERT_RULE_THRESHOLDS[rule].map((k) => [k, values[rule][k]])),
        })),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(alertRulesQuery(clientId).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
      void message.success(t('alerts.rules.saved'));
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('alerts.rules.title')}
      size="large"
      destroyOnHidden
      data-testid="alert-rules-drawer"
      extra={
        editable && (
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => form.submit()}
            data-testid="alert-rules-save"
          >
            {t('common.save')}
          </Button>
        )
      }
    >
      {rules.isError ? (
        <Notice type="error" showIcon title={errorText(t, rules.error)} />
      ) : !rules.data ? (
        <Skeleton active />
      ) : (
        <Form<Values>
          form={form}
          initialValues={toValues(rules.data.rules)}
          layout="vertical"
          disabled={!editable}
          onFinish={(v) => save.mutate(v)}
          data-testid="alert-rules-form"
        >
          {!editable && (
            <Notice
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              title={t('alerts.rules.readOnly')}
              data-testid="alert-rules-read-only"
            />
          )}
          <Flex vertical gap={12}>
            {ALERT_RULES.map((rule) => (
              <Card
                key={rule}
                size="small"
                title={ALERT_RULE_LABELS[rule][lang]}
                extra={
                  <Form.Item name={[rule, 'enabled']} valuePropName="checked" noStyle>
                    <Switch
                      aria-label={ALERT_RULE_LABELS[rule][lang]}
                      data-testid={`alert-rule-${rule}-enabled`}
                    />
                  </Form.Item>
                }
                data-testid={`alert-rule-${rule}`}
              >
                <Flex gap={16} wrap>
                  {ALERT_RULE_THRESHOLDS[rule].map((k) => {
                    const label = t(`alerts.rules.${thresholdKey(rule, k)}`);
                    return (
                      <Form.Item
                        key={k}
                        name={[rule, k]}
                        label={label}
                        rules={[
                          // fieldRules' required is a text's; a number's is checked here.
                          {
                            required: true,
                            type: 'number',
                            message: t('validation.required', { name: label }),
                          },
                          ...fieldRules(t, label, alertRuleUpdateSchema.shape[k].unwrap().unwrap(), false),
                        ]}
                        style={{ marginBottom: 0 }}
                      >
                        <InputNumber<number>
                          step={UNITS[k].step}
                          precision={UNITS[k].precision}
                          decimalSeparator={lang === 'fi' ? ',' : '.'}
                          suffix={UNITS[k].suffix(t)}
                          style={{ width: 160 }}
                          data-testid={`alert-rule-${rule}-${k}`}
                        />
                      </Form.Item>
                    );
                  })}
                  {ALERT_RULE_THRESHOLDS[rule].length === 0 && (
                    <Typography.Text type="secondary">{t('alerts.rules.noThreshold')}</Typography.Text>
                  )}
                </Flex>
              </Card>
            ))}
          </Flex>
        </Form>
      )}
    </Drawer>
  );
}
