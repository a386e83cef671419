import { useEffect, useState } from 'react';
import { Badge, Button, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { alertsPath, hasPermission } from '@kulu/shared';
import type { AlertCount } from '@kulu/shared';
import { getToken } from '../../lib/session';
import type { Session } from '../../lib/storage';
import { followAlertCount } from './alert-events';
import { ALERT_COUNT_KEY, alertCountQuery, BELL_POLL_MS } from './api';

/**
 * The header's bell: open alerts the user sees, a click opens the Alerts page. The count is pushed
 * (GET /api/alerts/events, issue 37 item 14); while no stream is open it is polled.
 */
export function AlertBell({ session }: { session: Session }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allowed = hasPermission(session.acessPermissions, 'alerts');
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  const count = useQuery({
    ...alertCountQuery(),
    enabled: allowed,
    refetchInterval: live ? false : BELL_POLL_MS,
  });
  useEffect(() => {
    if (!allowed) return;
    // A new token (another sign-in) opens a new stream; signing out ends it (the bell unmounts).
    const stop = new AbortController();
    void followAlertCount({
      shown: () => queryClient.getQueryData<AlertCount>(ALERT_COUNT_KEY),
      onCount: (c) => queryClient.setQueryData(ALERT_COUNT_KEY, c),
      onLive: setLive,
      getToken,
      signal: stop.signal,
    });
    return () => stop.abort();
  }, [allowed, session.token, queryClient]);
  if (!allowed) return null;
  const open = count.data?.open ?? 0;
  const label = t('alerts.bell', { count: open });
  return (
    <Tooltip title={label}>
      <Badge count={open} overflowCount={99} size="small" data-testid="alert-bell-count">
        <Button
          type="text"
          shape="circle"
          icon={<BellOutlined />}
          aria-label={label}
          onClick={() => void navigate(alertsPath(session.basePath || '/company'))}
          data-testid="alert-bell"
        />
      </Badge>
    </Tooltip>
  );
}
