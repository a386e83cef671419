import type { TextCell, TextItem, TextLine } from '../types.js';

/**
 * Groups items into lines: items whose baselines are within a fraction of the font size belong to
 * one line; a line's items are sorted by x and merged into cells where the gap is smaller than
 * about a space.
 */
export function buildLines(items: TextItem[], page: number): TextLine[] {
  const sorted = [...items].sort((p, q) => p.y - q.y || p.x - q.x);
  const lines: TextLine[] = [];
  let current: TextItem[] = [];
  let lineY = 0;
  let tolerance = 0;
  const flush = () => {
    if (current.length) lines.push(makeLine(current, page));
    current = [];
  };
  for (const item of sorted) {
    const tol = Math.max(1, 0.3 * item.height);
    if (current.length && Math.abs(item.y - lineY) > Math.max(tolerance, tol)) flush();
    if (!current.length) {
      lineY = item.y;
      tolerance = tol;
    }
    current.push(item);
  }
  flush();
  return lines;
}

function makeLine(items: TextItem[], page: number): TextLine {
  const sorted = [...items].sort((p, q) => p.x - q.x);
  const cells: TextCell[] = [];
  for (const item of sorted) {
    const last = cells[cells.length - 1];
    const x1 = item.x + item.width;
    const gap = last ? item.x - last.x1 : Infinity;
    if (last && gap < 0.7 * item.height) {
      const joiner =
        gap > 0.12 * item.height && !last.text.endsWith(' ') && !item.str.startsWith(' ') ? ' ' : '';
      last.text += joiner + item.str;
      last.x1 = Math.max(last.x1, x1);
    } else {
      cells.push({ text: item.str, x0: item.x, x1 });
    }
  }
  for (const cell of cells) cell.text = normalizeSpaces(cell.text);
  const y = items.reduce((sum, it) => sum + it.y, 0) / items.length;
  return { page, y, items: sorted, cells, text: cells.map((c) => c.text).join(' ') };
}

/** Collapses runs of whitespace (but keeps no-break spaces inside numbers as plain spaces) and trims. */
export function normalizeSpaces(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
}

/** Case- and whitespace-insensitive label comparison. */
export function sameLabel(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 8) return false;
  return normalizeSpaces(a).toLowerCase() === normalizeSpaces(b).toLowerCase();
}

export interface Column<R extends string> {
  role: R;
  x0: number;
  x1: number;
}

/**
 * Assigns the cells of a table row to the columns of its header row by horizontal overlap (values
 * may be left-, right- or centre-aligned under their header); a cell overlapping no header goes to
 * the nearest one. Cells of one column are joined by a space.
 */
export function assignToColumns<R extends string>(cells: TextCell[], columns: Column<R>[]): Map<R, string> {
  const out = new Map<R, string>();
  for (const cell of cells) {
    let best: Column<R> | undefined;
    let bestScore = -Infinity;
    for (const col of columns) {
      const overlap = Math.min(cell.x1, col.x1) - Math.max(cell.x0, col.x0);
      // Positive: overlap in points; negative: the gap between the two.
      if (overlap > bestScore) {
        bestScore = overlap;
        best = col;
      }
    }
    if (!best) continue;
    const prev = out.get(best.role);
    out.set(best.role, prev ? `${prev} ${cell.text}` : cell.text);
  }
  return out;
}
