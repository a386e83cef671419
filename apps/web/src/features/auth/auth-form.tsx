import {
  useState,
  type FormEvent,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  EyeInvisibleOutlined,
  EyeOutlined,
  MailOutlined,
} from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PUBLIC_ROUTES } from '@kulu/shared';

/**
 * The forms of the public pages (login, forgot and reset password, activation) are plain elements
 * styled by the theme's CSS variables (app.css `.auth-field`, `.auth-alert`), not antd's Form, Input
 * and Alert: those, with the Tooltip a Form.Item label may open, were about 50 KB gzip of the login
 * page's JavaScript (issue 25). They keep antd's ways: the input's id is the field's name, a field's message shows once
 * it is changed or the form is submitted, Enter submits, and the message is the shared one.
 */

/** The message of a field's value, given all values (a confirmation compares with another); none when valid. */
export type FieldCheck<K extends string> = (value: string, values: Record<K, string>) => string | undefined;

/**
 * A form's values and messages: `labels` name each field (its label, and the name its messages
 * use), `checks` give each field's message.
 */
export function useAuthForm<K extends string>(labels: Record<K, string>, checks: Record<K, FieldCheck<K>>) {
  const names = Object.keys(checks) as K[];
  const [values, setValues] = useState(
    () => Object.fromEntries(names.map((n) => [n, ''])) as Record<K, string>,
  );
  // The fields whose message shows: changed, or all after a submit. Messages are worked out when
  // shown, so they follow the language and the fields they depend on.
  const [shown, setShown] = useState<ReadonlySet<K>>(() => new Set());
  const errorOf = (name: K) => (shown.has(name) ? checks[name](values[name], values) : undefined);

  const field = (name: K) => ({
    id: name,
    name,
    label: labels[name],
    value: values[name],
    error: errorOf(name),
    onChange: (e: { target: { value: string } }) => {
      const value = e.target.value;
      setValues((v) => ({ ...v, [name]: value }));
      setShown((s) => (s.has(name) ? s : new Set(s).add(name)));
    },
  });

  /** The submit handler: shows every message and focuses the first wrong field, else calls `onValid`. */
  const handleSubmit = (onValid: (values: Record<K, string>) => void) => (e: FormEvent) => {
    e.preventDefault();
    setShown(new Set(names));
    const wrong = names.find((n) => checks[n](values[n], values) !== undefined);
    if (wrong) document.getElementById(wrong)?.focus();
    else onValid(values);
  };

  return { values, field, handleSubmit };
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'> {
  id: string;
  label: string;
  error?: string;
  /** An icon before the value. */
  prefix?: ReactNode;
}

/** A labelled input with its message below; a password input has a show/hide toggle. */
export function AuthField({
  id,
  label,
  error,
  prefix,
  type = 'text',
  required = true,
  ...input
}: FieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const password = type === 'password';
  const helpId = `${id}_help`;
  return (
    <div className="auth-field">
      <label htmlFor={id} className="auth-field-label">
        {label}
      </label>
      <span className="auth-input" data-invalid={error ? true : undefined}>
        {prefix && (
          <span className="auth-input-prefix" aria-hidden>
            {prefix}
          </span>
        )}
        <input
          {...input}
          id={id}
          type={password && visible ? 'text' : type}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? helpId : undefined}
        />
        {password && (
          // Out of the tab order, as antd's eye icon was: Tab goes from field to field.
          <button
            type="button"
            className="auth-input-toggle"
            tabIndex={-1}
            aria-label={t(visible ? 'auth.password.hide' : 'auth.password.show')}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
          </button>
        )}
      </span>
      <div id={helpId} className="auth-field-help" role="alert">
        {error}
      </div>
    </div>
  );
}

/** The email a public form starts with (login, forgot password): its icon, the email keyboard, focused. */
export function EmailField(props: Omit<FieldProps, 'type' | 'prefix'>) {
  return <AuthField {...props} prefix={<MailOutlined />} type="email" autoFocus />;
}

const ALERT_ICONS = {
  success: <CheckCircleFilled />,
  warning: <ExclamationCircleFilled />,
  error: <CloseCircleFilled />,
};

interface AlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  type: keyof typeof ALERT_ICONS;
  title: ReactNode;
}

/** A message above the form, as antd's Alert with its icon shows it. */
export function AuthAlert({ type, title, ...rest }: AlertProps) {
  return (
    <div {...rest} className="auth-alert" data-type={type} role="alert">
      <span className="auth-alert-icon" aria-hidden>
        {ALERT_ICONS[type]}
      </span>
      <span>{title}</span>
    </div>
  );
}

/** A public page's title and the line below it. */
export function AuthHeading({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <>
      <h1 className="auth-title">{title}</h1>
      <p className="auth-subtitle">{subtitle}</p>
    </>
  );
}

/** The form's submit button: primary, large, the form's width, spinning while its request runs. */
export function AuthSubmit({
  loading,
  children,
  testId,
}: {
  loading: boolean;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Button type="primary" htmlType="submit" size="large" block loading={loading} data-testid={testId}>
      {children}
    </Button>
  );
}

/** The footnote under a form that leads back to the login page. */
export function BackToLogin() {
  const { t } = useTranslation();
  return (
    <p className="auth-footnote">
      <Link to={PUBLIC_ROUTES.login}>{t('auth.backToLogin')}</Link>
    </p>
  );
}
