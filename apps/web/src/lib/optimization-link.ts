import type { OptimizationTab } from '@kulu/shared';

/** The optimization page of a base path, optionally for one client and tab (linked from Savings). */
export function optimizationLink(
  basePath: string,
  opts: { clientId?: number; tab?: OptimizationTab } = {},
): string {
  const qs = new URLSearchParams();
  if (opts.clientId !== undefined) qs.set('clientId', String(opts.clientId));
  if (opts.tab) qs.set('tab', opts.tab);
  const s = qs.toString();
  return `${basePath}/invoice-optimization${s ? `?${s}` : ''}`;
}
