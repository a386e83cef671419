import { useEffect } from 'react';
import { Alert, App, Button, Form, InputNumber, Skeleton, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { optimizationSettingsSchema, type OptimizationSettings } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { errorText, fieldRules } from '../../lib/form-rules';
import { useSaveError } from '../../lib/use-save-error';
import { OPTIMIZATION_KEY, optimizationSettingsQuery, saveOptimizationSettings } from './api';

const FIELDS = [
  { name: 'optimizationMonths', help: 'optimization.settings.monthsHelp', testId: 'settings-months' },
  { name: 'unusedMonthCount', help: 'optimization.settings.unusedHelp', testId: 'settings-unused' },
] as const;

/**
 * The client's optimizer settings: how many months plans are sized on and after how many months
 * without use a subscription counts as unused. Saving starts a re-optimization on the server.
 */
export function OptimizationSettingsModal({
  open,
  clientId,
  onClose,
}: {
  open: boolean;
  clientId: number | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<OptimizationSettings>();
  const settings = useQuery(optimizationSettingsQuery(clientId, open));

  useEffect(() => {
    if (open && settings.data) form.setFieldsValue(settings.data);
  }, [open, settings.data, form]);

  const labels: Record<keyof OptimizationSettings, string> = {
    optimizationMonths: t('optimization.settings.months'),
    unusedMonthCount: t('optimization.settings.unusedMonths'),
  };
  const save = useMutation({
    mutationFn: (values: OptimizationSettings) => saveOptimizationSettings(clientId, values),
    onSuccess: () => {
      void message.success(t('optimization.settings.saved'));
      void queryClient.invalidateQueries({ queryKey: OPTIMIZATION_KEY });
      onClose();
    },
    onError: useSaveError(form, labels),
  });

  return (
    <AppModal
      open={open}
      title={t('optimization.settings.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={save.isPending}
          disabled={!settings.data}
          onClick={() => form.submit()}
          data-testid="optimization-settings-save"
        >
          {t('common.save')}
        </Button>,
      ]}
    >
      <div data-testid="optimization-settings-modal">
        {settings.isError ? (
          <Alert type="error" showIcon title={errorText(t, settings.error)} />
        ) : !settings.data ? (
          <Skeleton active paragraph={{ rows: 3 }} />
        ) : (
          <Form<OptimizationSettings>
            form={form}
            layout="vertical"
            initialValues={settings.data}
            onFinish={(values) => save.mutate(values)}
          >
            {FIELDS.map(({ name, help, testId }) => (
              <Form.Item
                key={name}
                name={name}
                label={labels[name]}
                extra={t(help)}
                rules={fieldRules(t, labels[name], optimizationSettingsSchema.shape[name])}
              >
                <InputNumber min={1} max={24} precision={0} style={{ width: 120 }} data-testid={testId} />
              </Form.Item>
            ))}
            <Typography.Text type="secondary">{t('optimization.settings.rerunNote')}</Typography.Text>
          </Form>
        )}
      </div>
    </AppModal>
  );
}
