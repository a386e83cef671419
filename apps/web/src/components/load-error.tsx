import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/form-rules';

/** What a failed query shows: what could not be loaded, why (in the user's language), and a retry. */
export function LoadError({
  title,
  query,
  retryLabel,
  smallButton,
  testId,
}: {
  title: string;
  query: { error: unknown; refetch: () => unknown };
  /** The retry button's text (default: "Retry"). */
  retryLabel?: string;
  smallButton?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={title}
      description={errorText(t, query.error)}
      action={
        <Button size={smallButton ? 'small' : undefined} onClick={() => void query.refetch()}>
          {retryLabel ?? t('common.retry')}
        </Button>
      }
      data-testid={testId}
    />
  );
}
