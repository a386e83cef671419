import { App, Button, Card, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { changePasswordSchema, tokenResponseSchema, type ChangePasswordRequest } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { PasswordRules } from '../../components/password-rules';
import { ApiRequestError } from '../../lib/api-client';
import { errorText, fieldRules, matchRule } from '../../lib/form-rules';
import { startSession } from '../../lib/session';
import { changePassword } from './api';

const shape = changePasswordSchema.shape;

/** Change Password: old, new and confirmation (spec §5: must match; old must be right). */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ChangePasswordRequest>();
  const newPassword = Form.useWatch('newPassword', form);
  const labels = {
    oldPassword: t('auth.fields.oldPassword'),
    newPassword: t('auth.fields.newPassword'),
    confirmPassword: t('auth.fields.confirmPassword'),
  };
  const save = useMutation({
    mutationFn: changePassword,
    onSuccess: (res) => {
      // Keep this session alive with the new token (the old one is no longer valid).
      const fresh = tokenResponseSchema.safeParse(res);
      if (fresh.success) startSession(fresh.data);
      form.resetFields();
      void message.success(t('errors.passwordChanged'));
    },
    onError: (err) => {
      if (err instanceof ApiRequestError && err.code === 'oldPasswordWrong') {
        form.setFields([{ name: 'oldPassword', errors: [errorText(t, err)] }]);
      } else void message.error(errorText(t, err));
    },
  });

  return (
    <>
      <PageHeading title={t('pageTitle.changePassword')} />
      <Card style={{ maxWidth: 560 }}>
        <Form<ChangePasswordRequest> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Form.Item name="oldPassword" label={labels.oldPassword} rules={fieldRules(t, labels.oldPassword)}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="newPassword"
            label={labels.newPassword}
            rules={fieldRules(t, labels.newPassword, shape.newPassword)}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={labels.confirmPassword}
            dependencies={['newPassword']}
            rules={[...fieldRules(t, labels.confirmPassword), matchRule(t, 'newPassword')]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <PasswordRules value={newPassword} />
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('profile.password.submit')}
          </Button>
        </Form>
      </Card>
    </>
  );
}
