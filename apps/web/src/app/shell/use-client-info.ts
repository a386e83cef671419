import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ClientInfo } from '@kulu/shared';
import { api } from '../../lib/api';
import { updateSession } from '../../lib/session';

/**
 * Refreshes the stored session from GET /api/Account/GetClientInfo when the shell opens: the
 * server decides permissions and the menu state; a stale or forged token ends here with a 401.
 */
export function useClientInfo(): void {
  const { data } = useQuery({
    queryKey: ['clientInfo'],
    queryFn: () => api.get<ClientInfo>('/api/Account/GetClientInfo'),
    staleTime: 5 * 60_000,
  });
  useEffect(() => {
    if (data) updateSession(data);
  }, [data]);
}
