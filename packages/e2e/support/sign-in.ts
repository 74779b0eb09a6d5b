import { readFileSync } from 'node:fs';
import { api, API_BASE_PATH } from '@latchkey/domain';
import { expect, type Browser, type Page } from '@playwright/test';

export const OWNER_EMAIL = 'owner@latchkey.test';

let counter = 0;
/** A fresh address for one scenario, so scenarios never share accounts. */
export function newEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@latchkey.test`;
}

/** The server's log (global setup's, unless a scenario started a server of its own). */
function logText(file = process.env.LATCHKEY_LOG): string {
  if (!file) throw new Error('LATCHKEY_LOG is not set: is global setup running?');
  return readFileSync(file, 'utf8');
}

const CODE_LINE = /Sign-in code for (\S+): (\d{6})/g;

function codesFor(email: string, logFile?: string): string[] {
  return [...logText(logFile).matchAll(CODE_LINE)].filter((m) => m[1] === email).map((m) => m[2] as string);
}

/** How many sign-in codes the server has written for `email` so far. */
export function countCodesSentTo(email: string, logFile?: string): number {
  return codesFor(email, logFile).length;
}

/** The newest sign-in code the server wrote for `email` after `before` codes had been written (in `logFile`, default global setup's server's). */
export async function readCode(email: string, before: number, logFile?: string): Promise<string> {
  await expect.poll(() => codesFor(email, logFile).length, { message: `a sign-in code mailed to ${email}` }).toBeGreaterThan(before);
  const codes = codesFor(email, logFile);
  return codes[codes.length - 1] as string;
}

// The built-in provider's sign-in page.

export async function expectSignInPage(page: Page): Promise<void> {
  await expect(page.getByLabel('Email')).toBeVisible();
}

/** Types the email and asks for a code; answers how many codes that address had before. */
export async function fillEmailAndContinue(page: Page, email: string): Promise<number> {
  const before = codesFor(email).length;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  return before;
}

export async function expectCodeStep(page: Page, email: string): Promise<void> {
  await expect(page.getByLabel('Code')).toBeVisible();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
}

export async function fillCodeAndSignIn(page: Page, code: string): Promise<void> {
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** After a code was sent: either the provider refused it, or the console is signed in. */
export async function expectCodeRefusedOrSignedIn(page: Page): Promise<'refused' | 'signedIn'> {
  const refused = page.getByText('That code is not right');
  await expect(refused.or(page.getByRole('button', { name: 'Log out' }))).toBeVisible();
  return (await refused.isVisible()) ? 'refused' : 'signedIn';
}

export async function clickCancelSignIn(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Cancel' }).click();
}

export async function clickUseDifferentEmail(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Use a different email' }).click();
}

/**
 * After the code, an administrator without a passkey is offered one (docs/decisions/0027): "Not now"
 * goes on to the console. Answers whether the offer was shown.
 */
export async function declinePasskeyOfferIfShown(page: Page): Promise<boolean> {
  const notNow = page.getByRole('button', { name: 'Not now' });
  await expect(notNow.or(page.getByRole('button', { name: 'Log out' })).or(page.getByRole('button', { name: 'Menu' }))).toBeVisible();
  if (!(await notNow.isVisible())) return false;
  await notNow.click();
  return true;
}

/** On the built-in provider's page: type the email, then the mailed code; no passkey for now. */
export async function fillSignInForm(page: Page, email: string): Promise<void> {
  const before = await fillEmailAndContinue(page, email);
  await fillCodeAndSignIn(page, await readCode(email, before));
  await declinePasskeyOfferIfShown(page);
}

/** The sign-in page or the signed-in console, whichever shows (the provider may remember the browser). */
export async function signInAgainIfAsked(page: Page, email: string): Promise<void> {
  const emailField = page.getByLabel('Email');
  const loggedIn = page.getByRole('button', { name: 'Log out' });
  // Behind an expired session's modal the console still shows Log out: wait until the page it left
  // for (the provider's, or the console again) has replaced it.
  await expect(page.getByRole('dialog', { name: 'Session expired' })).toBeHidden();
  await expect(emailField.or(loggedIn)).toBeVisible();
  if (await emailField.isVisible()) await fillSignInForm(page, email);
  await expect(loggedIn).toBeVisible();
}

/** Opens the console signed out, signs in on the built-in provider's pages, lands on `path`. */
export async function signInThroughPages(page: Page, email: string, path = '/'): Promise<void> {
  await page.goto(path);
  await expectSignInPage(page);
  await fillSignInForm(page, email);
  await expectSignedIn(page);
}

/** The address a form of a provider page posts to (the page's own address when it names none). */
function formAction(html: string, field: string, pageUrl: string): string {
  for (const [, attributes, body] of html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
    if (!body?.includes(`name="${field}"`)) continue;
    const action = /action="([^"]*)"/.exec(attributes ?? '')?.[1]?.replace(/&amp;/g, '&');
    return new URL(action ?? pageUrl, pageUrl).href;
  }
  throw new Error(`no form with a ${field} field at ${pageUrl}`);
}

/**
 * Signs `email` in as the console and the provider's pages do, call by call, without drawing them
 * (issue 20: only the scenarios about signing in walk its pages): the provider's address from
 * GET authurl, the address and the mailed code posted to its forms, the code it returns exchanged
 * by POST login. The session's cookies land in the page's browser context; then `path` opens.
 */
export async function signIn(page: Page, email: string, path = '/', server?: { url: string; logFile: string }): Promise<void> {
  const http = page.request;
  const base = server?.url ?? process.env.LATCHKEY_URL;
  if (!base) throw new Error('LATCHKEY_URL is not set: is global setup running?');
  const redirectURL = `${base}/login`;
  const started = await http.get(`${API_BASE_PATH}${api.getAuthUrl.path}`, { params: { redirectURL } });
  expect(started.ok(), `GET authurl: ${started.status()}`).toBe(true);
  const { authUrl } = (await started.json()) as { authUrl: string };

  const emailPage = await http.get(authUrl);
  expect(emailPage.ok(), `the provider's first page: ${emailPage.status()}`).toBe(true);
  const before = codesFor(email, server?.logFile).length;
  const codePage = await http.post(formAction(await emailPage.text(), 'email', emailPage.url()), { form: { email } });
  expect(codePage.ok(), `the address posted: ${codePage.status()}`).toBe(true);
  const code = await readCode(email, before, server?.logFile);
  let returned = await http.post(formAction(await codePage.text(), 'code', codePage.url()), { form: { code } });
  // The passkey offer to an administrator without one (docs/decisions/0027): "Not now".
  if (new URL(returned.url()).pathname.endsWith('/register')) {
    returned = await http.post(formAction(await returned.text(), 'skip', returned.url()), { form: { skip: '1' } });
  }
  const back = new URL(returned.url());
  const exchanged = back.searchParams.get('code');
  expect(exchanged, `the provider returned to ${back.pathname}${back.search}`).toBeTruthy();

  const state = back.searchParams.get('state');
  const login = await http.post(`${API_BASE_PATH}${api.login.path}`, {
    data: { code: exchanged, redirectURL, ...(state ? { state } : {}) },
  });
  expect(login.ok(), `POST login: ${login.status()} ${await login.text()}`).toBe(true);
  await page.goto(path);
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
