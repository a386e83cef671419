import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldRules, matchRule } from '../lib/form-rules';

/**
 * The antd form item that confirms a new password (`confirmPassword`): required, and it must
 * repeat the form's field `of` (checked again when that one changes).
 */
export function ConfirmPasswordItem({ of, label }: { of: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="confirmPassword"
      label={label}
      dependencies={[of]}
      rules={[...fieldRules(t, label), matchRule(t, of)]}
    >
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
}
