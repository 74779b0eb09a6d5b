import { expect, type Page } from '@playwright/test';

// A project's accounts (issue 12): the list, the create staff account and create service account
// forms with their permission checkboxes, the one-time token dialog and an account's settings.
// The forms' Create button is project-pages.ts's (clickCreate, expectCreateEnabled).

export async function clickAddUser(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Add user' }).click();
}

/** The staff account form's Email. */
export async function fillAccountEmail(page: Page, email: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
}

/** The service account form's Name. */
export async function fillAccountName(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
}

/** A permission of the form's "This project" group ('select all' is the parent of the others). */
function permission(page: Page, name: string) {
  return page.getByRole('group', { name: 'This project' }).getByRole('checkbox', { name, exact: true });
}

export async function checkPermission(page: Page, name: string): Promise<void> {
  await permission(page, name).check();
}

export async function uncheckPermission(page: Page, name: string): Promise<void> {
  await permission(page, name).uncheck();
}

/** A permission checkbox: first whether it can be changed, then whether it is checked. */
export async function expectPermission(page: Page, name: string, state: { enabled: boolean; checked: boolean }): Promise<void> {
  const checkbox = permission(page, name);
  if (state.enabled) await expect(checkbox).toBeEnabled();
  else await expect(checkbox).toBeDisabled();
  if (state.checked) await expect(checkbox).toBeChecked();
  else await expect(checkbox).not.toBeChecked();
}

function accountRow(page: Page, email: string) {
  return page.getByRole('row', { name: new RegExp(email) });
}

/** The account's row in the list says each of `texts` (its status, its permissions). */
export async function expectAccountRow(page: Page, email: string, texts: string[]): Promise<void> {
  for (const text of texts) await expect(accountRow(page, email)).toContainText(text);
}

export async function expectAccountRowWithout(page: Page, email: string, text: string): Promise<void> {
  await expect(accountRow(page, email)).not.toContainText(text);
}

function tokenDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Service account token' });
}

/** The new service account's token, as its one-time dialog shows it. */
export async function readServiceAccountToken(page: Page): Promise<string> {
  return tokenDialog(page).getByRole('textbox', { name: 'Token' }).inputValue();
}

/** The token dialog's acknowledgement ("I have copied it"). */
export async function clickTokenCopied(page: Page): Promise<void> {
  await tokenDialog(page)
    .getByRole('button', { name: /copied/i })
    .click();
}

/** The list's link to an account's settings ("Manage <name>"). */
export async function clickManageAccount(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: `Manage ${name}` }).click();
}

/** On a service account's settings: Revoke token, then the confirm dialog's Revoke token. */
export async function clickRevokeToken(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Revoke token' }).click();
  await page.getByRole('dialog', { name: 'Revoke the token?' }).getByRole('button', { name: 'Revoke token' }).click();
}

export async function expectNoToken(page: Page): Promise<void> {
  await expect(page.getByText('This service account has no token: generate one.')).toBeVisible();
}

/** The account form's Status (a segmented control: Active / Inactive). */
export async function chooseAccountStatus(page: Page, status: 'Active' | 'Inactive'): Promise<void> {
  await page.getByText(status, { exact: true }).click();
}
