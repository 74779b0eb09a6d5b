import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { nextPaint } from './shots.ts';

// The end user's own page at a project's issuer, `{issuer}/account` (issue 24, docs/decisions/0040).

export async function goToAccountPage(page: Page, issuer: string): Promise<void> {
  await page.goto(`${issuer}/account`);
}

/** The project's sign-in page 1, where the account page sends a browser not signed in. */
export async function expectSignInPageOf(page: Page, projectName: string): Promise<void> {
  await expect(page.getByRole('heading', { name: `Sign in to ${projectName}` })).toBeVisible();
}

export async function expectAccountPage(page: Page, projectName: string, identity: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: `Your ${projectName} account` })).toBeVisible();
  await expect(page.getByText(`Signed in as ${identity}`)).toBeVisible();
}

/** The passkeys the page lists, each an item with its name; `current`: the one this browser signed in with is marked. */
export async function expectPasskeyListed(page: Page, name: string, options: { current?: boolean } = {}): Promise<void> {
  // A passkey's item (with its dates); a session's names its passkey too.
  const item = page
    .getByRole('listitem')
    .filter({ has: page.getByText(name, { exact: true }) })
    .filter({ has: page.getByText('Last used', { exact: true }) });
  await expect(item).toHaveCount(1);
  if (options.current) await expect(item.getByText('Used to sign in here')).toBeVisible();
}

export async function expectThisBrowserSession(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 2, name: 'Where you are signed in' })).toBeVisible();
  await expect(page.getByText('This browser', { exact: true })).toBeVisible();
}

/** "Rename" under the passkey, the new name, Save; the page says it was renamed. */
export async function renamePasskey(page: Page, from: string, to: string): Promise<void> {
  await page.getByText(`Rename ${from}`).click();
  const field = page.getByLabel('Passkey name');
  await field.fill(to);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toHaveText('The passkey was renamed.');
}

/** "Create a passkey" under "Add a device": the page that runs the browser's dialog. */
export async function openCreatePasskey(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create a passkey' })).toBeVisible();
}

export async function clickBackToAccount(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Back to your account' }).click();
}

export async function clickRemovePasskey(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: `Remove ${name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Remove this passkey?' })).toBeVisible();
}

/** The confirm of the last passkey warns that the next sign-in needs the emailed code. */
export async function expectLastPasskeyWarning(page: Page): Promise<void> {
  await expect(page.getByText('This is your last passkey. Your next sign-in will need a code sent to your email.')).toBeVisible();
}

export async function confirmRemove(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
}

const LOCALES: Record<string, string> = { en: 'en-GB', fr: 'fr-FR', ro: 'ro-RO' };

/**
 * CONSOLE_SHOTS=<dir>: the page light and dark, at a laptop's and a phone's width, in each language
 * (`{name}-{language}-{light|dark|phone}.png`): a browser of that locale with this one's cookies.
 */
export async function saveAccountShots(page: Page, name: string, languages: readonly string[] = ['en']): Promise<void> {
  const dir = process.env.CONSOLE_SHOTS;
  const browser = page.context().browser();
  if (!dir || !browser) return;
  const storageState = await page.context().storageState();
  for (const language of languages) {
    const context = await browser.newContext({ locale: LOCALES[language] ?? language, storageState });
    const shot = await context.newPage();
    await shot.goto(page.url());
    for (const scheme of ['light', 'dark'] as const) {
      await shot.emulateMedia({ colorScheme: scheme });
      await nextPaint(shot);
      await shot.screenshot({ path: join(dir, `${name}-${language}-${scheme}.png`), fullPage: true });
    }
    await shot.emulateMedia({ colorScheme: null });
    await shot.setViewportSize({ width: 390, height: 844 });
    await shot.screenshot({ path: join(dir, `${name}-${language}-phone.png`), fullPage: true });
    await context.close();
  }
}
