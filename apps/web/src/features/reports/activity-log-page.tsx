import { DatePicker, Flex, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  ACTIVITY_ACTION_LABELS,
  ACTIVITY_AREA_LABELS,
  ACTIVITY_ENTITY_LABELS,
  ACTIVITY_LOG_SORTABLE,
  activityLabel,
  businessDateTime,
  type ActivityLogEntry,
  type ActivityLogSortKey,
} from '@kulu/shared';
import { FilterField, SelectField } from '../../components/filter-fields';
import type { PagedColumn } from '../../components/paged-table';
import { PagedReport } from '../../components/paged-report';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { activityLogOptionsQuery, activityLogQuery, exportActivityLog, type ActivityLogParams } from './api';
import { DAY_PICKER_FORMAT, NONE, orNone } from '../../lib/format';
import './texts';

const SORT: SortSpec<ActivityLogSortKey> = {
  sortable: ACTIVITY_LOG_SORTABLE,
  defaultSort: 'at',
  defaultOrder: 'desc',
};

interface Filters {
  userId?: number;
  clientId?: number;
  area?: string;
  days?: [Dayjs, Dayjs] | null;
}

const ACTION_COLORS: Record<string, string> = {
  create: 'green',
  update: 'blue',
  delete: 'red',
  terminate: 'red',
  deactivate: 'orange',
  deny: 'orange',
};

const shown = (v: unknown) =>
  v === undefined ? '' : v === null ? NONE : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The fields of an entry that differ between before and after (every field of a create or delete). */
function changes(e: ActivityLogEntry): Array<{ field: string; before: string; after: string }> {
  const b = (e.before && typeof e.before === 'object' ? e.before : {}) as Record<string, unknown>;
  const a = (e.after && typeof e.after === 'object' ? e.after : {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((f) => JSON.stringify(b[f]) !== JSON.stringify(a[f]))
    .map((field) => ({
      field,
      before: e.before == null ? '' : shown(b[field]),
      after: e.after == null ? '' : shown(a[field]),
    }));
}

/**
 * Activity Log (issue 12, spec §2 admin reports): who changed what and when across the product,
 * filtered by user, client, area and days; each row opens on the fields that changed. The Excel
 * export holds exactly the entries the filters show.
 */
export function ActivityLogPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { state, patch, paging, tableOf } = usePagedState<ActivityLogSortKey, Filters>(SORT, {});
  const options = useQuery(activityLogOptionsQuery());
  const params: ActivityLogParams = {
    ...paging,
    userId: state.userId,
    clientId: state.clientId,
    area: state.area,
    from: state.days?.[0].format('YYYY-MM-DD'),
    to: state.days?.[1].format('YYYY-MM-DD'),
  };
  const list = useQuery(activityLogQuery(params));
  const filtered = Boolean(state.userId || state.clientId || state.area || state.days);
  // In words from packages/shared, as the export writes them (issue 37 item 19).
  const areaLabel = (a: string) => activityLabel(ACTIVITY_AREA_LABELS, a, lang);
  const actionLabel = (a: string) => activityLabel(ACTIVITY_ACTION_LABELS, a, lang);

  const columns: PagedColumn<ActivityLogEntry>[] = [
    {
      key: 'at',
      dataIndex: 'at',
      title: t('reports.activityLog.at'),
      width: 190,
      render: (v: string) => businessDateTime(v, lang),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'user',
      title: t('reports.activityLog.user'),
      render: (_v, r) =>
        r.userName ? (
          <Flex vertical>
            <span>{r.userName}</span>
            <Typography.Text type="secondary">{r.userEmail}</Typography.Text>
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('reports.activityLog.system')}</Typography.Text>
        ),
    },
    {
      key: 'client',
      dataIndex: 'clientName',
      title: t('reports.activityLog.client'),
      render: orNone,
    },
    {
      key: 'area',
      dataIndex: 'area',
      title: t('reports.activityLog.area'),
      render: (v: string) => areaLabel(v),
    },
    {
      key: 'action',
      dataIndex: 'action',
      title: t('reports.activityLog.action'),
      render: (v: string) => <Tag color={ACTION_COLORS[v] ?? 'default'}>{actionLabel(v)}</Tag>,
    },
    {
      key: 'entity',
      title: t('reports.activityLog.entity'),
      // The thing in words (the API names it); its kind in words beneath (a master's title), never
      // a bare `entity #id` or a code.
      render: (_v, r) => {
        const kind = Object.hasOwn(ACTIVITY_ENTITY_LABELS, r.entity)
          ? ACTIVITY_ENTITY_LABELS[r.entity]![lang]
          : t(`masters.titles.${r.entity}`, { defaultValue: '' });
        return r.entityLabel ? (
          <Flex vertical data-testid="activity-log-entity">
            <span>{r.entityLabel}</span>
            {kind && <Typography.Text type="secondary">{kind}</Typography.Text>}
          </Flex>
        ) : (
          kind || r.entity
        );
      },
    },
  ];

  const totals = list.data?.totals;

  return (
    <PagedReport<ActivityLogEntry, ActivityLogSortKey>
      testId="activity-log"
      title={t('menu.reports.activityLog')}
      texts="reports.activityLog"
      exportRequest={() => exportActivityLog(params)}
      {...tableOf(list)}
      columns={columns}
      rowKey="id"
      emptyText={filtered ? t('reports.activityLog.noMatches') : t('reports.activityLog.empty')}
      toolbar={
        <Flex gap={12} wrap align="center" justify="space-between" style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap>
            <SelectField<number>
              label={t('reports.activityLog.user')}
              placeholder={t('reports.activityLog.allUsers')}
              minWidth={240}
              search
              value={state.userId}
              onChange={(v) => patch({ userId: v })}
              loading={options.isLoading}
              options={(options.data?.users ?? []).map((u) => ({
                value: u.id,
                label: `${u.name} (${u.email})`,
              }))}
              testId="activity-log-user"
            />
            <SelectField<number>
              label={t('reports.activityLog.client')}
              placeholder={t('reports.activityLog.allClients')}
              minWidth={220}
              search
              value={state.clientId}
              onChange={(v) => patch({ clientId: v })}
              loading={options.isLoading}
              options={(options.data?.clients ?? []).map((c) => ({ value: c.id, label: c.name }))}
              testId="activity-log-client"
            />
            <SelectField<string>
              label={t('reports.activityLog.area')}
              placeholder={t('reports.activityLog.allAreas')}
              value={state.area}
              onChange={(v) => patch({ area: v })}
              options={(options.data?.areas ?? []).map((a) => ({ value: a, label: areaLabel(a) }))}
              testId="activity-log-area"
            />
            <FilterField label={t('reports.activityLog.period')}>
              <DatePicker.RangePicker
                value={state.days ?? null}
                onChange={(v) => patch({ days: v?.[0] && v[1] ? [v[0], v[1]] : null })}
                placeholder={[t('reports.activityLog.from'), t('reports.activityLog.to')]}
                format={DAY_PICKER_FORMAT[lang]}
                data-testid="activity-log-days"
              />
            </FilterField>
          </Flex>
          {totals && (
            <Typography.Text type="secondary" data-testid="activity-log-totals">
              {t('reports.activityLog.totals', totals)}
            </Typography.Text>
          )}
        </Flex>
      }
      expandable={{
        expandedRowRender: (r) => {
          const rows = changes(r);
          return rows.length ? (
            <Table
              size="small"
              pagination={false}
              rowKey="field"
              dataSource={rows}
              columns={[
                { key: 'field', dataIndex: 'field', title: t('reports.activityLog.field'), width: 200 },
                { key: 'before', dataIndex: 'before', title: t('reports.activityLog.before') },
                { key: 'after', dataIndex: 'after', title: t('reports.activityLog.after') },
              ]}
              data-testid="activity-log-changes"
            />
          ) : (
            <Typography.Text type="secondary">{t('reports.activityLog.noDetails')}</Typography.Text>
          );
        },
      }}
    />
  );
}
