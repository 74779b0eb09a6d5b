import type { Locator, Page } from '@playwright/test';
import { createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, test } from '../support/fixtures.ts';
import { newEmail, signIn } from '../support/sign-in.ts';

// issue 13 "Keyboard and screen reader": a person without a mouse reaches every action in order,
// sees where the focus is, sorts a list from its headers, and a dialog keeps the focus inside until
// it closes, then gives it back.

/** Presses Tab until `target` has the focus (at most `max` times): it is reachable in the tab order. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reached by Tab within ${max} presses`).toBeFocused();
}

/** The focused element shows a focus indicator: an outline of at least 2px that is not transparent. */
async function expectVisibleFocus(target: Locator): Promise<void> {
  const ring = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    return { width: parseFloat(style.outlineWidth), style: style.outlineStyle, color: style.outlineColor };
  });
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThanOrEqual(2);
  expect(ring.color).not.toMatch(/rgba\(.*,\s*0\)|transparent/);
}

test('a keyboard user skips to the page, sorts the applications by a header, and a dialog holds and gives back the focus', async ({ page }) => {
  await signIn(page, newEmail('keyboard'));
  const projectId = await createProjectThroughApi(page, `Keys ${Date.now().toString(36)}`);
  await createAppWithKeysThroughApi(page, projectId, ['https://alpha.example.com/callback']);
  await createAppWithKeysThroughApi(page, projectId, ['https://beta.example.com/callback']);

  await test.step('the first Tab offers "Skip to content", which moves the focus to the page', async () => {
    await page.goto(`/project/${projectId}/apps`);
    await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await expectVisibleFocus(skip);
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/apps$`));
  });

  await test.step('Tab reaches the Name header; Enter sorts by it and says so (aria-sort)', async () => {
    const header = page.getByRole('columnheader', { name: /Name/ });
    const button = header.getByRole('button');
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await tabTo(page, button);
    await expectVisibleFocus(button);
    await page.keyboard.press('Enter');
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(button).toBeFocused();
  });

  await test.step('the settings history drawer keeps the focus inside, Escape closes it and the focus is back on its button', async () => {
    await page.goto(`/project/${projectId}/settings`);
    const open = page.getByRole('button', { name: 'History' });
    await tabTo(page, open);
    await expectVisibleFocus(open);
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      expect(await drawer.evaluate((el) => el.contains(document.activeElement)), `focus inside the dialog after ${i + 1} Tab`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(open).toBeFocused();
  });
});
