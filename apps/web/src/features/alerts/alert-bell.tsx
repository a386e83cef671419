import { Badge, Button, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { alertsPath, hasPermission } from '@kulu/shared';
import type { Session } from '../../lib/storage';
import { alertCountQuery } from './api';

/** The header's bell: open alerts the user sees, a click opens the Alerts page. */
export function AlertBell({ session }: { session: Session }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allowed = hasPermission(session.acessPermissions, 'alerts');
  const count = useQuery({ ...alertCountQuery(), enabled: allowed });
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
