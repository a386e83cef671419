import type { CostUsage } from '@kulu/shared';

export type { CostUsage, CostUsageQuery } from '@kulu/shared';
export type CostUsageMonthRow = CostUsage['months'][number];
export type CostUsageCategoryRow = CostUsage['byCategory'][number];
export type CostUsageUserRow = CostUsage['byUser']['items'][number];
