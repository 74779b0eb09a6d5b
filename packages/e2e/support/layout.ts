import { expect, type Page } from '@playwright/test';

// The console's frame around every page: top bar, project switcher, side menu, breadcrumbs, the
// 403/404 messages, the closed-project banner and the session-expired modal.

export const FORBIDDEN_TEXT = "You don't have permissions to view this page";
export const NOT_FOUND_TEXT = 'The requested page could not be found';

export async function expectBreadcrumb(page: Page, ...texts: string[]): Promise<void> {
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('link', { name: 'Projects' })).toBeVisible();
  for (const text of texts) await expect(breadcrumb).toContainText(text);
}

export async function expectSideMenu(page: Page, items: string[]): Promise<void> {
  const menu = page.getByRole('navigation', { name: 'Project menu' });
  for (const item of items) await expect(menu.getByRole('link', { name: item, exact: true })).toBeVisible();
}

/**
 * Small screens: the side menu is moved out of view (the top bar's Menu replaces it). Waits for the
 * Menu button first, so it is not passed by a page that has not drawn its layout yet.
 */
export async function expectNoSideMenu(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Project menu' })).not.toBeInViewport();
}

export async function clickSwitchProject(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Switch project' }).click();
}

/** An item of the open dropdown (project switcher, small-screen Menu). */
export async function clickMenuItem(page: Page, name: string): Promise<void> {
  await page.getByRole('menuitem', { name, exact: true }).click();
}

export async function expectMenuItem(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('menuitem', { name })).toBeVisible();
}

/** The top bar's Menu button (small screens). */
export async function clickMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Menu' }).click();
}

export async function clickLogOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
}

export async function clickBreadcrumbProjects(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
}

export async function expectForbidden(page: Page): Promise<void> {
  await expect(page.getByText(FORBIDDEN_TEXT)).toBeVisible();
}

export async function expectNotFound(page: Page): Promise<void> {
  await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();
}

export async function expectClosedBanner(page: Page): Promise<void> {
  await expect(page.getByRole('alert').filter({ hasText: 'This project is disabled' })).toBeVisible();
}

export function sessionExpiredModal(page: Page) {
  return page.getByRole('dialog', { name: 'Session expired' });
}

export async function expectSessionExpiredModal(page: Page): Promise<void> {
  await expect(sessionExpiredModal(page)).toBeVisible();
}

export async function clickLogInAgain(page: Page): Promise<void> {
  await sessionExpiredModal(page).getByRole('button', { name: 'Log in' }).click();
}

export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
}

/** The declined page of a failed sign-in (spec §2). */
export async function expectDeclined(page: Page, reason: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Authentication Declined' })).toBeVisible();
  await expect(page.getByText(reason, { exact: true })).toBeVisible();
}

export async function clickTryAgain(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Try again' }).click();
}

export async function expectTryAgain(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
}

/** Some text on the page, wherever it is. */
export async function expectText(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.getByText(text).first()).toBeVisible();
}

export async function expectTextAbsent(page: Page, text: string): Promise<void> {
  await expect(page.getByText(text)).toHaveCount(0);
}

/** A text the page shows in one place (strict, as `getByText` is: a second place fails). */
export async function expectTextOnce(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.getByText(text)).toBeVisible();
}

/** A notification or banner (role alert) that says `text`. */
export async function expectAlert(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('alert').filter({ hasText: text })).toBeVisible();
}
