import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { ApiRequestError } from './api-client';

/**
 * antd rules from a shared zod schema (spec §5): '{name} is required' when empty,
 * '{name} is invalid!' when the schema refuses the value.
 */
export function fieldRules(t: TFunction, name: string, schema?: z.ZodType, required = true): Rule[] {
  const rules: Rule[] = [];
  if (required) rules.push({ required: true, whitespace: true, message: t('validation.required', { name }) });
  if (schema) {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (value === undefined || value === null || value === '') return;
        if (!schema.safeParse(value).success) throw new Error(t('validation.invalid', { name }));
      },
    });
  }
  return rules;
}

/**
 * A form's fields declared once: `field(name)` is a Form.Item's name, label and rules, from the
 * form's translated labels and its shared zod shape (`required` false for an optional field).
 */
export const formFields =
  <K extends string>(
    t: TFunction,
    labels: Record<K, string>,
    shape: Partial<Record<NoInfer<K>, z.ZodType>>,
  ) =>
  (name: K, required = true) => ({
    name,
    label: labels[name],
    rules: fieldRules(t, labels[name], shape[name], required),
  });

/**
 * The message fieldRules gives for `value`, for the light forms of the public pages (no antd Form):
 * the first of '{name} is required' and '{name} is invalid!', or none.
 */
export function fieldError(
  t: TFunction,
  name: string,
  value: string,
  schema?: z.ZodType,
  required = true,
): string | undefined {
  if (value.trim() === '') return required ? t('validation.required', { name }) : undefined;
  if (schema && !schema.safeParse(value).success) return t('validation.invalid', { name });
  return undefined;
}

/** The confirm field must repeat `field` exactly. */
export const matchRule =
  (t: TFunction, field: string): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (value && value !== getFieldValue(field)) throw new Error(t('auth.password.mismatch'));
    },
  });

/** The translated text of an error from the API (by its code), or the generic one. */
export function errorText(t: TFunction, err: unknown): string {
  if (err instanceof ApiRequestError) {
    return t(`errors.${err.code}`, { defaultValue: err.message || t('errors.internal') });
  }
  return t('errors.internal');
}

/**
 * Puts the API's per-field validation answers (`fields: {path: 'required'|'invalid'}`) on the
 * form; returns false when the error was not a field error.
 */
export function applyFieldErrors(
  form: FormInstance,
  err: unknown,
  t: TFunction,
  labels: Record<string, string>,
): boolean {
  if (!(err instanceof ApiRequestError) || !err.fields) return false;
  const fields = Object.entries(err.fields)
    .filter(([path]) => path in labels)
    .map(([path, kind]) => ({
      name: path,
      errors: [t(kind === 'required' ? 'validation.required' : 'validation.invalid', { name: labels[path] })],
    }));
  form.setFields(fields);
  return fields.length > 0;
}
