import { expect, type Page } from '@playwright/test';

// The applications list, the create form, the one-time secret dialog and the settings page.

export async function goToApps(page: Page, projectId: string): Promise<void> {
  await page.goto(`/project/${projectId}/apps`);
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
}

export async function expectNoRecords(page: Page): Promise<void> {
  await expect(page.getByText('No records found')).toBeVisible();
}

export async function clickAddApplication(page: Page, projectId: string): Promise<void> {
  await page.getByRole('link', { name: 'Add application' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/app/create$`));
}

/** The list offers no Add application (a closed project). */
export async function expectNoAddApplication(page: Page): Promise<void> {
  await expect(page.getByRole('link', { name: 'Add application' })).toHaveCount(0);
}

export async function fillAppName(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
}

export async function fillRedirectUrls(page: Page, urls: string[]): Promise<void> {
  for (const [i, url] of urls.entries()) {
    const field = page.getByRole('textbox', { name: `Redirect URL ${i + 1}`, exact: true });
    if (!(await field.isVisible())) await page.getByRole('button', { name: 'Add redirect URL' }).click();
    await field.fill(url);
  }
}

/** The create form's application type (issue 22): "Web app", "Single-page app" or "Native app". */
export async function chooseApplicationType(page: Page, label: string): Promise<void> {
  await page.getByRole('radio', { name: new RegExp(`^${label}`) }).check();
}

/** The one-time secret dialog: answers the secret it shows after checking it can be copied. */
export async function copySecretAndAcknowledge(page: Page): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'Client secret' });
  await expect(dialog).toBeVisible();
  const secretField = dialog.getByRole('textbox', { name: 'Client secret', exact: true });
  const secret = await secretField.inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await dialog.getByRole('button', { name: 'Copy Client secret' }).click();
  await expect(dialog.getByText('Copied', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  // It cannot be dismissed without the acknowledgement.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await expect(dialog).toBeHidden();
  return secret;
}

/** On the settings page: the application id of the address. */
export async function expectOnAppSettings(page: Page, projectId: string): Promise<string> {
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/app/[^/]+/settings$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Application settings' })).toBeVisible();
  return new URL(page.url()).pathname.split('/')[4] as string;
}

export async function expectField(page: Page, label: string, value: string | RegExp): Promise<void> {
  await expect(page.getByRole('textbox', { name: label, exact: true })).toHaveValue(value);
}

export async function expectFieldFilled(page: Page, label: string): Promise<void> {
  await expect(page.getByRole('textbox', { name: label, exact: true })).not.toHaveValue('');
}

/** The list's name filter; the filter goes to the address (URL hash). */
export async function fillNameFilter(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(text);
}

function appRow(page: Page, name: string) {
  return page.getByRole('row', { name: new RegExp(name) });
}

export async function expectAppRow(page: Page, name: string, type?: string): Promise<void> {
  await expect(appRow(page, name)).toBeVisible();
  if (type) await expect(appRow(page, name).getByRole('cell', { name: type })).toBeVisible();
}

export async function clickAppSettings(page: Page, name: string): Promise<void> {
  await appRow(page, name)
    .getByRole('link', { name: /settings/i })
    .click();
}

/** A danger-zone action: its button, then the confirm button of the dialog of the same title. */
export async function clickDangerAction(page: Page, action: string, confirm: string): Promise<void> {
  await page.getByRole('button', { name: action }).click();
  await page.getByRole('dialog', { name: action }).getByRole('button', { name: confirm }).click();
}

export async function expectButton(page: Page, name: string, state: 'enabled' | 'disabled' | 'visible' | 'absent'): Promise<void> {
  const button = page.getByRole('button', { name });
  if (state === 'enabled') await expect(button).toBeEnabled();
  else if (state === 'disabled') await expect(button).toBeDisabled();
  else if (state === 'visible') await expect(button).toBeVisible();
  else await expect(button).toHaveCount(0);
}
