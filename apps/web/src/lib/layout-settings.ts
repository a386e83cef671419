import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_LAYOUT, type LayoutSettings } from '@kulu/shared';
import { api } from './api';

/** GET /api/layout: fluid/boxed, dark/light aside, fixed/static header (spec §9 defaults). */
export const layoutSettingsQuery = queryOptions({
  queryKey: ['layout'],
  queryFn: () => api.get<LayoutSettings>('/api/layout'),
  staleTime: 5 * 60_000,
});

export const useLayoutSettings = (): LayoutSettings => useQuery(layoutSettingsQuery).data ?? DEFAULT_LAYOUT;
