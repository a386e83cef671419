import { cloneElement, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { Card, DatePicker, Flex, Select, Typography, type GetProps } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { DASHBOARD_MAX_MONTHS } from '@kulu/shared';
import { clearable } from './clearable';

/**
 * The labelled filters of a filter bar (dashboards, reports, downloads, optimization, consultant
 * billing): a label beside its control, the period of months and the sub-company choice.
 */

/** While picking, months more than the API's longest period away from the first pick are off. */
export const tooLong = (d: Dayjs, from: Dayjs | undefined) =>
  !!from && Math.abs(d.diff(from, 'month')) >= DASHBOARD_MAX_MONTHS;

/** A filter bar: its filters side by side in a small card, wrapping on narrow screens. */
export function FilterBar({
  testId,
  title,
  style,
  children,
}: {
  testId?: string;
  title?: ReactNode;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <Card size="small" title={title} style={style}>
      <Flex gap={16} wrap align="center" data-testid={testId}>
        {children}
      </Flex>
    </Card>
  );
}

/**
 * A labelled filter in the filter bar. The visible label is also the control's accessible name
 * (`aria-label`, for screen readers and axe's `label` rule), unless `namesControl` is false because
 * the child is a group whose controls carry their own names.
 */
export function FilterField({
  label,
  children,
  namesControl = true,
}: {
  label: string;
  children: ReactElement<{ 'aria-label'?: string }>;
  namesControl?: boolean;
}) {
  return (
    <Flex align="center" gap={8} wrap>
      <Typography.Text strong>{label}</Typography.Text>
      {namesControl ? cloneElement(children, { 'aria-label': label }) : children}
    </Flex>
  );
}

/**
 * A range of months, at most the API's longest period, never cleared: `onChange` hears only a
 * whole range (the period filter, a detail page's own period).
 */
export function MonthRangePicker({
  value,
  onChange,
  testId,
  ...rest
}: {
  value: [Dayjs, Dayjs] | null;
  onChange: (period: [Dayjs, Dayjs]) => void;
  testId: string;
} & Pick<GetProps<typeof DatePicker.RangePicker>, 'size' | 'placeholder' | 'disabled' | 'style'>) {
  return (
    <DatePicker.RangePicker
      {...rest}
      picker="month"
      allowClear={false}
      value={value}
      onChange={(v) => {
        if (v?.[0] && v[1]) onChange([v[0], v[1]]);
      }}
      disabledDate={(d, info) => tooLong(d, info.from)}
      data-testid={testId}
    />
  );
}

/** The period filter: a range of months, at most the API's longest period. */
export function PeriodField({
  value,
  onChange,
  disabled,
  testId,
}: {
  value: [Dayjs, Dayjs] | null;
  onChange: (period: [Dayjs, Dayjs]) => void;
  disabled: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <FilterField label={t('dashboards.period')}>
      <MonthRangePicker
        value={value}
        onChange={onChange}
        placeholder={[t('dashboards.from'), t('dashboards.to')]}
        disabled={disabled}
        testId={testId}
      />
    </FilterField>
  );
}

/** A filter of one month (`YYYY-MM`), never empty. */
export function MonthField({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (month: string) => void;
  testId: string;
}) {
  return (
    <FilterField label={label}>
      <DatePicker
        picker="month"
        allowClear={false}
        value={dayjs(`${value}-01`)}
        onChange={(d) => d && onChange(d.format('YYYY-MM'))}
        data-testid={testId}
      />
    </FilterField>
  );
}

/** The sub-company filter, shown only when there is more than one to choose from. */
export function SubCompanyField({
  options,
  value,
  onChange,
  disabled,
  testId,
}: {
  options: ReadonlyArray<{ id: number; name: string }>;
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  disabled: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  if (options.length <= 1) return null;
  return (
    <SelectField<number>
      label={t('dashboards.subCompany')}
      placeholder={t('dashboards.allSubCompanies')}
      value={value}
      onChange={onChange}
      options={options.map((s) => ({ value: s.id, label: s.name }))}
      disabled={disabled}
      testId={testId}
    />
  );
}

/**
 * A labelled choice of the filter bar, cleared to show all (`placeholder` says so, e.g. "All
 * types"); `search` lets the user type to narrow a long list.
 */
export function SelectField<V extends string | number>({
  label,
  placeholder,
  value,
  onChange,
  options,
  minWidth = 200,
  search,
  loading,
  disabled,
  testId,
}: {
  label: string;
  placeholder: string;
  value: V | undefined;
  onChange: (value: V | undefined) => void;
  options: { value: V; label: ReactNode }[];
  minWidth?: number;
  search?: boolean;
  loading?: boolean;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <FilterField label={label}>
      <Select<V>
        allowClear={clearable(t)}
        showSearch={search ? { optionFilterProp: 'label' } : undefined}
        style={{ minWidth }}
        placeholder={placeholder}
        value={value}
        onChange={onChange}
        options={options}
        loading={loading}
        disabled={disabled}
        data-testid={testId}
      />
    </FilterField>
  );
}
