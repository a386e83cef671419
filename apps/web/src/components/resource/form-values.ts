import type { Lang, MasterField, MasterResource } from '@kulu/shared';
import { isEuroAmount } from './format';

/** The values of the add/edit form, by create-schema key. */
export type FormValues = Record<string, unknown>;

export const isBlank = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0);

/** Whether a field shows, given the other values (`visibleWhen`). */
export function isVisible(field: MasterField, values: FormValues): boolean {
  if (!field.visibleWhen) return true;
  const current = values[field.visibleWhen.field];
  return field.visibleWhen.values.some((v) => v === current);
}

/** Fields of the form: every declared field, but `file` only when adding. */
export const formFields = (resource: Pick<MasterResource, 'fields'>, editing: boolean): MasterField[] =>
  resource.fields.filter((f) => !(editing && f.type === 'file'));

const decimalText = (v: unknown, lang: Lang): string => {
  const s = String(v);
  return lang === 'fi' ? s.replace('.', ',') : s;
};

/**
 * A row as the form's initial values: numbers and amounts become the text the user edits
 * (amounts with a decimal comma in Finnish), booleans and enum choices stay as they are.
 * New rows get the declared defaults of booleans and enums (the create schema's).
 */
export function toFormValues(
  resource: Pick<MasterResource, 'fields' | 'create'>,
  row: Record<string, unknown> | null,
  lang: Lang,
): FormValues {
  const values: FormValues = {};
  const defaults = row ? {} : schemaDefaults(resource);
  for (const field of resource.fields) {
    const v = row ? row[field.key] : defaults[field.key];
    if (field.type === 'file') continue;
    if (v === null || v === undefined) {
      if (field.type === 'boolean') values[field.key] = false;
      continue;
    }
    switch (field.type) {
      case 'money':
      case 'percent':
        values[field.key] = decimalText(v, lang);
        break;
      case 'integer':
        values[field.key] = String(v);
        break;
      default:
        values[field.key] = v;
    }
  }
  return values;
}

/** The create schema's answer to an almost empty object: the defaults of booleans and enums. */
function schemaDefaults(resource: Pick<MasterResource, 'fields' | 'create'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const probe = resource.create.safeParse({});
  if (probe.success && probe.data && typeof probe.data === 'object')
    return probe.data as Record<string, unknown>;
  // The probe fails on required fields; take what zod defaults by parsing each key's absence.
  for (const field of resource.fields) {
    if (field.type !== 'boolean' && field.type !== 'enum') continue;
    const shape = objectShape(resource.create);
    const schema = shape?.[field.key];
    if (!schema) continue;
    const r = schema.safeParse(undefined);
    if (r.success && r.data !== undefined && r.data !== null) out[field.key] = r.data;
  }
  return out;
}

interface Parseable {
  safeParse: (v: unknown) => { success: boolean; data?: unknown };
}

/** The object shape behind a create schema (through its refinements and transforms). */
export function objectShape(schema: unknown): Record<string, Parseable> | undefined {
  let s = schema as
    { shape?: Record<string, Parseable>; def?: { in?: unknown; innerType?: unknown } } | undefined;
  for (let i = 0; s && i < 6; i++) {
    if (s.shape) return s.shape;
    s = (s.def?.in ?? s.def?.innerType) as typeof s;
  }
  return undefined;
}

/**
 * The JSON body of a create or update: hidden and blank fields left out (the schema makes an
 * absent optional value null and applies its defaults), texts trimmed.
 */
export function toPayload(
  resource: Pick<MasterResource, 'fields'>,
  values: FormValues,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of resource.fields) {
    if (field.type === 'file') continue;
    if (!isVisible(field, values)) continue;
    const v = values[field.key];
    if (field.type === 'boolean') body[field.key] = v === true;
    else if (!isBlank(v)) body[field.key] = typeof v === 'string' ? v.trim() : v;
  }
  return body;
}

/** The multipart body of a resource written by upload (help files): text fields and the file. */
export function toFormData(resource: Pick<MasterResource, 'fields'>, values: FormValues): FormData {
  const data = new FormData();
  for (const field of resource.fields) {
    const v = values[field.key];
    if (field.type === 'file') continue;
    if (!isBlank(v)) data.append(field.key, String(v));
  }
  // The file goes last so that the server has the text fields when it reads it.
  for (const field of resource.fields) {
    if (field.type !== 'file') continue;
    const file = fileOf(values[field.key]);
    if (file) data.append(field.key, file, file.name);
  }
  return data;
}

/** The File in an antd Upload value (a list of UploadFile with `originFileObj`). */
export function fileOf(value: unknown): File | undefined {
  const list = Array.isArray(value) ? value : [];
  const first = list[0] as { originFileObj?: File } | File | undefined;
  if (!first) return undefined;
  if (typeof File !== 'undefined' && first instanceof File) return first;
  return (first as { originFileObj?: File }).originFileObj;
}

export type FieldProblem = 'required' | 'invalid';

/**
 * What is wrong with one field, judged by the shared create schema on the whole form (so that
 * rules across fields count too): blank and wanted → required, refused otherwise → invalid.
 */
export function fieldProblem(
  resource: Pick<MasterResource, 'fields' | 'create'>,
  key: string,
  values: FormValues,
): FieldProblem | null {
  const field = resource.fields.find((f) => f.key === key);
  if (!field || !isVisible(field, values)) return null;
  const blank = isBlank(values[key]);
  if (blank && field.required) return 'required';
  if (field.type === 'file') return null;
  const result = resource.create.safeParse(toPayload(resource, values));
  if (result.success) return null;
  const issue = result.error.issues.find((i) => i.path.length > 0 && String(i.path[0]) === key);
  if (!issue) return null;
  return blank ? 'required' : 'invalid';
}

/**
 * The schema's own message code of a refused field (a refinement's `message`, e.g.
 * `paymentAmountPositive`), when it has one rather than zod's sentence; null otherwise.
 */
export function fieldIssueCode(
  resource: Pick<MasterResource, 'fields' | 'create'>,
  key: string,
  values: FormValues,
): string | null {
  const result = resource.create.safeParse(toPayload(resource, values));
  if (result.success) return null;
  const issue = result.error.issues.find((i) => i.path.length > 0 && String(i.path[0]) === key);
  // A refinement's bare "invalid" or "required" is the generic sentence with the field's name.
  return issue && /^[a-z][A-Za-z]+$/.test(issue.message) && !['invalid', 'required'].includes(issue.message)
    ? issue.message
    : null;
}

/** Money inputs: the decimal kind of a field, for the input's keyboard and suffix. */
export const amountSuffix = (field: MasterField): string | undefined =>
  isEuroAmount(field) ? '€' : field.type === 'percent' ? '%' : undefined;
