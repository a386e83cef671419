import type { Document } from 'mupdf';

/** One page's positioned text: `strs[i]` with `nums[4i…4i+3]` = x, baseline y (top-down), width, font size. */
export interface RawPage {
  width: number;
  height: number;
  strs: string[];
  nums: Float64Array;
}

export function openPdf(bytes: Uint8Array): Document;
/** True when the fast line walk over MuPDF's structured-text getters is available. */
export const hasDirectWalk: boolean;
export function readPage(doc: Document, index: number, how?: 'direct' | 'json'): RawPage;
export function readPages(doc: Document, first: number, last: number): RawPage[];
