import { costAndUsagePath } from '@kulu/shared';

/** The Cost and Usage dashboard of a base path, opened on one client (provider users; the portfolio's rows). */
export function dashboardLink(basePath: string, clientId?: number): string {
  const path = costAndUsagePath(basePath);
  return clientId === undefined ? path : `${path}?clientId=${clientId}`;
}
