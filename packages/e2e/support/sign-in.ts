import { readFileSync } from 'node:fs';
import { expect, type Browser, type Page } from '@playwright/test';

export const OWNER_EMAIL = 'owner@latchkey.test';

let counter = 0;
/** A fresh address for one scenario, so scenarios never share accounts. */
export function newEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@latchkey.test`;
}

function logText(): string {
  const file = process.env.LATCHKEY_LOG;
  if (!file) throw new Error('LATCHKEY_LOG is not set: is global setup running?');
  return readFileSync(file, 'utf8');
}

const CODE_LINE = /Sign-in code for (\S+): (\d{6})/g;

function codesFor(email: string): string[] {
  return [...logText().matchAll(CODE_LINE)].filter((m) => m[1] === email).map((m) => m[2] as string);
}

/** The newest sign-in code the server wrote for `email` after `before` codes had been written. */
export async function readCode(email: string, before: number): Promise<string> {
  await expect.poll(() => codesFor(email).length, { message: `a sign-in code mailed to ${email}` }).toBeGreaterThan(before);
  const codes = codesFor(email);
  return codes[codes.length - 1] as string;
}

/** On the built-in provider's page: type the email, then the mailed code. */
export async function fillSignInForm(page: Page, email: string): Promise<void> {
  const before = codesFor(email).length;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = await readCode(email, before);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the console signed out, signs in through the built-in provider, lands on `path`. */
export async function signIn(page: Page, email: string, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByLabel('Email')).toBeVisible();
  await fillSignInForm(page, email);
  await expectSignedIn(page);
}

/** The top bar offers to log out (on small screens, inside its Menu). */
export async function expectSignedIn(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Log out' }).or(page.getByRole('button', { name: 'Menu' }))).toBeVisible();
}

/** A second person in their own browser context (own cookies), signed in as `email`. */
export async function signInInNewContext(browser: Browser, baseURL: string, email: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, email);
  return { page, close: () => context.close() };
}
