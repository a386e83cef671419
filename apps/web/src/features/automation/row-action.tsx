import type { ReactNode } from 'react';
import { App, Button } from 'antd';
import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/form-rules';
import { AUTOMATION_KEY } from './api';

/**
 * An automation action on one row by its id (retry a failed fetch, run a client's fetches now):
 * `done` says what the answer queued, the automation lists refresh, a failure is said.
 */
export function useRowAction<R>(mutationFn: (id: number) => Promise<R>, done: (res: R) => string) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (res) => {
      void message.success(done(res));
      void queryClient.invalidateQueries({ queryKey: AUTOMATION_KEY });
    },
    onError: (err) => void message.error(errorText(t, err)),
  });
}

/** The row's button of such an action, loading while it runs for this row. */
export function RowActionButton<R>({
  action,
  id,
  icon,
  testId,
  children,
}: {
  action: UseMutationResult<R, unknown, number>;
  id: number;
  icon: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Button
      size="small"
      icon={icon}
      loading={action.isPending && action.variables === id}
      onClick={() => action.mutate(id)}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
