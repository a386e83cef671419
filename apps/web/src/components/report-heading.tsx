import type { ReactNode } from 'react';
import { Typography } from 'antd';
import { ExportButton } from './export-button';
import { PageHeading } from './page-heading';

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
  return (
    <>
      <PageHeading
        title={title}
        extra={
          <ExportButton request={exportRequest} label={exportLabel} testId={testId} disabled={disabled} />
        }
      />
      <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>
    </>
  );
}
