import { join } from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';

// Issue 37 "Enrollment" (docs/decisions/0050): the passkey offer after a fallback sign-in on the
// hosted pages, the General settings' Passkey enrollment, and the dashboard's enrollment card.

/** On the passkey step: "Email me a code instead" (a person holding a passkey on another device). */
export async function clickEmailMeACodeInstead(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Email me a code instead' }).click();
}

/** The offer the project requires: no "Not now", the way on only for a browser without passkeys. */
export async function expectRequiredPasskeyOffer(page: Page, projectName: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Create a passkey' })).toBeVisible();
  await expect(page.getByText(`${projectName} asks you to create a passkey on this device to continue.`, { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Not now' })).toHaveCount(0);
  // Chromium has WebAuthn: the page script keeps "Continue without a passkey" hidden.
  await expect(page.getByRole('button', { name: 'Continue without a passkey' })).toBeHidden();
}

function enrollmentSection(page: Page) {
  return page.getByRole('group', { name: 'Passkey enrollment' });
}

/** General settings: the mode (Off, Offer, Require), and the count of fallback sign-ins Require waits for. */
export async function chooseEnrollment(page: Page, mode: 'Off' | 'Offer' | 'Require', requireAfter?: number): Promise<void> {
  const section = enrollmentSection(page);
  await section.getByText(mode, { exact: true }).click();
  if (requireAfter !== undefined) await section.getByRole('textbox', { name: /^Require after this many sign-ins/ }).fill(String(requireAfter));
}

export async function expectEnrollment(page: Page, mode: 'Off' | 'Offer' | 'Require', requireAfter: number): Promise<void> {
  const section = enrollmentSection(page);
  await expect(section.getByRole('radio', { name: mode })).toBeChecked();
  await expect(section.getByRole('textbox', { name: /^Require after this many sign-ins/ })).toHaveValue(String(requireAfter));
}

function enrollmentCard(page: Page) {
  return page.getByRole('region', { name: 'Passkey enrollment' });
}

/** A count of the card (Shown, Passkey created, Not now, With a passkey, …) as its link reads. */
export async function expectEnrollmentCount(page: Page, label: string, value: string): Promise<void> {
  await expect(enrollmentCard(page).getByRole('link', { name: `${label}: ${value}, open these events in the audit log` })).toBeVisible();
}

/** A share of the card (Holding a passkey, Completed of started) as "n of m · p%". */
export async function expectEnrollmentShare(page: Page, label: string, text: string): Promise<void> {
  await expect(enrollmentCard(page).getByRole('progressbar', { name: `${label}: ${text}` })).toBeVisible();
}

export async function clickEnrollmentCount(page: Page, label: string): Promise<void> {
  await enrollmentCard(page)
    .getByRole('link', { name: new RegExp(`^${label}: `) })
    .click();
}

/**
 * The browser is closed and opened again: the sign-in session and the ceremony are gone, the
 * persistent "Not now" (its Max-Age cookie, docs/decisions/0050) stays.
 */
export async function reopenBrowserKeepingNotNow(context: BrowserContext): Promise<void> {
  const kept = (await context.cookies()).filter((c) => c.name === 'lk_passkey_later');
  await context.clearCookies();
  await context.addCookies(kept);
}

/** HOSTED_PAGE_SHOTS=<dir> saves a hosted page as the person sees it, light and dark, to look at it. */
export async function saveHostedShots(page: Page, name: string): Promise<void> {
  const dir = process.env.HOSTED_PAGE_SHOTS;
  if (!dir) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(dir, `${name}-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
}
