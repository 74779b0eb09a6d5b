import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

/** Where CONSOLE_SHOTS=<dir> asks for pictures of the pages the scenarios reach, or null. */
function shotsDir(): string | null {
  return process.env.CONSOLE_SHOTS || null;
}

/** Two animation frames: the page's effects for a new colour scheme have run and it has painted. */
export async function nextPaint(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/**
 * CONSOLE_SHOTS=<dir> saves the page as its user sees it, light and dark (`{name}-light.png`,
 * `{name}-dark.png`), with motion reduced so charts stand still; `phone` adds it at a phone's width.
 */
export async function saveShots(page: Page, name: string, options: { fullPage?: boolean; phone?: boolean } = {}): Promise<void> {
  const dir = shotsDir();
  if (!dir) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await nextPaint(page);
    await page.screenshot({ path: join(dir, `${name}-${scheme}.png`), fullPage: options.fullPage ?? true });
  }
  await page.emulateMedia({ colorScheme: null, reducedMotion: null });
  if (!options.phone) return;
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  // The layout's navigation slides away at a phone's width: the picture is taken when it has.
  await expect(page.getByRole('navigation', { name: 'Project menu' })).not.toBeInViewport();
  await page.screenshot({ path: join(dir, `${name}-phone.png`), fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** HOSTED_PAGE_SHOTS=<dir> saves one picture of a hosted page (sign-in, account) as the person sees it now. */
export async function saveHostedShot(page: Page, name: string): Promise<void> {
  const dir = process.env.HOSTED_PAGE_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
