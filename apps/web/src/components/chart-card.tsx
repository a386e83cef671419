import { useState, type ReactNode } from 'react';
import { Card, Empty, Segmented, Table, type TableColumnsType } from 'antd';
import { BarChartOutlined, TableOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EChart, type ChartClick } from './echart';

/**
 * A dashboard chart with its table view (a toggle in the card's corner) and an empty state
 * when the period has no figures.
 */
export function ChartCard<Row extends object>({
  title,
  testId,
  option,
  rows,
  columns,
  rowKey,
  height,
  extra,
  emptyText,
  onChartClick,
  onRowClick,
}: {
  title: ReactNode;
  testId: string;
  option: object;
  rows: readonly Row[];
  columns: TableColumnsType<Row>;
  /**
   * What tells rows apart: a field (null in the row of no category, no cost center: 'none') or a
   * function of the row.
   */
  rowKey: (keyof Row & string) | ((row: Row) => string);
  height?: number;
  extra?: ReactNode;
  /** The empty state's text (default: no costs in this period). */
  emptyText?: ReactNode;
  /** Drill-down from a bar or slice. */
  onChartClick?: (click: ChartClick) => void;
  /** Drill-down from a row of the table view. */
  onRowClick?: (row: Row) => void;
}) {
  const { t } = useTranslation();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <Card
      title={title}
      data-testid={testId}
      extra={
        <>
          {extra}
          <Segmented<'chart' | 'table'>
            size="small"
            value={view}
            onChange={setView}
            options={[
              { value: 'chart', icon: <BarChartOutlined />, title: t('dashboards.chartView') },
              { value: 'table', icon: <TableOutlined />, title: t('dashboards.tableView') },
            ]}
            data-testid={`${testId}-view`}
          />
        </>
      }
    >
      {!rows.length ? (
        <Empty description={emptyText ?? t('dashboards.empty')} data-testid={`${testId}-empty`} />
      ) : view === 'chart' ? (
        <EChart option={option} height={height} testId={`${testId}-chart`} onClick={onChartClick} />
      ) : (
        <Table<Row>
          size="small"
          rowKey={typeof rowKey === 'function' ? rowKey : (row) => String(row[rowKey] ?? 'none')}
          columns={columns}
          dataSource={rows as Row[]}
          pagination={rows.length > 12 ? { pageSize: 12, showSizeChanger: false } : false}
          scroll={{ x: true }}
          onRow={
            onRowClick
              ? (row) => ({ onClick: () => onRowClick(row), style: { cursor: 'pointer' } })
              : undefined
          }
          data-testid={`${testId}-table`}
        />
      )}
    </Card>
  );
}
