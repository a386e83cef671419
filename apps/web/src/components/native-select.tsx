import type { SelectHTMLAttributes } from 'react';

interface Option {
  value: number | string;
  label: string;
}

interface Props extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> {
  options: readonly Option[];
  placeholder: string;
  value?: number | string;
  onChange?: (value: number | string | undefined) => void;
  numeric?: boolean;
}

/**
 * A native select styled like antd's inputs, for the login page, which must stay light
 * (antd's Select with its virtual list and popup machinery is about 25 KB gzip more).
 * The first option is the placeholder and means "none". Works as an antd Form control.
 */
export function NativeSelect({ options, placeholder, value, onChange, numeric, className, ...rest }: Props) {
  return (
    <select
      {...rest}
      className={['native-select', className].filter(Boolean).join(' ')}
      value={value ?? ''}
      data-empty={value === undefined || value === ''}
      onChange={(e) => {
        const raw = e.target.value;
        onChange?.(raw === '' ? undefined : numeric ? Number(raw) : raw);
      }}
    >
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
