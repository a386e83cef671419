import type { ReactNode } from 'react';
import { Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useDownload } from '../lib/use-download';

/**
 * A report's or list's Excel export: `request` downloads the workbook of what the filters show; the
 * button is loading meanwhile, and a failure is shown in the user's language.
 */
export function ExportButton({
  request,
  label,
  testId,
  disabled,
  icon = <DownloadOutlined />,
}: {
  request: () => Promise<void>;
  label: string;
  testId: string;
  disabled?: boolean;
  icon?: ReactNode;
}) {
  const file = useDownload<true>();
  return (
    <Button
      icon={icon}
      loading={file.busy !== null}
      disabled={disabled}
      onClick={() => file.run(true, request)}
      data-testid={testId}
    >
      {label}
    </Button>
  );
}
