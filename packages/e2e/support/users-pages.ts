import { expect, type Locator, type Page } from '@playwright/test';
import { listRows } from './devices-pages.ts';

// The users pages (issue 24): the list of a project's end users and one user's page.

export async function goToUsers(page: Page, projectId: string): Promise<void> {
  await page.goto(`/project/${projectId}/users`);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
}

export function userRow(page: Page, identity: string): Locator {
  return listRows(page, 'Users').filter({ hasText: identity });
}

export async function expectUserRow(page: Page, identity: string, status: 'Active' | 'Blocked'): Promise<void> {
  await expect(userRow(page, identity)).toHaveCount(1);
  await expect(userRow(page, identity)).toContainText(status);
}

/** On a user's page: its heading, and the identity under it. */
export async function expectOnUserPage(page: Page, identity: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'User' })).toBeVisible();
  await expect(page.getByText(identity).first()).toBeVisible();
}

export async function expectUserStatus(page: Page, status: 'Active' | 'Blocked'): Promise<void> {
  await expect(page.getByText(`Status: ${status}`)).toBeVisible();
}

/** The user's passkeys table holds `count` rows. */
export async function expectUserPasskeys(page: Page, count: number): Promise<void> {
  await expect(listRows(page, 'Passkeys')).toHaveCount(count);
}

export async function expectUserSessions(page: Page, count: number): Promise<void> {
  if (count === 0) await expect(page.getByText('No open session.')).toBeVisible();
  else await expect(listRows(page, 'Sessions')).toHaveCount(count);
}

/** Some open sessions are listed. */
export async function expectUserSessionsShown(page: Page): Promise<void> {
  await expect(listRows(page, 'Sessions').first()).toBeVisible();
}

/** Back on the users list, which no longer holds `identity`. */
export async function expectUsersListWithout(page: Page, identity: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(listRows(page, 'Users').filter({ hasText: identity })).toHaveCount(0);
}

/** A danger-zone action of the user's page: its button, then the dialog's confirm. */
export async function clickUserAction(page: Page, button: 'Block' | 'Unblock' | 'Delete', dialog: string): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.getByRole('dialog', { name: dialog }).getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByRole('dialog', { name: dialog })).toBeHidden();
}

/** The sign-in page refused a blocked user. */
export async function expectSignInBlocked(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'You cannot sign in' })).toBeVisible();
}
