import type { CSSProperties } from 'react';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/form-rules';

/**
 * What a failed query shows: what could not be loaded, why (in the user's language), and a retry.
 * Without a `title` the reason is the title (a section that says nothing more of what failed).
 */
export function LoadError({
  title,
  query,
  retryLabel,
  smallButton,
  style,
  testId,
}: {
  title?: string;
  query: { error: unknown; refetch: () => unknown };
  /** The retry button's text (default: "Retry"). */
  retryLabel?: string;
  smallButton?: boolean;
  style?: CSSProperties;
  testId?: string;
}) {
  const { t } = useTranslation();
  const reason = errorText(t, query.error);
  return (
    <Alert
      style={style}
      type="error"
      showIcon
      title={title ?? reason}
      description={title === undefined ? undefined : reason}
      action={
        <Button size={smallButton ? 'small' : undefined} onClick={() => void query.refetch()}>
          {retryLabel ?? t('common.retry')}
        </Button>
      }
      data-testid={testId}
    />
  );
}
