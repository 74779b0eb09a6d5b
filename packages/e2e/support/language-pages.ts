import { expect, type Page, type Request } from '@playwright/test';
import { catalogueKeys, englishOnlyPhrases, type Translated } from './catalogues.ts';

// The console's languages (issue 13): the top bar's language menu, the language a page declares and
// speaks, and the page signed-out visitors land on.

/** The top bar's language menu: named "Language: <the language now>" whatever it is. */
export async function clickLanguage(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /: (English|Français|Română)$/ }).click();
  // A signed-in account keeps its language on the server: the next page load reads it from there,
  // so the choice is done once that call has answered (the page switches before it does).
  const saving = page.waitForRequest((r) => r.url().endsWith('/api/account/language') && r.method() === 'PUT', { timeout: 2000 }).catch(() => null);
  await page.getByRole('menuitem', { name }).click();
  await expect(page.getByRole('button', { name: new RegExp(`: ${name}$`) })).toBeVisible();
  await (await saving)?.response();
}

/** The requests a page has in flight, and when that last changed (watchRequests). */
const traffic = new WeakMap<Page, { inFlight: Set<Request>; changedAt: number }>();

/** Counts the page's requests from now on, for expectPageSettled: call it before the page's first load. */
export function watchRequests(page: Page): void {
  if (traffic.has(page)) return;
  const watched = { inFlight: new Set<Request>(), changedAt: Date.now() };
  const ended = (request: Request) => {
    watched.inFlight.delete(request);
    watched.changedAt = Date.now();
  };
  page.on('request', (request) => {
    watched.inFlight.add(request);
    watched.changedAt = Date.now();
  });
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  traffic.set(page, watched);
}

/** How long the network must have been quiet: no request in flight, none started or ended. */
const QUIET_MS = 150;

/**
 * The page has its title and has finished asking the server (lists, charts and forms filled in):
 * no request in flight for a moment, and no loader and no visible skeleton of the component
 * library left.
 */
export async function expectPageSettled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const watched = traffic.get(page);
  if (!watched) throw new Error('expectPageSettled counts the requests watchRequests(page) sees: call it before the first load');
  // Quiet for QUIET_MS from now at the earliest: requests the page is about to report count.
  const since = Date.now();
  await expect
    .poll(() => watched.inFlight.size === 0 && Date.now() - Math.max(watched.changedAt, since) >= QUIET_MS, {
      message: 'the page has no request in flight',
      intervals: [50],
      timeout: 60_000,
    })
    .toBe(true);
  await expect(page.locator('.mantine-Loader-root, .mantine-Skeleton-root[data-visible="true"]')).toHaveCount(0);
}

/** The page declares its language (`<html lang>`). */
export async function expectPageLanguage(page: Page, language: string): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** What the page shows is in `language`: no English run of the catalogues, no key, the right lang. */
export async function expectSpeaks(page: Page, language: Translated | 'en', where: string): Promise<void> {
  await expectPageLanguage(page, language);
  const text = await page.locator('body').innerText();
  if (language !== 'en') {
    const english = englishOnlyPhrases(language).filter((phrase) => text.includes(phrase));
    expect(english, `English left on ${where} (${language})`).toEqual([]);
  }
  const keys = catalogueKeys().filter((key) => new RegExp(`(^|\\s)${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(text));
  expect(keys, `catalogue keys shown on ${where} (${language})`).toEqual([]);
}

/** A failed sign-in's page offers to try again, as a link or a button, in the visitor's language. */
export async function expectTryAgainIn(page: Page, tryAgain: string): Promise<void> {
  await expect(page.getByRole('link', { name: tryAgain }).or(page.getByRole('button', { name: tryAgain }))).toBeVisible();
}
