import { CheckCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_RULES } from '@kulu/shared';

/** The password policy of spec §5, ticked off live as the user types. */
export function PasswordRules({ value }: { value: string | undefined }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const password = value ?? '';
  return (
    <ul className="password-rules" aria-label={t('auth.password.rulesTitle')} data-testid="password-rules">
      {PASSWORD_RULES.map((rule) => {
        const ok = rule.test(password);
        return (
          <li key={rule.key} data-ok={ok}>
            {ok ? (
              <CheckCircleFilled style={{ color: token.colorSuccess }} />
            ) : (
              <MinusCircleOutlined style={{ color: token.colorTextQuaternary }} />
            )}
            <Typography.Text type={ok ? undefined : 'secondary'}>
              {t(`auth.password.rules.${rule.key}`)}
            </Typography.Text>
          </li>
        );
      })}
    </ul>
  );
}
