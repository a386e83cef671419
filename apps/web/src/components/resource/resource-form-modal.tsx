import { useMemo, useRef, type ReactElement, type ReactNode } from 'react';
import {
  App,
  Button,
  Col,
  ConfigProvider,
  Form,
  Row as GridRow,
  Spin,
  type ButtonProps,
  type FormItemProps,
} from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Lang, MasterField, MasterResource } from '@kulu/shared';
import { AppModal } from '../app-modal';
import { ApiRequestError } from '../../lib/api-client';
import { applyFieldErrors, errorText } from '../../lib/form-rules';
import { createRow, updateRow, uploadRow, type Row, type WriteAnswer } from './api';
import { FieldInput } from './field-input';
import {
  fieldIssueCode,
  fieldProblem,
  formFields,
  isVisible,
  toFormData,
  toFormValues,
  toPayload,
  type FormValues,
} from './form-values';

/** What a section changes about one declared field of its form. */
export interface FieldOverride {
  /** The control instead of the declared type's (the form item gives it `value` and `onChange`). */
  input?: (ctx: { field: MasterField; label: string; values: FormValues }) => ReactElement;
  /** Further props of the form item: help text, value conversion, further rules (per row: null adds). */
  item?: ItemProps | ((row: Row | null) => ItemProps);
  /** The value of a new row (default: the create schema's default). */
  initial?: () => unknown;
  /** Shown but not to be changed on this row (e.g. the caller's own role). */
  disabled?: (row: Row | null) => boolean;
}

export interface ResourceFormProps {
  resource: MasterResource;
  /** The list URL: POST here, PUT `<base>/<id>`. */
  base: string;
  /** The row being edited; null adds a new one. */
  row: Row | null;
  title: string;
  onClose: () => void;
  /** After a save (the caller invalidates its queries). */
  onSaved: () => void;
  /** Test ids: the form, its save button, a field's control. */
  testIds: { form?: string; save?: string; field?: (key: string) => string };
  fields?: Record<string, FieldOverride>;
  /**
   * API message codes shown on one field only (e.g. `subCompanyNameExists` on the name); without
   * an entry a 409 goes on the first text field and is also shown as a message.
   */
  errorFields?: Record<string, string>;
  /** Sent with every write besides the fields (e.g. the client a provider user works on). */
  body?: Record<string, unknown>;
  /** Form items beside the declared fields (their keys are sent as they are). */
  formExtra?: FormExtra;
  /** The list's rows shown (for a rule across rows in `formExtra`). */
  rows?: readonly Row[];
}

type ItemProps = Omit<FormItemProps, 'name' | 'label' | 'children'>;

/** The row being edited (null: a new one) and the list's rows shown. */
export interface FormContext {
  row: Row | null;
  rows: readonly Row[];
}

/** A further submit button of the form, sending `body` beside the values (e.g. save as a draft). */
export interface FormSubmit {
  label: string;
  body: Record<string, unknown>;
  testId?: string;
}

/** Form items beside the declared fields, e.g. a login's permissions. */
export interface FormExtra {
  keys: readonly string[];
  /** The items (before the fields: `top`, e.g. a warning). */
  render: (values: FormValues, ctx: FormContext) => ReactNode;
  top?: (values: FormValues, ctx: FormContext) => ReactNode;
  /** Their values when the form opens (default: none, the items start empty). */
  initial?: (row: Row | null) => FormValues;
  /** What they send (default: each key's value as it is). */
  payload?: (values: FormValues, row: Row | null) => Record<string, unknown>;
  /** The save button's text (default: Save). */
  saveLabel?: (row: Row | null) => string;
  /** Further submit buttons before save. */
  submits?: (row: Row | null) => FormSubmit[];
  /** The values that follow a change of others (e.g. permissions narrowed to a new role's set). */
  follow?: (changed: FormValues, values: FormValues) => FormValues | undefined;
  /** The items' choices are still loading: the form opens when they are there (`initial` may need them). */
  loading?: boolean;
}

/** Where a 409 "already exists" shows besides the message: the resource's first text field. */
const uniqueFieldOf = (resource: MasterResource) =>
  resource.fields.find((f) => f.type === 'text' || f.type === 'phone')?.key;

/**
 * The add/edit dialog of any declared resource: a form generated from the declaration's fields,
 * checked with the shared create schema ('{name} is required' / '{name} is invalid!', or the
 * schema's own message code, translated), the server's field errors put back on the fields and
 * its 409 answers shown in the user's language.
 */
export function ResourceFormModal(p: ResourceFormProps) {
  const { resource, row, fields: overrides = {} } = p;
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const watched = Form.useWatch([], form) as FormValues | undefined;
  const editing = row !== null;
  const fields = formFields(resource, editing);
  const labels = useMemo(
    () => Object.fromEntries(resource.fields.map((f) => [f.key, t(f.labelKey)])),
    [resource, t],
  );
  // Computed once per opening: the form keeps its own values afterwards.
  const initialValues = useMemo(() => {
    const values = toFormValues(resource, row, lang);
    if (!row) for (const [key, o] of Object.entries(overrides)) if (o.initial) values[key] = o.initial();
    return { ...values, ...p.formExtra?.initial?.(row) };
  }, [resource, row, lang, p.formExtra?.loading]);
  const values = watched ?? initialValues;

  const ctx: FormContext = { row, rows: p.rows ?? [] };
  // The body of the submit button pressed (none: save).
  const submitted = useRef<FormSubmit | null>(null);
  const payload = (v: FormValues) => {
    const body = { ...toPayload(resource, v), ...p.body };
    if (p.formExtra?.payload) Object.assign(body, p.formExtra.payload(v, row));
    else for (const key of p.formExtra?.keys ?? []) if (v[key] !== undefined) body[key] = v[key];
    return { ...body, ...submitted.current?.body };
  };
  const save = useMutation({
    mutationFn: (v: FormValues) =>
      resource.customWrite
        ? uploadRow(p.base, toFormData(resource, v))
        : editing
          ? updateRow(p.base, row.id, payload(v))
          : createRow(p.base, payload(v)),
    onSuccess: (answer: WriteAnswer) => {
      const code = answer.code ?? (editing ? resource.messages.updated : resource.messages.created);
      void message.success(t(`errors.${code}`, { defaultValue: answer.message }));
      p.onSaved();
      p.onClose();
    },
    onError: (err) => {
      const text = errorText(t, err);
      const own = err instanceof ApiRequestError ? p.errorFields?.[err.code] : undefined;
      if (own) {
        form.setFields([{ name: own, errors: [text] }]);
        return;
      }
      if (applyFieldErrors(form, err, t, labels)) return;
      const unique = uniqueFieldOf(resource);
      if (err instanceof ApiRequestError && err.status === 409 && unique) {
        form.setFields([{ name: unique, errors: [text] }]);
      }
      void message.error(text);
    },
  });

  const submits = p.formExtra?.submits?.(row) ?? [];

  const onValuesChange = (changed: FormValues) => {
    // A choice that depends on another (sub-company on client) starts over when that changes.
    for (const f of resource.fields) {
      if (f.dependsOn && f.dependsOn in changed) form.setFieldValue(f.key, undefined);
    }
    const following = p.formExtra?.follow?.(changed, form.getFieldsValue(true) as FormValues);
    if (following) form.setFieldsValue(following);
  };

  // Short forms in one column, longer ones in two or three; yes/no boxes gathered at the end.
  const count = fields.length + (p.formExtra?.keys.length ?? 0);
  const columns = count > 12 ? 3 : count > 6 ? 2 : 1;
  const span = 24 / columns;
  const visible = fields.filter((f) => isVisible(f, values));
  const inputs = visible.filter((f) => f.type !== 'boolean');
  const checkboxes = visible.filter((f) => f.type === 'boolean');

  const renderField = (field: MasterField) => {
    const label = labels[field.key];
    const checkbox = field.type === 'boolean';
    const override = overrides[field.key];
    const item = typeof override?.item === 'function' ? override.item(row) : override?.item;
    const { rules: moreRules = [], ...itemProps } = item ?? {};
    // Only a field declared `disabled` gets its own ConfigProvider: the other forms (masters, client
    // sections) keep the plain item they had.
    const wrapDisabled = (node: ReactElement) =>
      override?.disabled ? (
        <ConfigProvider componentDisabled={override.disabled(row)}>{node}</ConfigProvider>
      ) : (
        node
      );
    return (
      <Col key={field.key} xs={24} sm={columns > 1 ? 12 : 24} lg={span}>
        {wrapDisabled(
          <Form.Item
            name={field.key}
            label={checkbox ? undefined : label}
            required={field.required}
            extra={field.type === 'file' ? t('masters.help.fileHelp') : undefined}
            dependencies={field.visibleWhen ? [field.visibleWhen.field] : undefined}
            rules={[
              {
                validator: async () => {
                  const all = form.getFieldsValue(true) as FormValues;
                  const problem = fieldProblem(resource, field.key, all);
                  if (!problem) return;
                  const code = problem === 'invalid' ? fieldIssueCode(resource, field.key, all) : null;
                  throw new Error(code ? t(`errors.${code}`) : t(`validation.${problem}`, { name: label }));
                },
              },
              ...moreRules,
            ]}
            style={checkbox ? { marginBottom: 8 } : undefined}
            {...itemProps}
          >
            {override?.input ? (
              override.input({ field, label, values })
            ) : (
              <FieldInput field={field} label={label} values={values} testId={p.testIds.field?.(field.key)} />
            )}
          </Form.Item>,
        )}
      </Col>
    );
  };

  return (
    <AppModal
      open
      title={p.title}
      okText={p.formExtra?.saveLabel?.(row) ?? t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => {
        submitted.current = null;
        form.submit();
      }}
      onCancel={p.onClose}
      confirmLoading={save.isPending && !submitted.current}
      footer={
        submits.length > 0
          ? (_, { OkBtn, CancelBtn }) => (
              <>
                <CancelBtn />
                {submits.map((s) => (
                  <Button
                    key={s.label}
                    loading={save.isPending && submitted.current === s}
                    onClick={() => {
                      submitted.current = s;
                      form.submit();
                    }}
                    data-testid={s.testId}
                  >
                    {s.label}
                  </Button>
                ))}
                <OkBtn />
              </>
            )
          : undefined
      }
      destroyOnHidden
      width={columns === 3 ? 1040 : columns === 2 ? 800 : 520}
      styles={{
        body: { maxHeight: 'calc(100vh - 240px)', overflowY: 'auto', overflowX: 'hidden', paddingRight: 4 },
      }}
      okButtonProps={
        {
          disabled: p.formExtra?.loading,
          ...(p.testIds.save && { 'data-testid': p.testIds.save }),
        } as ButtonProps
      }
    >
      {p.formExtra?.loading ? (
        <Spin style={{ display: 'block', padding: 24 }} />
      ) : (
        <Form<FormValues>
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={initialValues}
          onValuesChange={onValuesChange}
          onFinish={(v) => save.mutate(v)}
          data-testid={p.testIds.form}
          scrollToFirstError
          requiredMark
        >
          {p.formExtra?.top?.(values, ctx)}
          <GridRow gutter={16}>{inputs.map(renderField)}</GridRow>
          {checkboxes.length > 0 && <GridRow gutter={16}>{checkboxes.map(renderField)}</GridRow>}
          {p.formExtra?.render(values, ctx)}
        </Form>
      )}
    </AppModal>
  );
}
