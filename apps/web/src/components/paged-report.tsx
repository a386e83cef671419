import type { ReactNode } from 'react';
import { PagedTable, type PagedTableProps } from './paged-table';
import { ReportHeading } from './report-heading';

/**
 * A paged report page (portfolio, consultant billing, client contracts, activity log): the heading
 * with its Excel export and help line above the report's PagedTable. `testId` names the page
 * (`<testId>-page`), its export button (`<testId>-export`) and its table (`<testId>-table`).
 */
export function PagedReport<T extends object, S extends string>({
  testId,
  title,
  exportLabel,
  exportRequest,
  help,
  ...table
}: Omit<PagedTableProps<T, S>, 'testId'> & {
  testId: string;
  title: string;
  exportLabel: string;
  exportRequest: () => Promise<void>;
  help: ReactNode;
}) {
  return (
    <div data-testid={`${testId}-page`}>
      <ReportHeading
        title={title}
        exportLabel={exportLabel}
        exportRequest={exportRequest}
        disabled={!table.query.data?.total}
        testId={`${testId}-export`}
        help={help}
      />
      <PagedTable<T, S> {...table} testId={`${testId}-table`} />
    </div>
  );
}
