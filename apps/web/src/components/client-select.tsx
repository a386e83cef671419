import { useEffect } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { clientOptionsQuery } from '../lib/organization-api';
import { clearable } from './clearable';

/** The client a provider user (admin, consultant) works on, searchable by name. */
export function ClientSelect({
  value,
  onChange,
  testId,
  placeholder,
  minWidth = 260,
  'aria-label': ariaLabel,
}: {
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  testId: string;
  /** What it shows before a client is chosen (default: choose a client). */
  placeholder?: string;
  minWidth?: number;
  /** The accessible name (the filter's label). */
  'aria-label'?: string;
}) {
  const { t } = useTranslation();
  const clients = useQuery(clientOptionsQuery());
  // `minWidth`, but never wider than its row (a phone).
  // A client remembered from another page that the user no longer sees (removed, or no longer
  // assigned to the consultant) is not kept as the choice.
  const unknown =
    value !== undefined && clients.data !== undefined && !clients.data.some((c) => c.id === value);
  useEffect(() => {
    if (unknown) onChange(undefined);
  }, [unknown, onChange]);
  return (
    <Select<number>
      showSearch={{ optionFilterProp: 'label' }}
      allowClear={clearable(t)}
      style={{ minWidth: `min(${minWidth}px, 100%)` }}
      placeholder={placeholder ?? t('dashboards.chooseClient')}
      loading={clients.isLoading}
      value={value}
      onChange={onChange}
      options={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
      data-testid={testId}
      aria-label={ariaLabel}
    />
  );
}
