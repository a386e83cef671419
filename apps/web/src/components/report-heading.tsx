import type { ReactNode } from 'react';
import { Button, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { PageHeading } from './page-heading';
import { useReportExport } from '../lib/use-report-export';

/**
 * A report's heading with its Excel export button (disabled while there is nothing to export),
 * and the report's help line below it. `exportRequest` downloads the workbook of the filters.
 */
export function ReportHeading({
  title,
  exportLabel,
  exportRequest,
  disabled,
  testId,
  help,
}: {
  title: string;
  exportLabel: string;
  exportRequest: () => Promise<void>;
  disabled: boolean;
  testId: string;
  help: ReactNode;
}) {
  const exportFile = useReportExport(exportRequest);
  return (
    <>
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
      <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>
    </>
  );
}
