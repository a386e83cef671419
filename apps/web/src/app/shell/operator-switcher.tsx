import { App, Select } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TokenResponse } from '@kulu/shared';
import { api } from '../../lib/api';
import { errorText } from '../../lib/form-rules';
import { startSession } from '../../lib/session';
import type { Session } from '../../lib/storage';

/** Switches the operator scope: a new token for that operator replaces the session. */
export function OperatorSwitcher({ session }: { session: Session }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const switchOperator = useMutation({
    mutationFn: (operatorId: number) => api.post<TokenResponse>('/api/session/operator', { operatorId }),
    onSuccess: async (res) => {
      startSession(res);
      await queryClient.invalidateQueries();
      void message.success(t('shell.header.operatorSwitched', { name: res.loggedInOperatorName ?? '' }));
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  if (session.operators.length === 0) return null;
  return (
    <Select
      className="operator-switcher"
      aria-label={t('shell.header.operator')}
      value={session.loggedInOperatorID ?? undefined}
      placeholder={t('shell.header.operator')}
      options={session.operators.map((o) => ({ value: o.id, label: o.name }))}
      loading={switchOperator.isPending}
      disabled={switchOperator.isPending}
      onChange={(id: number) => switchOperator.mutate(id)}
      popupMatchSelectWidth={false}
      data-testid="operator-switcher"
    />
  );
}
