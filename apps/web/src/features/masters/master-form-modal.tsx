import { useMemo } from 'react';
import { App, Col, Form, Row as GridRow, type ButtonProps } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Lang, MasterField, MasterResource } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { ApiRequestError } from '../../lib/api-client';
import { applyFieldErrors, errorText } from '../../lib/form-rules';
import { createRow, MASTERS_KEY, updateRow, uploadRow, type Row } from './api';
import { FieldInput } from './field-input';
import {
  fieldProblem,
  formFields,
  isVisible,
  toFormData,
  toFormValues,
  toPayload,
  type FormValues,
} from './form-values';

interface Props {
  resource: MasterResource;
  /** The row being edited; null adds a new one. */
  row: Row | null;
  open: boolean;
  onClose: () => void;
}

/** Where a 409 "already exists" shows besides the message: the resource's first text field. */
const uniqueFieldOf = (resource: MasterResource) =>
  resource.fields.find((f) => f.type === 'text' || f.type === 'phone')?.key;

/**
 * The add/edit dialog of any master: a form generated from the declaration's fields, checked
 * with the shared create schema ('{name} is required' / '{name} is invalid!', translated), the
 * server's field errors put back on the fields and its 409 answers shown in the user's language.
 */
export function MasterFormModal({ resource, row, open, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const watched = Form.useWatch([], form) as FormValues | undefined;
  const editing = row !== null;
  const fields = formFields(resource, editing);
  const labels = useMemo(
    () => Object.fromEntries(resource.fields.map((f) => [f.key, t(f.labelKey)])),
    [resource, t],
  );
  // Computed once per opening: the form keeps its own values afterwards.
  const initialValues = useMemo(() => toFormValues(resource, row, lang), [resource, row, lang]);
  const values = watched ?? initialValues;

  const save = useMutation({
    mutationFn: (v: FormValues) =>
      resource.customWrite
        ? uploadRow(resource, toFormData(resource, v))
        : editing
          ? updateRow(resource, row.id, toPayload(resource, v))
          : createRow(resource, toPayload(resource, v)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: MASTERS_KEY });
      void message.success(t(`errors.${editing ? resource.messages.updated : resource.messages.created}`));
      onClose();
    },
    onError: (err) => {
      if (applyFieldErrors(form, err, t, labels)) return;
      const text = errorText(t, err);
      const unique = uniqueFieldOf(resource);
      if (err instanceof ApiRequestError && err.status === 409 && unique) {
        form.setFields([{ name: unique, errors: [text] }]);
      }
      void message.error(text);
    },
  });

  const onValuesChange = (changed: FormValues) => {
    // A choice that depends on another (sub-company on client) starts over when that changes.
    for (const f of resource.fields) {
      if (f.dependsOn && f.dependsOn in changed) form.setFieldValue(f.key, undefined);
    }
  };

  // Short forms in one column, longer ones in two or three; yes/no boxes gathered at the end.
  const columns = fields.length > 12 ? 3 : fields.length > 6 ? 2 : 1;
  const span = 24 / columns;
  const visible = fields.filter((f) => isVisible(f, values));
  const inputs = visible.filter((f) => f.type !== 'boolean');
  const checkboxes = visible.filter((f) => f.type === 'boolean');

  const renderField = (field: MasterField) => {
    const label = labels[field.key];
    const checkbox = field.type === 'boolean';
    return (
      <Col key={field.key} xs={24} sm={columns > 1 ? 12 : 24} lg={span}>
        <Form.Item
          name={field.key}
          label={checkbox ? undefined : label}
          required={field.required}
          extra={field.type === 'file' ? t('masters.help.fileHelp') : undefined}
          dependencies={field.visibleWhen ? [field.visibleWhen.field] : undefined}
          rules={[
            {
              validator: async () => {
                const problem = fieldProblem(resource, field.key, form.getFieldsValue(true) as FormValues);
                if (problem) throw new Error(t(`validation.${problem}`, { name: label }));
              },
            },
          ]}
          style={checkbox ? { marginBottom: 8 } : undefined}
        >
          <FieldInput field={field} label={label} values={values} />
        </Form.Item>
      </Col>
    );
  };
  const title = t(`masters.modal.${resource.key}.${editing ? 'edit' : 'add'}`);

  return (
    <AppModal
      open={open}
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
      width={columns === 3 ? 1040 : columns === 2 ? 800 : 520}
      styles={{
        body: { maxHeight: 'calc(100vh - 240px)', overflowY: 'auto', overflowX: 'hidden', paddingRight: 4 },
      }}
      okButtonProps={{ 'data-testid': 'master-form-save' } as ButtonProps}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={initialValues}
        onValuesChange={onValuesChange}
        onFinish={(v) => save.mutate(v)}
        data-testid="master-form"
        scrollToFirstError
        requiredMark
      >
        <GridRow gutter={16}>{inputs.map(renderField)}</GridRow>
        {checkboxes.length > 0 && <GridRow gutter={16}>{checkboxes.map(renderField)}</GridRow>}
      </Form>
    </AppModal>
  );
}
