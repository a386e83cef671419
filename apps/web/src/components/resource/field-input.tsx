import { Button, Checkbox, Input, Select, Upload, type SelectProps } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { allMenuRoutes, type MasterField } from '@kulu/shared';
import { amountSuffix, type FormValues } from './form-values';
import { RefSelect } from './ref-select';

interface Props {
  field: MasterField;
  label: string;
  values: FormValues;
  value?: unknown;
  onChange?: (value: unknown) => void;
  id?: string;
  /** `data-testid` of the control (default `field-<key>`). */
  testId?: string;
}

/** The control of one declared form field, by its type. */
export function FieldInput({
  field,
  label,
  values,
  value,
  onChange,
  id,
  testId = `field-${field.key}`,
}: Props) {
  const { t } = useTranslation();
  /** A choice of the field's type's options (an enum's, the menu's pages). */
  const choice = (props: Pick<SelectProps, 'options' | 'allowClear' | 'showSearch'>) => (
    <Select
      id={id}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v)}
      placeholder={t('masters.ui.select')}
      {...props}
      data-testid={testId}
    />
  );
  switch (field.type) {
    case 'boolean':
      return (
        <Checkbox
          id={id}
          checked={value === true}
          onChange={(e) => onChange?.(e.target.checked)}
          data-testid={testId}
        >
          {label}
        </Checkbox>
      );
    case 'enum':
      return choice({
        allowClear: !field.required,
        options: (field.options ?? []).map((o) => ({ value: o.value, label: t(o.labelKey) })),
      });
    case 'ref': {
      const parent = field.dependsOn ? values[field.dependsOn] : undefined;
      const waiting = Boolean(field.dependsOn) && (parent === undefined || parent === null || parent === '');
      return (
        <RefSelect
          id={id}
          url={field.optionsUrl ?? ''}
          params={field.dependsOn && !waiting ? { [field.dependsOn]: parent as number } : undefined}
          value={value as number | undefined}
          onChange={onChange}
          allowClear={!field.required}
          disabled={waiting}
          data-testid={testId}
        />
      );
    }
    case 'page':
      return choice({
        showSearch: { optionFilterProp: 'label' },
        options: allMenuRoutes().map((r) => ({ value: r.path, label: `${t(r.titleKey)} (${r.path})` })),
      });
    case 'file':
      return (
        <Upload
          accept={field.accept}
          maxCount={1}
          beforeUpload={() => false}
          fileList={Array.isArray(value) ? value : []}
          onChange={(info) => onChange?.(info.fileList.slice(-1))}
          data-testid={testId}
        >
          <Button icon={<UploadOutlined />}>{t('masters.ui.chooseFile')}</Button>
        </Upload>
      );
    default: {
      const numeric = field.type === 'integer' || field.type === 'money' || field.type === 'percent';
      return (
        <Input
          id={id}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(e) => onChange?.(e.target.value)}
          maxLength={field.maxLength}
          inputMode={
            field.type === 'integer'
              ? 'numeric'
              : numeric
                ? 'decimal'
                : field.type === 'phone'
                  ? 'tel'
                  : undefined
          }
          type={field.type === 'phone' ? 'tel' : 'text'}
          suffix={amountSuffix(field)}
          data-testid={testId}
        />
      );
    }
  }
}
