import { expect, type Locator, type Page } from '@playwright/test';

export async function goToApps(page: Page, projectId: string): Promise<void> {
  await page.goto(`/project/${projectId}/apps`);
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
}

export async function fillRedirectUrls(page: Page, urls: string[]): Promise<void> {
  for (const [i, url] of urls.entries()) {
    const field = page.getByRole('textbox', { name: `Redirect URL ${i + 1}`, exact: true });
    if (!(await field.isVisible())) await page.getByRole('button', { name: 'Add redirect URL' }).click();
    await field.fill(url);
  }
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

export function confirmDialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title });
}
