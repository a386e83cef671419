import { App, Select } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TokenResponse } from '@kulu/shared';
import { api } from '../../lib/api';
import { errorText } from '../../lib/form-rules';
import { startSession } from '../../lib/session';
import type { Session } from '../../lib/storage';

/** The picker's value for "All operators" (the session's operator is then null). */
const ALL = 'all';

/**
 * Switches the operator scope: a new token for that operator (or for all of them) replaces the
 * session. Every query's key includes the session's operator (app/query-client.ts), so the open page
 * loads the new scope's answers as it re-renders.
 */
export function OperatorSwitcher({ session }: { session: Session }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const switchOperator = useMutation({
    mutationFn: (operatorId: number | null) =>
      api.post<TokenResponse>('/api/session/operator', { operatorId }),
    onSuccess: (res) => {
      startSession(res);
      void message.success(
        res.loggedInOperatorName == null
          ? t('shell.header.allOperatorsSwitched')
          : t('shell.header.operatorSwitched', { name: res.loggedInOperatorName }),
      );
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  if (session.operators.length === 0) return null;
  const several = session.operators.length > 1;
  const options = [
    ...(several ? [{ value: ALL, label: t('shell.header.allOperators') }] : []),
    ...session.operators.map((o) => ({ value: o.id, label: o.name })),
  ];
  return (
    <Select<number | typeof ALL>
      className="operator-switcher"
      aria-label={t('shell.header.operator')}
      value={session.loggedInOperatorID ?? (several ? ALL : undefined)}
      placeholder={t('shell.header.operator')}
      options={options}
      loading={switchOperator.isPending}
      disabled={switchOperator.isPending}
      onChange={(id) => switchOperator.mutate(id === ALL ? null : id)}
      popupMatchSelectWidth={false}
      data-testid="operator-switcher"
    />
  );
}
