// axe-core (WCAG 2.2 AA rules) run inside a page of the browser tests; a finding fails with every node it names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Every WCAG A and AA rule up to 2.2 (axe tags them by the version that added them). */
const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Runs axe on the page as it is now (its CSP forbids inline script, so the engine is evaluated through the
 * DevTools protocol rather than added as a script element) and fails on any violation.
 */
export async function assertAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_AA_TAGS)} }, resultTypes: ['violations'] }).then((r) => r.violations)`,
  )) as Violation[];
  const report = violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target, why: n.failureSummary })),
  }));
  assert.deepEqual(report, [], `${name}: axe found ${violations.length} violation(s):\n${JSON.stringify(report, null, 2)}`);
}
