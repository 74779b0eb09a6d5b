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

// Issue 37 "Migration" (docs/decisions/0052): the Users page's import and its progress.

/** "Import users": the file chosen in the browser's file picker. */
export async function importUsersFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import users' }).click();
  await (await chooser).setFiles(file);
}

/** The file is stored: the page says the import runs in the background and may be left. */
export async function expectImportQueued(page: Page): Promise<void> {
  await expect(page.getByText('The file is stored and is being imported in the background', { exact: false })).toBeVisible();
}

/** The newest import in the Imports table is done with `imported` people added and `refused` lines refused. */
export async function expectImportDone(page: Page, imported: number, refused: number): Promise<void> {
  const row = listRows(page, 'Imports').first();
  await expect(row).toContainText('Done');
  await expect(row.getByRole('cell').nth(3)).toHaveText(String(imported));
  await expect(row.getByRole('cell').nth(5)).toHaveText(String(refused));
}

/** The import's report: each refused line's number and why. */
export async function openImportReport(page: Page): Promise<void> {
  await listRows(page, 'Imports').first().getByRole('button', { name: 'Report' }).click();
}

export async function expectRefusedLine(page: Page, line: number, why: string): Promise<void> {
  await expect(listRows(page, 'Refused lines').filter({ hasText: why }).getByRole('cell').first()).toHaveText(String(line));
}
