import { expect, type Page } from '@playwright/test';

// Page 1 of a project on its own host, passkey first (docs/decisions/0047), and the states it shows.

/** "Sign in with a passkey" in the page's language. */
const PASSKEY_BUTTON = { en: 'Sign in with a passkey', fr: 'Se connecter avec une clé d’accès', ro: 'Conectați-vă cu o cheie de acces' } as const;
export type PageLanguage = keyof typeof PASSKEY_BUTTON;

const passkeyButton = (page: Page, language: PageLanguage = 'en') => page.getByRole('button', { name: PASSKEY_BUTTON[language] });
const phoneButton = (page: Page) => page.getByRole('button', { name: 'Use a phone or another device' });

/** Page 1 offers passkeys: the button, the phone's, and the field's autofill ("username webauthn"). */
export async function expectPasskeyFirstPage(page: Page, language: PageLanguage = 'en'): Promise<void> {
  await expect(passkeyButton(page, language)).toBeVisible();
  if (language === 'en') await expect(phoneButton(page)).toBeVisible();
  await expect(page.locator('input#email')).toHaveAttribute('autocomplete', 'username webauthn');
}

/** The page's scripts must have run for the buttons to ask the browser (clickCreatePasskey's reason). */
export async function clickPasskeyButton(page: Page, language: PageLanguage = 'en'): Promise<void> {
  await page.waitForLoadState('load');
  await passkeyButton(page, language).click();
}

export async function clickUsePhone(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await phoneButton(page).click();
}

export async function expectInvalidAddress(page: Page): Promise<void> {
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
}

/** The browser's dialog dismissed, or no passkey on this device: what to do next, and Continue (the fallback) at hand. */
export async function expectNoPasskeyUsed(page: Page, language: PageLanguage = 'en'): Promise<void> {
  const alert = page.locator('#passkey-error');
  await expect(alert).toBeVisible();
  if (language === 'en') await expect(alert).toHaveText(/No passkey was used\. If this device has none, use a phone or another device/);
  await expect(page.locator('button.primary[type="submit"]')).toBeVisible();
}

/** A browser without WebAuthn: no passkey button, and a line saying why. */
export async function expectNoWebAuthn(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await expect(page.getByText('This browser cannot use passkeys. Continue with your address above.')).toBeVisible();
  await expect(passkeyButton(page)).toBeHidden();
  await expect(phoneButton(page)).toBeHidden();
}

export async function expectRevokedWithFallback(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'This passkey was revoked' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Email me a code instead' })).toBeVisible();
}

export async function expectProjectClosed(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'This project is closed' })).toBeVisible();
}
