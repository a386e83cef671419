import { useState } from 'react';
import { App, Button, Divider, Flex, Form, Input, Popconfirm, Radio, Select, Table, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  portalCredentialsSchema,
  type PortalCredentialsInput,
  type PortalCredentialsView,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { errorText, formFields } from '../../lib/form-rules';
import { useSaveError } from '../../lib/use-save-error';
import { clientOptionsQuery } from '../../lib/organization-api';
import {
  AUTOMATION_KEY,
  credentialsQuery,
  deleteCredentials,
  fullAutomationQuery,
  operatorOptionsQuery,
  saveCredentials,
  setUploadMethod,
} from './api';
import { formatDateTime } from '../../lib/format';

const shape = portalCredentialsSchema.shape;

/**
 * A client's automation: its operator portal credentials (the password is write-only: never
 * shown, never prefilled) and its invoice upload method.
 */
export function AutomationSettingsModal({
  clientId: fixedClient,
  onClose,
}: {
  clientId?: number;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PortalCredentialsInput>();
  const [clientId, setClientId] = useState<number | undefined>(fixedClient);
  const clients = useQuery(clientOptionsQuery());
  const operators = useQuery(operatorOptionsQuery());
  const automated = useQuery(fullAutomationQuery());
  const creds = useQuery({ ...credentialsQuery(clientId ?? 0), enabled: clientId !== undefined });
  const isAutomated = automated.data?.some((r) => r.clientId === clientId) ?? false;
  const labels = {
    operatorId: t('automation.columns.operator'),
    portalUrl: t('automation.credentials.portalUrl'),
    username: t('automation.credentials.username'),
    password: t('automation.credentials.password'),
  };
  const field = formFields(t, labels, shape);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: AUTOMATION_KEY });
  const save = useMutation({
    mutationFn: (body: PortalCredentialsInput) => saveCredentials(clientId as number, body),
    onSuccess: () => {
      void message.success(t('errors.updated'));
      form.setFieldsValue({ password: '' });
      refresh();
    },
    onError: useSaveError(form, labels),
  });
  const remove = useMutation({
    mutationFn: (operatorId: number) => deleteCredentials(clientId as number, operatorId),
    onSuccess: (res) => {
      void message.success(t('errors.deleted', { defaultValue: res.message }));
      refresh();
    },
    onError: (err) => void message.error(errorText(t, err)),
  });
  const method = useMutation({
    mutationFn: (m: 'manual' | 'automation') => setUploadMethod(clientId as number, m),
    onSuccess: (res) => {
      void message.success(t('errors.updated', { defaultValue: res.message }));
      refresh();
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  const clientName = clients.data?.find((c) => c.id === clientId)?.name;
  return (
    <AppModal
      open
      width={760}
      title={clientName ? t('automation.settingsOf', { client: clientName }) : t('automation.settings')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('automation.close')}</Button>}
      destroyOnHidden
    >
      <div data-testid="automation-settings-modal">
        {fixedClient === undefined && (
          <Flex align="center" gap={12} style={{ marginBottom: 16 }}>
            <Typography.Text strong>{t('automation.columns.client')}</Typography.Text>
            <Select<number>
              showSearch={{ optionFilterProp: 'label' }}
              style={{ minWidth: 300 }}
              placeholder={t('invoices.upload.chooseClient')}
              value={clientId}
              onChange={setClientId}
              options={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
              data-testid="automation-client"
            />
          </Flex>
        )}
        {clientId !== undefined && (
          <>
            <Flex align="center" gap={12} wrap>
              <Typography.Text strong>{t('automation.method.label')}</Typography.Text>
              <Radio.Group
                optionType="button"
                value={isAutomated ? 'automation' : 'manual'}
                disabled={method.isPending || automated.isLoading}
                onChange={(e) => method.mutate(e.target.value as 'manual' | 'automation')}
                options={[
                  { value: 'manual', label: t('automation.method.manual') },
                  { value: 'automation', label: t('automation.method.automation') },
                ]}
                data-testid="upload-method"
              />
            </Flex>
            <Divider titlePlacement="start">{t('automation.credentials.title')}</Divider>
            <Table<PortalCredentialsView>
              rowKey="id"
              size="small"
              pagination={false}
              loading={creds.isLoading}
              dataSource={creds.data ?? []}
              locale={{ emptyText: t('automation.credentials.none') }}
              columns={[
                { key: 'op', dataIndex: 'operatorName', title: labels.operatorId },
                { key: 'url', dataIndex: 'portalUrl', title: labels.portalUrl },
                { key: 'user', dataIndex: 'username', title: labels.username },
                {
                  key: 'updated',
                  dataIndex: 'updatedAt',
                  title: t('automation.credentials.updated'),
                  render: (v: string) => formatDateTime(v, lang),
                },
                {
                  key: 'del',
                  align: 'right',
                  render: (_: unknown, row) => (
                    <Popconfirm
                      title={t('masters.ui.deleteConfirm')}
                      okText={t('masters.ui.delete')}
                      okButtonProps={{ danger: true }}
                      cancelText={t('common.cancel')}
                      onConfirm={() => remove.mutateAsync(row.operatorId).catch(() => undefined)}
                    >
                      <Button
                        type="text"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        title={t('masters.ui.delete')}
                        aria-label={t('masters.ui.delete')}
                      />
                    </Popconfirm>
                  ),
                },
              ]}
            />
            <Form<PortalCredentialsInput>
              form={form}
              layout="vertical"
              style={{ marginTop: 16 }}
              onFinish={(values) => save.mutate(values)}
              autoComplete="off"
              data-testid="credentials-form"
            >
              <Flex gap={12} wrap>
                <Form.Item {...field('operatorId')} style={{ minWidth: 160, flex: 1 }}>
                  <Select
                    options={(operators.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
                    loading={operators.isLoading}
                  />
                </Form.Item>
                <Form.Item {...field('portalUrl')} style={{ minWidth: 240, flex: 2 }}>
                  <Input placeholder="https://" />
                </Form.Item>
              </Flex>
              <Flex gap={12} wrap>
                <Form.Item {...field('username')} style={{ minWidth: 200, flex: 1 }}>
                  <Input autoComplete="off" />
                </Form.Item>
                <Form.Item {...field('password')} style={{ minWidth: 200, flex: 1 }}>
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
              </Flex>
              <Button
                type="primary"
                htmlType="submit"
                loading={save.isPending}
                data-testid="save-credentials"
              >
                {t('automation.credentials.save')}
              </Button>
            </Form>
          </>
        )}
      </div>
    </AppModal>
  );
}
