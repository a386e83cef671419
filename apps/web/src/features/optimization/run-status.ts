import type { OptimizationItem, OptimizationRun, OptimizationTab } from '@kulu/shared';

/**
 * Pure view rules of the optimization page: what the run line says, which rows may be selected
 * for marking, and the query parameters a link to the page carries.
 */

export type RunView =
  | { kind: 'never' }
  | { kind: 'pending'; status: 'queued' | 'running'; since: string }
  | { kind: 'succeeded'; at: string }
  | { kind: 'failed'; at: string };

/** The latest run as the page shows it (null: the client was never optimized). */
export function runView(run: OptimizationRun | null | undefined): RunView {
  if (!run) return { kind: 'never' };
  if (run.status === 'queued' || run.status === 'running')
    return { kind: 'pending', status: run.status, since: run.createdAt };
  const at = run.finishedAt ?? run.createdAt;
  return run.status === 'succeeded' ? { kind: 'succeeded', at } : { kind: 'failed', at };
}

/** The tabs whose findings can be marked: a cheaper plan, or giving up an unused subscription. */
export const isMarkableTab = (tab: OptimizationTab): boolean => tab === 'optimized' || tab === 'unused';

/** Only findings of a markable tab that are not yet marked can be selected for marking. */
export const canSelect = (tab: OptimizationTab, item: Pick<OptimizationItem, 'mark'>): boolean =>
  isMarkableTab(tab) && item.mark === null;

/** A positive integer id from a link's query parameter, else undefined. */
export function idParam(value: string | null): number | undefined {
  if (!value || !/^\d{1,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}
