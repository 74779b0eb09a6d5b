import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Result, RunOptions } from 'axe-core';
import { expect, type Page } from '@playwright/test';
import { nextPaint } from './shots.ts';

// The accessibility checks of the walks through every page (docs/decisions/0025): the whole
// WCAG 2.2 AA check in light and dark once per page, and in the other languages the rules a
// language changes. fixtures.ts's expectAccessible is the scenarios' quick check (serious and
// critical violations) of the page they are on.
//
// axe-core runs in the page itself: injected once per document (a check in light and another in
// dark share it) and asked for its violations only (axe's resultTypes; the nodes of the rules that
// pass are not gathered). Our pages hold no frame. @axe-core/playwright's builder injected axe's
// half megabyte twice per check and, by default, finished each check in a blank page it opened and
// closed: the same rules and violations at several times the cost (docs/decisions/0025). What is
// injected is axe's minified build (580 KB), not `axe.source`, the 1.3 MB unminified one: the same
// rules, a fifth less time to inject on each new document (docs/decisions/0025, eighth round).
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe's violations of the page as it is now, under `options` (all its default rules when none). */
export async function axeViolations(page: Page, options: RunOptions = {}): Promise<Result[]> {
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    (runOptions) => (window as unknown as { axe: typeof axe }).axe.run(document, runOptions).then((results) => results.violations),
    { ...options, resultTypes: ['violations'] } satisfies RunOptions,
  );
}

/** What a page's texts decide: the declared languages of the page and of its parts. */
const LANGUAGE_RULES = ['html-has-lang', 'html-lang-valid', 'valid-lang', 'html-xml-lang-mismatch'];

/** One line per violation: the rule, its impact, what it asks, and where. */
export function described(violations: Result[]): string[] {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** axe finds no WCAG 2.2 AA violation of any impact on the page as it is now. */
export async function expectWcagClean(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page, { runOnly: { type: 'tag', values: WCAG_22_AA } });
  expect(described(violations), where).toEqual([]);
}

/**
 * The page has taken a new colour scheme: two frames for its effects (the component library sets
 * its scheme attribute when the media query changes), then no CSS transition still running (a
 * loader's endless animation is not one) —
 * axe reads the colours as they are, and a control caught halfway from light to dark fails it.
 */
async function colorsSettled(page: Page): Promise<void> {
  await nextPaint(page);
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'),
  );
}

/** axe finds no WCAG 2.2 AA violation of any impact on the page as it is, in light and in dark. */
export async function expectWcagCleanLightAndDark(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await colorsSettled(page);
    await expectWcagClean(page, `${where}, ${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: null, reducedMotion: null });
}

/** The page and its parts declare valid languages that agree (a translated page's share of axe). */
export async function expectLanguagesDeclared(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page, { runOnly: { type: 'rule', values: LANGUAGE_RULES } });
  expect(described(violations), where).toEqual([]);
}
