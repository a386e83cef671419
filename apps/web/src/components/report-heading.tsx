import { Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { PageHeading } from './page-heading';
import type { useReportExport } from '../lib/use-report-export';

/** A report's heading with its Excel export button (disabled while there is nothing to export). */
export function ReportHeading({
  title,
  exportLabel,
  exportFile,
  disabled,
  testId,
}: {
  title: string;
  exportLabel: string;
  exportFile: ReturnType<typeof useReportExport>;
  disabled: boolean;
  testId: string;
}) {
  return (
    <PageHeading
      title={title}
      extra={
        <Button
          icon={<DownloadOutlined />}
          loading={exportFile.exporting}
          disabled={disabled}
          onClick={exportFile.run}
          data-testid={testId}
        >
          {exportLabel}
        </Button>
      }
    />
  );
}
