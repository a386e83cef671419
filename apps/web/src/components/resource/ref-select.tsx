import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { optionsQuery } from './api';

interface Props {
  url: string;
  params?: Record<string, string | number | undefined>;
  value?: number | null;
  onChange?: (value: number | undefined) => void;
  placeholder?: string;
  allowClear?: boolean;
  disabled?: boolean;
  id?: string;
  style?: React.CSSProperties;
  'data-testid'?: string;
}

/** A choice of another row, loaded from a declaration's optionsUrl (`[{id, name}]`). */
export function RefSelect({
  url,
  params,
  value,
  onChange,
  placeholder,
  allowClear,
  disabled,
  ...rest
}: Props) {
  const { t } = useTranslation();
  const options = useQuery({ ...optionsQuery(url, params), enabled: !disabled });
  return (
    <Select<number>
      {...rest}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? undefined)}
      placeholder={placeholder ?? t('masters.ui.select')}
      allowClear={allowClear}
      disabled={disabled}
      loading={options.isLoading}
      showSearch={{ optionFilterProp: 'label' }}
      options={(options.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
      notFoundContent={options.isError ? t('errors.internal') : undefined}
    />
  );
}
