import { useTranslation } from 'react-i18next';
import { PagedTable, type PagedTableProps } from './paged-table';
import { ReportHeading } from './report-heading';

/**
 * A paged report page (portfolio, consultant billing, client contracts, activity log): the heading
 * with its Excel export and help line above the report's PagedTable. `testId` names the page
 * (`<testId>-page`), its export button (`<testId>-export`) and its table (`<testId>-table`);
 * `texts` is the key prefix of its `export`, `help` and (unless `emptyText` is given) `empty` texts.
 */
export function PagedReport<T extends object, S extends string>({
  testId,
  title,
  texts,
  exportRequest,
  emptyText,
  ...table
}: Omit<PagedTableProps<T, S>, 'testId' | 'emptyText'> & {
  testId: string;
  title: string;
  texts: string;
  exportRequest: () => Promise<void>;
  emptyText?: PagedTableProps<T, S>['emptyText'];
}) {
  const { t } = useTranslation();
  return (
    <div data-testid={`${testId}-page`}>
      <ReportHeading
        title={title}
        exportLabel={t(`${texts}.export`)}
        exportRequest={exportRequest}
        disabled={!table.query.data?.total}
        testId={`${testId}-export`}
        help={t(`${texts}.help`)}
      />
      <PagedTable<T, S> {...table} emptyText={emptyText ?? t(`${texts}.empty`)} testId={`${testId}-table`} />
    </div>
  );
}
