import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The names a zod object schema accepts, through the wrappers routes use (pipe, transform, default,
 * optional); null when there is a schema whose keys can't be read (a union, a record, an array).
 */
export function objectKeys(schema: unknown, depth = 0): string[] | null {
  if (schema === undefined) return [];
  const s = schema as { shape?: unknown; _zod?: { def?: Record<string, unknown> } } | null;
  if (!s || depth > 5) return null;
  if (s.shape && typeof s.shape === 'object') return Object.keys(s.shape);
  const def = s._zod?.def ?? {};
  for (const inner of [def.in, def.out, def.innerType]) {
    const keys = inner ? objectKeys(inner, depth + 1) : null;
    if (keys) return keys;
  }
  return null;
}

/**
 * The API's validator: zod's, and a JSON body naming a field its route does not know is refused
 * with 400 `unknownField` (issue 23, finding 9) instead of the field being dropped silently: a
 * script's typo (`billingPlan` for `billingPlanId`) must not save a body that means "clear
 * everything", and a PUT or PATCH body naming no field is refused with 400 `emptyBody`. Object bodies of every route, whatever their schema was written with (`z.object`
 * strips by default); the fields are checked at the top level, where a route's fields are named.
 */
export const strictBodyValidator: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
  if (route.httpPart !== 'body') return validate;
  const keys = objectKeys(route.schema);
  if (!keys) return validate;
  // The same check written as a zod schema, so that its error takes the shape of every other
  // validation error (the error handler answers it in the caller's language).
  const known = z.strictObject(Object.fromEntries(keys.map((k) => [k, z.unknown()])));
  const probe = validatorCompiler({ ...route, schema: known } as Parameters<typeof validatorCompiler>[0]);
  const allowed = new Set(keys);
  // A PUT or PATCH naming no field at all would save "nothing known": every field cleared.
  const empty = validatorCompiler({
    ...route,
    schema: z.object({}).refine(() => false, { message: 'emptyBody' }),
  } as Parameters<typeof validatorCompiler>[0]);
  const updates = route.method === 'PUT' || route.method === 'PATCH';
  return (data: unknown) => {
    if (
      updates &&
      keys.length &&
      data !== null &&
      typeof data === 'object' &&
      !Array.isArray(data) &&
      !Object.keys(data).length
    ) {
      return empty(data);
    }
    if (
      data !== null &&
      typeof data === 'object' &&
      !Array.isArray(data) &&
      Object.keys(data).some((k) => !allowed.has(k))
    ) {
      return probe(data);
    }
    return validate(data);
  };
};
