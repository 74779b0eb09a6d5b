import { randomInt } from 'node:crypto';
import { test as base, expect, type Page } from '@playwright/test';
import { axeViolations, described } from './axe.ts';

/** A client address of the benchmarking range (198.18.0.0/15), a new one for each scenario. */
function scenarioAddress(): string {
  const n = randomInt(1, 2 ** 17 - 2);
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * The scenarios' `test`: the base URL is the server global setup started. Each scenario's page is a
 * client of its own, as each person is (global setup trusts loopback as a proxy): the sign-in limits
 * per client address (decision 0006) count scenarios apart instead of the whole suite as one
 * network. Contexts a scenario opens itself (its end users) come from loopback.
 */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
  baseURL: async ({}, use) => {
    const url = process.env.LATCHKEY_URL;
    if (!url) throw new Error('LATCHKEY_URL is not set: is global setup running?');
    await use(url);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
  extraHTTPHeaders: async ({}, use) => {
    await use({ 'x-forwarded-for': scenarioAddress() });
  },
});
export { expect };

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  // A dialog or menu still fading in has blended colours that fail the contrast rule: wait until
  // every finite animation and transition has ended (a spinner's endless one does not count).
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  const bad = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(described(bad)).toEqual([]);
}
