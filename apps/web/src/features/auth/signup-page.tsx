import { useState } from 'react';
import { Alert, Button, Col, Form, Input, Radio, Result, Row, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { LANGUAGE, PUBLIC_ROUTES, signupSchema, type SignupRequest } from '@kulu/shared';
import { ConfirmPasswordItem } from '../../components/confirm-password-item';
import { PasswordRules } from '../../components/password-rules';
import { ApiRequestError } from '../../lib/api-client';
import { applyFieldErrors, errorText, formFields } from '../../lib/form-rules';
import { currentLang } from '../../lib/i18n';
import { usePageTitle } from '../../lib/use-page-title';
import { signup } from './api';
import { AuthLayout } from './auth-layout';

type SignupValues = Omit<SignupRequest, 'languageID'> & { confirmPassword: string };

/**
 * Which field a registration conflict belongs to. A taken email is never told (the API answers
 * success and mails the address's owner), so only the company's public facts appear here.
 */
const CONFLICT_FIELD: Record<string, keyof SignupValues> = {
  companyNameInUse: 'companyName',
  businessIdInUse: 'businessId',
};

const shape = signupSchema.shape;

/** Sign up as a company or a consultant (spec §2). */
export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('auth.signup.title');
  const [form] = Form.useForm<SignupValues>();
  const password = Form.useWatch('password', form);
  const [done, setDone] = useState(false);

  const labels = {
    companyName: t('auth.fields.companyName'),
    businessId: t('auth.fields.businessId'),
    fullName: t('auth.fields.fullName'),
    email: t('auth.fields.email'),
    contactNumber: t('auth.fields.contactNumber'),
    address: t('auth.fields.address'),
    password: t('auth.fields.password'),
    confirmPassword: t('auth.fields.confirmPassword'),
  };

  const field = formFields(t, labels, shape);

  const register = useMutation({
    mutationFn: (v: SignupValues) =>
      signup({
        type: v.type,
        companyName: v.companyName,
        businessId: v.businessId,
        fullName: v.fullName,
        email: v.email,
        contactNumber: v.contactNumber,
        address: v.address ?? '',
        password: v.password,
        languageID: LANGUAGE[currentLang()],
      }),
    onSuccess: () => setDone(true),
    onError: (err) => {
      if (applyFieldErrors(form, err, t, labels)) return;
      const field = err instanceof ApiRequestError ? CONFLICT_FIELD[err.code] : undefined;
      if (field) form.setFields([{ name: field, errors: [errorText(t, err)] }]);
    },
  });

  if (done) {
    return (
      <AuthLayout>
        <Result
          status="success"
          title={t('auth.signup.doneTitle')}
          subTitle={t('errors.registered')}
          extra={
            <Button type="primary" onClick={() => navigate(PUBLIC_ROUTES.login)}>
              {t('auth.backToLogin')}
            </Button>
          }
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout wide>
      <Typography.Title level={2} style={{ marginBottom: 4 }}>
        {t('auth.signup.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('auth.signup.subtitle')}</Typography.Paragraph>
      {register.error && !(register.error instanceof ApiRequestError && register.error.status === 400) && (
        <Alert type="error" showIcon title={errorText(t, register.error)} style={{ marginBottom: 16 }} />
      )}
      <Form<SignupValues>
        form={form}
        layout="vertical"
        initialValues={{ type: 'company' }}
        onFinish={(v) => register.mutate(v)}
        scrollToFirstError
      >
        <Form.Item name="type" label={t('auth.signup.registerAs')}>
          <Radio.Group optionType="button" buttonStyle="solid">
            <Radio value="company">{t('auth.signup.company')}</Radio>
            <Radio value="consultant">{t('auth.signup.consultant')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={14}>
            <Form.Item {...field('companyName')}>
              <Input autoComplete="organization" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={10}>
            <Form.Item {...field('businessId')} tooltip={t('auth.signup.businessIdHelp')}>
              <Input placeholder="1234567-8" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item {...field('fullName')}>
              <Input autoComplete="name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item {...field('contactNumber')} extra={t('auth.signup.contactNumberHelp')}>
              <Input inputMode="numeric" autoComplete="tel" placeholder="0401234567" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item {...field('email')}>
              <Input type="email" autoComplete="email" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item {...field('address', false)}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} autoComplete="street-address" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item {...field('password')}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <ConfirmPasswordItem of="password" label={labels.confirmPassword} />
          </Col>
        </Row>
        <PasswordRules value={password} />
        <Button type="primary" htmlType="submit" block size="large" loading={register.isPending}>
          {t('auth.signup.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, textAlign: 'center' }}>
        {t('auth.signup.haveAccount')} <Link to={PUBLIC_ROUTES.login}>{t('auth.login.submit')}</Link>
      </Typography.Paragraph>
    </AuthLayout>
  );
}
