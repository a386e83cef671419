import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MasterField, MasterFilter, MasterResource } from '@kulu/shared';
import type { ListState } from './list-query';
import { RefSelect } from './ref-select';

/** What a screen changes about one declared filter. */
export interface FilterOverride {
  /** The choices (default: the field's or column's declared options). */
  options?: { value: string; label: string }[];
  /** The placeholder (default: the field's label), e.g. "All statuses". */
  placeholder?: string;
  testId?: string;
}

interface Props {
  resource: MasterResource;
  overrides?: Record<string, FilterOverride>;
  filters: ListState['filters'];
  onChange: (key: string, value: string | number | boolean | undefined) => void;
}

/** The field that tells a filter's label and choices (same key; `…Id` filters are ref fields). */
const fieldOf = (resource: MasterResource, key: string): MasterField | undefined =>
  resource.fields.find((f) => f.key === key);

/** One select per declared filter of a resource: rows it points at, fixed choices or yes/no. */
export function ResourceFilters({ resource, overrides = {}, filters, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <>
      {Object.entries(resource.filters).map(([key, filter]: [string, MasterFilter]) => {
        const field = fieldOf(resource, key);
        const column = resource.columns.find((c) => c.key === key);
        const label = t(field?.labelKey ?? column?.labelKey ?? `masters.fields.${key}`);
        const override = overrides[key];
        const common = {
          placeholder: override?.placeholder ?? label,
          allowClear: true,
          style: { minWidth: 180 },
          'aria-label': label,
          'data-testid': override?.testId ?? `filter-${key}`,
        };
        // An id filter whose field has no declared choices is the screen's own business.
        if (filter.type === 'id' && !field?.optionsUrl && !(field?.options ?? column?.options)) return null;
        if (filter.type === 'id' && field?.optionsUrl) {
          return (
            <RefSelect
              key={key}
              {...common}
              url={field.optionsUrl}
              value={filters[key] as number | undefined}
              onChange={(v) => onChange(key, v)}
            />
          );
        }
        const options =
          override?.options ??
          (filter.type === 'boolean'
            ? [true, false].map((v) => ({ value: String(v), label: t(`masters.enums.boolean.${v}`) }))
            : (field?.options ?? column?.options ?? []).map((o) => ({
                value: String(o.value),
                label: t(o.labelKey),
              })));
        const current = filters[key];
        return (
          <Select
            key={key}
            {...common}
            value={current === undefined ? undefined : String(current)}
            onChange={(v: string | undefined) =>
              onChange(key, filter.type === 'id' && v !== undefined ? Number(v) : v)
            }
            options={options}
          />
        );
      })}
    </>
  );
}
