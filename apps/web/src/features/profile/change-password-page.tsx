import { App, Button, Card, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { changePasswordSchema, tokenResponseSchema, type ChangePasswordRequest } from '@kulu/shared';
import { ConfirmPasswordItem } from '../../components/confirm-password-item';
import { PageHeading } from '../../components/page-heading';
import { PasswordRules } from '../../components/password-rules';
import { fieldRules } from '../../lib/form-rules';
import { startSession } from '../../lib/session';
import { useSaveError } from '../../lib/use-save-error';
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
    onError: useSaveError(form, labels, { oldPasswordWrong: 'oldPassword' }),
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
          <ConfirmPasswordItem of="newPassword" label={labels.confirmPassword} />
          <PasswordRules value={newPassword} />
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('profile.password.submit')}
          </Button>
        </Form>
      </Card>
    </>
  );
}
