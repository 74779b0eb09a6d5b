import { expect, type Page } from '@playwright/test';

// Page 1 of a project on its own host, passkey first (docs/decisions/0047), and the states it shows.

/** Page 1's Continue (the address, then the emailed code) in the page's language. */
const CONTINUE = { en: 'Continue', fr: 'Continuer', ro: 'Continuați' } as const;

/** "Sign in with a passkey" in the page's language. */
const PASSKEY_BUTTON = { en: 'Sign in with a passkey', fr: 'Se connecter avec une clé d’accès', ro: 'Conectați-vă cu o cheie de acces' } as const;
export type PageLanguage = keyof typeof PASSKEY_BUTTON;

const passkeyButton = (page: Page, language: PageLanguage = 'en') => page.getByRole('button', { name: PASSKEY_BUTTON[language] });
const phoneButton = (page: Page) => page.getByRole('button', { name: 'Use a phone or another device' });

/**
 * Page 1 offers passkeys: the button, the phone's, and the field's autofill ("username webauthn");
 * the passkey leads (docs/decisions/0048): its button is the page's first, above the address's Continue.
 */
export async function expectPasskeyFirstPage(page: Page, language: PageLanguage = 'en'): Promise<void> {
  await expect(passkeyButton(page, language)).toBeVisible();
  await expect(page.getByRole('button').first()).toHaveText(PASSKEY_BUTTON[language]);
  const passkeyTop = (await passkeyButton(page, language).boundingBox())?.y ?? Infinity;
  const continueTop = (await page.getByRole('button', { name: CONTINUE[language], exact: true }).boundingBox())?.y ?? -Infinity;
  expect(passkeyTop).toBeLessThan(continueTop);
  if (language === 'en') await expect(phoneButton(page)).toBeVisible();
  // Page 1's one field, the address: the browser offers passkeys in its autofill.
  await expect(page.getByRole('textbox')).toHaveAttribute('autocomplete', 'username webauthn');
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
  const alert = page.getByRole('alert');
  await expect(alert).toBeVisible();
  if (language === 'en') await expect(alert).toHaveText(/No passkey was used\. If this device has none, use a phone or another device/);
  await expect(page.getByRole('button', { name: CONTINUE[language], exact: true })).toBeVisible();
}

/** A browser without WebAuthn: no passkey button, and a line saying why. */
export async function expectNoWebAuthn(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await expect(page.getByText('This browser cannot use passkeys. Continue with your address below.')).toBeVisible();
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

/** The console's sign-in page (its issuer under /idp) has opened: after Log out, before any passkey signs in again. */
export async function waitForConsoleSignInPage(page: Page): Promise<void> {
  await page.waitForURL(/\/idp\/interaction\//);
}

/** The console's page 1 at a phone's width as well (its shots helper takes the console's layout; this page has none). */
export async function atPhoneWidth(page: Page, run: () => Promise<void>): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await run();
  if (size) await page.setViewportSize(size);
}

/** The console's page 1 refused a passkey of an application's sign-in (docs/decisions/0048), and still offers the passkey and the address. */
export async function expectPasskeyNotForConsole(page: Page): Promise<void> {
  await expect(page.getByRole('alert')).toHaveText(/^This passkey is not for the Latchkey console/);
  await expectPasskeyFirstPage(page);
}
