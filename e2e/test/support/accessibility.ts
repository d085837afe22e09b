// axe-core (injected from the installed package, nothing fetched at run time) and Chromium's own
// accessibility tree, for the accessibility suite: what a page violates, and which form controls
// a screen reader would announce without a name.
import axe from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SOURCE: string = axe.source;

/** WCAG 2.0 and 2.1, levels A and AA, plus axe's best practices (landmarks, heading order, ...). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Impact = (typeof IMPACTS)[number];

export interface Violation {
  rule: string;
  impact: Impact;
  help: string;
  /** Each offending element: its selector and axe's account of what is wrong there. */
  nodes: Array<{ target: string; summary: string }>;
}

export interface PageCheck {
  page: string;
  viewport: string;
  violations: Violation[];
  /** Results axe could not decide (e.g. text over a gradient): counted, listed with A11Y_VERBOSE=1, not failed. */
  incomplete: Array<{ rule: string; targets: string[] }>;
  controls: number;
  unnamedControls: string[];
}

/** Waits until the page shows its content: no loading placeholders, no running finite animations. */
export async function waitForSettledPage(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.readyState === 'complete' &&
      !document.querySelector('[aria-busy="true"], .skeleton, .page-loading') &&
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { timeout: 20_000 },
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Runs axe on the current document (injecting it when this document does not have it yet). */
export async function runAxe(page: Page): Promise<{ violations: Violation[]; incomplete: PageCheck['incomplete'] }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }>;
      incomplete: Array<{ id: string; nodes: Array<{ target: unknown[] }> }>;
    }
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations', 'incomplete'] });
    return {
      violations: results.violations.map((v) => ({
        rule: v.id,
        impact: (v.impact ?? 'minor') as 'critical' | 'serious' | 'moderate' | 'minor',
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target.map((t) => (Array.isArray(t) ? t.join(' >> ') : String(t))).join(' >> '),
          summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
        })),
      })),
      incomplete: results.incomplete.map((r) => ({ rule: r.id, targets: r.nodes.map((n) => n.target.map(String).join(' >> ')) })),
    };
  }, AXE_TAGS);
}

/**
 * Every rendered input, select and textarea with the name Chromium computes for it (the name a
 * screen reader announces); controls hidden from the accessibility tree are skipped.
 */
export async function formControlNames(page: Page): Promise<{ count: number; unnamed: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('Accessibility.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: 'input:not([type="hidden"]), select, textarea' });
    let count = 0;
    const unnamed: string[] = [];
    for (const nodeId of nodeIds) {
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      const node = nodes[0];
      if (!node || node.ignored) continue;
      count += 1;
      const name = String(node.name?.value ?? '').trim();
      if (!name) {
        const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
        unnamed.push(outerHTML.slice(0, 160));
      }
    }
    return { count, unnamed };
  } finally {
    await cdp.detach();
  }
}

/** axe plus the form-control names, for the page as it is now. */
export async function checkPage(page: Page, label: string, viewport: string): Promise<PageCheck> {
  await waitForSettledPage(page);
  const { violations, incomplete } = await runAxe(page);
  const names = await formControlNames(page);
  return { page: label, viewport, violations, incomplete, controls: names.count, unnamedControls: names.unnamed };
}

/** One readable line per violation (rule, impact, where), for the test output. */
export function describeViolations(checks: PageCheck[], impacts: readonly Impact[] = IMPACTS): string {
  const lines: string[] = [];
  for (const check of checks) {
    for (const v of check.violations.filter((x) => impacts.includes(x.impact))) {
      lines.push(`[${v.impact}] ${v.rule} on ${check.page} (${check.viewport}): ${v.help}`);
      v.nodes.slice(0, 8).forEach((node) => lines.push(`    ${node.target}${node.summary ? `: ${node.summary.slice(0, 300)}` : ''}`));
      if (v.nodes.length > 8) lines.push(`    … and ${v.nodes.length - 8} more`);
    }
    check.unnamedControls.forEach((html) => lines.push(`[unnamed control] on ${check.page} (${check.viewport}): ${html}`));
  }
  return lines.join('\n');
}

/** What axe left for a person to judge, page by page (A11Y_VERBOSE=1). */
export function describeNeedsReview(checks: PageCheck[]): string {
  return checks
    .filter((c) => c.incomplete.length)
    .map((c) => `${c.page} (${c.viewport}):\n${c.incomplete.map((r) => `    ${r.rule}: ${r.targets.join(', ')}`).join('\n')}`)
    .join('\n');
}

/** The closing count line: pages × viewports checked, violations by impact. */
export function summarize(checks: PageCheck[]): string {
  const byImpact = Object.fromEntries(IMPACTS.map((impact) => [impact, 0])) as Record<Impact, number>;
  let nodes = 0;
  for (const check of checks) {
    for (const v of check.violations) {
      byImpact[v.impact] += 1;
      nodes += v.nodes.length;
    }
  }
  const pages = new Set(checks.map((c) => c.page)).size;
  const viewports = new Set(checks.map((c) => c.viewport)).size;
  const controls = checks.reduce((sum, c) => sum + c.controls, 0);
  const unnamed = checks.reduce((sum, c) => sum + c.unnamedControls.length, 0);
  const incomplete = checks.reduce((sum, c) => sum + c.incomplete.reduce((n, r) => n + r.targets.length, 0), 0);
  return (
    `accessibility: ${checks.length} page checks (${pages} pages/states × ${viewports} viewports), ` +
    `violations: critical ${byImpact.critical}, serious ${byImpact.serious}, moderate ${byImpact.moderate}, minor ${byImpact.minor} (${nodes} elements); ` +
    `form controls named ${controls - unnamed}/${controls}; axe needs-review elements ${incomplete}`
  );
}
