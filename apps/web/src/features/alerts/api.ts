import { queryOptions } from '@tanstack/react-query';
import type {
  AlertAcknowledge,
  AlertCount,
  AlertExportQuery,
  AlertList,
  AlertListQuery,
  AlertRules,
  AlertRulesUpdate,
  Lang,
} from '@kulu/shared';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { shownQuery } from '../../lib/shown-query';

/** The alerts' API calls (issue 26). */
export const ALERTS_KEY = ['alerts'] as const;

/** The bell's open count (polled, and pushed: alert-events.ts). */
export const ALERT_COUNT_KEY = [...ALERTS_KEY, 'count'] as const;

/** How often the header's bell asks for the open count while no push stream is open. */
export const BELL_POLL_MS = 60_000;

export const alertsQuery = (params: AlertListQuery, lang: Lang) =>
  shownQuery<AlertList>([...ALERTS_KEY, 'list', lang, params], '/api/alerts', { ...params });

export const alertCountQuery = () =>
  queryOptions({
    queryKey: ALERT_COUNT_KEY,
    queryFn: ({ signal }) => api.get<AlertCount>('/api/alerts/count', { signal }),
    refetchInterval: BELL_POLL_MS,
  });

export const acknowledgeAlerts = (body: AlertAcknowledge) =>
  api.post<{ acknowledged: number }>('/api/alerts/acknowledge', body);

export function exportAlerts(q: AlertExportQuery): Promise<void> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null) params.set(k, String(v));
  const qs = params.toString();
  return downloadFile(`/api/alerts/export${qs ? `?${qs}` : ''}`, 'alerts.xlsx');
}

const clientQuery = (clientId: number | undefined) => (clientId === undefined ? {} : { clientId });

export const alertRulesQuery = (clientId: number | undefined, enabled = true) =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'rules', clientId ?? null],
    queryFn: ({ signal }) =>
      api.get<AlertRules>('/api/alerts/rules', { query: clientQuery(clientId), signal }),
    enabled,
  });

/** All rules in one PUT; the client travels in the body. */
export const saveAlertRules = (clientId: number | undefined, rules: AlertRulesUpdate['rules']) =>
  api.put<AlertRules>('/api/alerts/rules', { ...clientQuery(clientId), rules });
