import { expect, type Locator, type Page } from '@playwright/test';

// Keyboard use (issue 13): what a person without a mouse reaches with Tab, and whether they see
// where the focus is; and the controls the keyboard scenarios move the focus to.

/** Presses Tab until `target` has the focus (at most `max` times): it is reachable in the tab order. */
export async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reached by Tab within ${max} presses`).toBeFocused();
}

/** The focused element shows a focus indicator: an outline of at least 2px that is not transparent. */
export async function expectVisibleFocus(target: Locator): Promise<void> {
  const ring = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    return { width: parseFloat(style.outlineWidth), style: style.outlineStyle, color: style.outlineColor };
  });
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThanOrEqual(2);
  expect(ring.color).not.toMatch(/rgba\(.*,\s*0\)|transparent/);
}

/** The layout's first stop: the "Skip to content" link. */
export function skipToContentLink(page: Page): Locator {
  return page.getByRole('link', { name: 'Skip to content' });
}

/** Where "Skip to content" moves the focus: the page's main content (the layout's #main). */
export function mainContent(page: Page): Locator {
  return page.locator('#main');
}

/** A column header of the list, by its name. */
export function columnHeader(page: Page, name: string | RegExp): Locator {
  return page.getByRole('columnheader', { name });
}

/** The sort button inside a column header. */
export function sortButton(header: Locator): Locator {
  return header.getByRole('button');
}

/** A settings page's History button (it opens the history drawer). */
export function historyButton(page: Page): Locator {
  return page.getByRole('button', { name: 'History' });
}

/** The dialog open on the page (a drawer is one). */
export function openDialog(page: Page): Locator {
  return page.getByRole('dialog');
}

/** The focus is inside `container` (a dialog holding it). */
export async function expectFocusInside(container: Locator, message: string): Promise<void> {
  expect(await container.evaluate((el) => el.contains(document.activeElement)), message).toBe(true);
}
