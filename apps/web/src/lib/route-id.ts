import { idSchema } from '@kulu/shared';

/** The `:id` of a detail route as a row id, or null when it is not one (the page shows 404). */
export const routeId = (value: string | undefined): number | null => {
  const parsed = idSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};
