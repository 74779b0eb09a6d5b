import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

// The accessibility checks of the walks through every page (docs/decisions/0025): the whole
// WCAG 2.2 AA check in light and dark once per page, and in the other languages the rules a
// language changes. fixtures.ts's expectAccessible is the scenarios' quick check (serious and
// critical violations) of the page they are on.

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** What a page's texts decide: the declared languages of the page and of its parts. */
const LANGUAGE_RULES = ['html-has-lang', 'html-lang-valid', 'valid-lang', 'html-xml-lang-mismatch'];

/**
 * axe on the page as it is, reporting its violations only. Our pages hold no frame, so axe runs in
 * the page itself (legacy mode: one axe.run) instead of a run per frame finished in a blank page
 * the builder opens and closes at every check; and it gathers the nodes of violations only, not of
 * every rule passed (axe's resultTypes), which is all a check reads. The same rules, the same
 * violations, a third of the time (docs/decisions/0025).
 */
export function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
}

function described(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): string[] {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** axe finds no WCAG 2.2 AA violation of any impact on the page as it is now. */
export async function expectWcagClean(page: Page, where: string): Promise<void> {
  const results = await axeOn(page).withTags(WCAG_22_AA).analyze();
  expect(described(results.violations), where).toEqual([]);
}

/** axe finds no WCAG 2.2 AA violation of any impact on the page as it is, in light and in dark. */
export async function expectWcagCleanLightAndDark(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await expectWcagClean(page, `${where}, ${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: null, reducedMotion: null });
}

/** The page and its parts declare valid languages that agree (a translated page's share of axe). */
export async function expectLanguagesDeclared(page: Page, where: string): Promise<void> {
  const results = await axeOn(page).withRules(LANGUAGE_RULES).analyze();
  expect(described(results.violations), where).toEqual([]);
}
