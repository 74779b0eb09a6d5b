import { expect, type Page } from '@playwright/test';

// A project's hosted sign-in pages as a person reads them in any language: the scenario gives the
// texts of its language (its READS), these helpers find the headings, fields and buttons by them.
// The English pages with passkeys and QuickCodes have their helpers in passkey-pages.ts.

/** A page's heading (the sign-in page, the passkey offer, a refusal, a closed project…). */
export async function expectHeading(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

/** The project's logo, named by its display name. */
export async function expectLogo(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('img', { name })).toBeVisible();
}

/** The logo really loaded (the CSP let exactly its origin through): the image has a width of its own. */
export async function expectLogoLoaded(page: Page, name: string): Promise<void> {
  expect(await page.getByRole('img', { name }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
}

export async function expectLinkTo(page: Page, name: string, href: string): Promise<void> {
  await expect(page.getByRole('link', { name })).toHaveAttribute('href', href);
}

/** Page 1: types the email into the identity field and continues (`texts`: that field's label and the button). */
export async function fillIdentityAndContinueIn(page: Page, email: string, texts: { field: string; continue: string }): Promise<void> {
  await page.getByLabel(texts.field).fill(email);
  await page.getByRole('button', { name: texts.continue }).click();
}

/** The code page: its field, by its label. */
export async function expectCodeField(page: Page, label: string): Promise<void> {
  await expect(page.getByLabel(label)).toBeVisible();
}

/** The code page: types the mailed code and submits it (`texts`: the field's label and the button's exact name). */
export async function fillCodeAndSubmitIn(page: Page, code: string, texts: { code: string; submitCode: string }): Promise<void> {
  await page.getByLabel(texts.code).fill(code);
  await page.getByRole('button', { name: texts.submitCode, exact: true }).click();
}

/** A note on the page (the browser-data warning) says `text`. */
export async function expectNote(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('note')).toContainText(text);
}
