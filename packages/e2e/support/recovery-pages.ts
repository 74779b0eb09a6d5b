import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { nextPaint } from './shots.ts';

// Account recovery (issue 37, docs/decisions/0051): recovery codes on the account page, "Use a
// recovery code" on the sign-in page, a re-enrollment link from the console's user page.

/** "Create recovery codes" on the account page: the page that shows them once. */
export async function createRecoveryCodes(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: /^Create (new )?recovery codes$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your recovery codes' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download as a text file' })).toBeVisible();
  const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  return codes.map((c) => c.trim());
}

/** The account page says how many codes are left. */
export async function expectRecoveryCodesLeft(page: Page, left: number): Promise<void> {
  await expect(page.getByText(`${left} of 10 recovery codes left.`)).toBeVisible();
}

/** Page 1's "Use a recovery code": the page that asks for the identity and a code. */
export async function clickUseRecoveryCode(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Use a recovery code' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in with a recovery code' })).toBeVisible();
}

export async function fillRecoveryCodeAndContinue(page: Page, email: string, code: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The console's user page of `identity`, opened from the users list. */
export async function goToUserPage(page: Page, projectId: string, identity: string): Promise<void> {
  await page.goto(`/project/${projectId}/users`);
  await page.getByRole('link', { name: `Open ${identity}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'User' })).toBeVisible();
}

/** On the console's user page, its Recovery section states `text` (e.g. "9 left"). */
export async function expectUserRecovery(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('region', { name: 'Recovery' })).toContainText(text);
}

/** "Create a re-enrollment link": the one-time dialog; answers the link, the dialog left open. */
export async function createReenrollmentLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Create a re-enrollment link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Re-enrollment link' });
  await expect(dialog).toBeVisible();
  return dialog.getByRole('textbox', { name: 'Link' }).inputValue();
}

export async function acknowledgeLinkCopied(page: Page): Promise<void> {
  await page.getByRole('dialog', { name: 'Re-enrollment link' }).getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** The re-enrollment link's page, then its "Create a passkey": the page says it is done. */
export async function reenrollWithLink(page: Page, link: string, projectName: string): Promise<void> {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: `Create a passkey for ${projectName}` })).toBeVisible();
}

export async function expectReenrolled(page: Page): Promise<void> {
  await expect(page.getByRole('status')).toHaveText('Your new passkey is ready. You can sign in with it now.');
}

/**
 * CONSOLE_SHOTS=<dir>: the page as it is now, light, dark and at a phone's width, without loading it
 * again (the recovery codes are shown once: opened again, the page is the account page).
 */
export async function saveShownOnceShots(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SHOTS;
  if (!dir) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await nextPaint(page);
    await page.screenshot({ path: join(dir, `${name}-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await nextPaint(page);
  await page.screenshot({ path: join(dir, `${name}-phone.png`), fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** General settings' "New passkey after an email sign-in": the delay chosen (the form is saved by the caller). */
export async function chooseEmailRecoveryDelay(page: Page, delay: 'At once' | 'After 24 hours' | 'After 72 hours'): Promise<void> {
  const field = page.getByRole('combobox', { name: 'New passkey after an email sign-in' });
  await field.click();
  await page.getByRole('option', { name: delay }).click();
  await expect(field).toHaveValue(delay);
}

/** On a passkey page, "Email me a code instead": the code page follows. */
export async function clickEmailMeACode(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Email me a code instead' }).click();
}

/** The account page's "Create a passkey" while an email recovery waits: the page says until when. */
export async function expectPasskeyWaits(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'A new passkey has to wait' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('a new passkey can be added from');
}

/** The "This wasn't me" link of the newest notice the server wrote for `email` (its log, a JSON line, without SMTP). */
export async function readThisWasntMeLink(email: string): Promise<string> {
  const file = process.env.LATCHKEY_LOG;
  if (!file) throw new Error('LATCHKEY_LOG is not set: is global setup running?');
  const links = () =>
    [...readFileSync(file, 'utf8').matchAll(/Account notice for ([^\s"]+): email_sign_in (https?:\/\/[^\s"]+)/g)]
      .filter((m) => m[1] === email)
      .map((m) => m[2] as string);
  await expect.poll(() => links().length, { message: `a notice mailed to ${email}` }).toBeGreaterThan(0);
  return links().at(-1) as string;
}

/** "This wasn't me": the page asks, its button stops the recovery. */
export async function openThisWasntMe(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Was this not you?' })).toBeVisible();
}

export async function clickStopRecovery(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Stop the recovery' }).click();
  await expect(page.getByRole('status')).toHaveText('The recovery was stopped. No passkey can be added with it.');
}
