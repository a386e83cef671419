/** Types of precompress.mjs for the TypeScript that imports it (scripts/precompress.test.ts). */
export interface PrecompressTotals {
  files: number;
  raw: number;
  br: number;
  gz: number;
}
/** Writes `<file>.br` and `<file>.gz` for each compressible file of `dist`; answers the totals. */
export function precompress(dist: string): Promise<PrecompressTotals>;
