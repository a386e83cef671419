export * from './types.js';
export { cleanMonth, costOfMonth, lowerPercentile, requiredSpeedMbps } from './cost.js';
export { bestPlan, DEFAULT_OPTIONS, explain, idleMonths, sizeUsage, suits, unused } from './best.js';
export type { Sizing } from './best.js';
export { allocateUsage, batchResultAt, optimizeBatch, REASON_CODES, toColumns } from './batch.js';
export type { BatchResult, UsageColumns } from './batch.js';
export { renderReason } from './reason.js';
export type { ReasonLanguage } from './reason.js';
