import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';

/** axe-core's browser bundle (MPL-2.0, a dev dependency: it runs in the test browser only). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules checked: WCAG 2 level A and AA. */
const WCAG_AA = ['wcag2a', 'wcag2aa'];

/** The impacts that fail a page (issue 22: 0 critical, 0 serious). */
const FAILING = new Set(['critical', 'serious']);

/**
 * Runs axe-core on the page's whole document and returns its critical and serious WCAG A/AA
 * violations, each formatted to be read in a test failure: rule, impact, and per element its
 * selector, HTML and axe's explanation (for contrast: the colours and the ratio).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: the app's Content-Security-Policy (script-src 'self')
  // refuses an inline <script> tag, and the page under test keeps its real policy.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResults> } }).axe.run(
        document,
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] },
      ),
    WCAG_AA,
  );
  return results.violations.filter((v) => FAILING.has(v.impact ?? '')).map(formatViolation);
}

const oneLine = (s: string | undefined, max: number) => {
  const line = (s ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/** `color-contrast (serious) <help>: 2 element(s)`, then per element its selector, HTML and explanation. */
export function formatViolation(v: Pick<Result, 'id' | 'impact' | 'help' | 'nodes'>): string {
  const nodes = v.nodes.map((n) => {
    // The elements a check points at, e.g. the focusable element inside an aria-hidden one.
    const related = [...n.any, ...n.all, ...n.none]
      .flatMap((c) => c.relatedNodes ?? [])
      .slice(0, 3)
      .map((r) => `\n    related: ${r.target.join(' ')} ${oneLine(r.html, 200)}`);
    return `  - ${n.target.join(' ')}\n    ${oneLine(n.html, 300)}\n    ${oneLine(n.failureSummary, 400)}${related.join('')}`;
  });
  return `${v.id} (${v.impact}) ${v.help}: ${v.nodes.length} element(s)\n${nodes.join('\n')}`;
}
