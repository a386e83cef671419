import { App, Button, Col, DatePicker, Divider, Flex, Form, Input, Row, Select } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './texts';
import dayjs, { type Dayjs } from 'dayjs';
import {
  CLIENT_KINDS,
  LEAD_STATUSES,
  PROFILE_STATUSES,
  UPLOAD_METHODS,
  clientCreateSchema,
  type Client,
  type ClientCreate,
  type ClientKind,
  type ClientSaved,
} from '@kulu/shared';
import { ApiRequestError } from '../../lib/api-client';
import { DAY_PICKER_FORMAT } from '../../lib/format';
import { applyFieldErrors, errorText, fieldRules } from '../../lib/form-rules';
import { CLIENTS_KEY, createClient, operatorOptionsQuery, updateClient } from './api';

/** The form's values: the profile as text (a blank optional field is null for the API). */
type Values = Omit<ClientCreate, 'kind'> & { kind?: ClientKind };

const shape = clientCreateSchema.shape;

/** The spec's conflicts (§8) belong to one field each: shown there as well as in the message. */
const CONFLICT_FIELD: Record<string, keyof Values> = {
  businessIdInUse: 'businessId',
  providerIdInUse: 'providerAccountId',
  companyNameInUse: 'companyName',
  emailInUse: 'email',
};

/** The form's first values: the client's, or a new customer's defaults (a company, active, manual upload). */
export const initialValues = (client?: Client): Partial<Values> =>
  client
    ? {
        companyName: client.companyName,
        businessId: client.businessId,
        providerAccountId: client.providerAccountId,
        email: client.email,
        contactNumber: client.contactNumber,
        adminName: client.adminName ?? '',
        address: client.address,
        country: client.country,
        operatorId: client.operatorId,
        profileStatus: client.profileStatus,
        leadStatus: client.leadStatus,
        reminderDate: client.reminderDate,
        billingPlanId: client.billingPlanId,
        invoiceUploadMethod: client.invoiceUploadMethod,
        portalUrl: client.portalUrl,
        portalUsername: client.portalUsername,
        portalPassword: null,
      }
    : { kind: 'company', profileStatus: 'active', invoiceUploadMethod: 'manual' };

/** A `YYYY-MM-DD` value in the form, a dayjs in the date picker. */
const dayProps = {
  getValueProps: (v: string | null | undefined) => ({ value: v ? dayjs(v) : undefined }),
  normalize: (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : null),
};

interface Props {
  /** The client to edit; without one the form adds a customer (Add Customer). */
  client?: Client;
  onSaved?: (saved: ClientSaved) => void;
  onCancel?: () => void;
}

/**
 * The client profile of spec §3 (every field) with the rules of §5: the business id with its check
 * digit, the contact number of 8–10 digits, the operator portal's username and password shown and
 * required only for automated invoice upload, lead status and reminder date for leads. The same
 * form adds a customer (with its type; the admin name and email become the first user).
 */
export function ClientProfileForm({ client, onSaved, onCancel }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const operators = useQuery(operatorOptionsQuery());
  const creating = !client;
  const kind = Form.useWatch('kind', form) ?? client?.kind;
  const method = Form.useWatch('invoiceUploadMethod', form);
  const automation = method === 'automation';
  const isLead = kind === 'lead';
  const label = (key: string) => t(`clients.profile.${key}`);
  const labels = Object.fromEntries(
    [
      'kind',
      'companyName',
      'businessId',
      'providerAccountId',
      'email',
      'contactNumber',
      'adminName',
      'address',
      'country',
      'operatorId',
      'profileStatus',
      'leadStatus',
      'reminderDate',
      'invoiceUploadMethod',
      'portalUrl',
      'portalUsername',
      'portalPassword',
    ].map((k) => [k, label(k)]),
  );

  const save = useMutation({
    mutationFn: (v: Values) => {
      // Every field goes: a blank one is null; a lead's follow-up fields only for a lead.
      const body = {
        ...v,
        leadStatus: isLead ? (v.leadStatus ?? null) : (client?.leadStatus ?? null),
        reminderDate: isLead ? (v.reminderDate ?? null) : (client?.reminderDate ?? null),
        billingPlanId: client?.billingPlanId ?? null,
        portalPassword: automation ? v.portalPassword || null : null,
      };
      return client
        ? updateClient({ id: client.id, body })
        : createClient({ ...body, kind: v.kind! } as ClientCreate);
    },
    onSuccess: (res) => {
      void message.success(t(`errors.${res.code}`, { defaultValue: res.message }));
      queryClient.setQueryData([...CLIENTS_KEY, 'detail', res.client.id], res.client);
      void queryClient.invalidateQueries({ queryKey: [...CLIENTS_KEY, 'list'] });
      form.setFieldValue('portalPassword', null);
      onSaved?.(res);
    },
    onError: (err) => {
      if (err instanceof ApiRequestError && Object.hasOwn(CONFLICT_FIELD, err.code)) {
        form.setFields([{ name: CONFLICT_FIELD[err.code], errors: [errorText(t, err)] }]);
      } else applyFieldErrors(form, err, t, labels);
      void message.error(errorText(t, err));
    },
  });

  const text = (name: keyof Values, required = false, extra?: string) => (
    <Form.Item
      name={name}
      label={labels[name]}
      rules={fieldRules(t, labels[name], shape[name], required)}
      extra={extra}
    >
      <Input />
    </Form.Item>
  );
  const choice = (
    name: 'profileStatus' | 'leadStatus' | 'invoiceUploadMethod',
    values: readonly string[],
    texts: string,
    required = true,
  ) => (
    <Form.Item name={name} label={labels[name]} rules={required ? fieldRules(t, labels[name]) : []}>
      <Select
        allowClear={!required}
        options={values.map((v) => ({ value: v, label: t(`clients.${texts}.${v}`) }))}
      />
    </Form.Item>
  );
  const storedPassword = Boolean(client?.hasPortalPassword);

  return (
    <Form<Values>
      form={form}
      name="client-profile"
      layout="vertical"
      initialValues={initialValues(client)}
      onFinish={(v) => save.mutate(v)}
      data-testid="client-profile-form"
      style={{ maxWidth: 960 }}
    >
      <Row gutter={24}>
        {creating && (
          <Col xs={24} md={12}>
            <Form.Item name="kind" label={labels.kind} rules={fieldRules(t, labels.kind)}>
              <Select options={CLIENT_KINDS.map((k) => ({ value: k, label: t(`clients.kinds.${k}`) }))} />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={12}>
          {text('companyName', true)}
        </Col>
        <Col xs={24} md={12}>
          {text('businessId', true, t('clients.profile.businessIdHelp'))}
        </Col>
        <Col xs={24} md={12}>
          {text('providerAccountId')}
        </Col>
        <Col xs={24} md={12}>
          {text('adminName', creating, creating ? t('clients.profile.adminNameHelp') : undefined)}
        </Col>
        <Col xs={24} md={12}>
          {text('email', true, creating ? t('clients.profile.emailHelp') : undefined)}
        </Col>
        <Col xs={24} md={12}>
          {text('contactNumber', false, t('auth.signup.contactNumberHelp'))}
        </Col>
        <Col xs={24} md={12}>
          {text('country')}
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="operatorId"
            label={labels.operatorId}
            rules={fieldRules(t, labels.operatorId, undefined, automation)}
          >
            <Select
              allowClear
              loading={operators.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              options={(operators.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
              notFoundContent={operators.isError ? t('errors.internal') : undefined}
            />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item
            name="address"
            label={labels.address}
            rules={fieldRules(t, labels.address, shape.address, false)}
          >
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start">{t('clients.profile.statusSection')}</Divider>
      <Row gutter={24}>
        <Col xs={24} md={8}>
          {choice('profileStatus', PROFILE_STATUSES, 'profileStatuses')}
        </Col>
        {isLead && (
          <>
            <Col xs={24} md={8}>
              {choice('leadStatus', LEAD_STATUSES, 'leadStatuses', false)}
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="reminderDate" label={labels.reminderDate} {...dayProps}>
                <DatePicker style={{ width: '100%' }} format={DAY_PICKER_FORMAT[lang]} />
              </Form.Item>
            </Col>
          </>
        )}
      </Row>

      <Divider titlePlacement="start">{t('clients.profile.uploadSection')}</Divider>
      <Row gutter={24}>
        <Col xs={24} md={8}>
          {choice('invoiceUploadMethod', UPLOAD_METHODS, 'uploadMethods')}
        </Col>
        {automation && (
          <>
            <Col xs={24} md={16}>
              {text('portalUrl', true, t('clients.profile.portalUrlHelp'))}
            </Col>
            <Col xs={24} md={12}>
              {text('portalUsername', true)}
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="portalPassword"
                label={labels.portalPassword}
                rules={fieldRules(t, labels.portalPassword, shape.portalPassword, !storedPassword)}
                extra={storedPassword ? t('clients.profile.passwordKept') : undefined}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          </>
        )}
      </Row>

      <Flex gap={8} justify="end">
        {onCancel && <Button onClick={onCancel}>{t('common.cancel')}</Button>}
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="client-profile-save">
          {creating ? t('clients.add.submit') : t('common.save')}
        </Button>
      </Flex>
    </Form>
  );
}
