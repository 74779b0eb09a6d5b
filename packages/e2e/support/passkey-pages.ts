import { expect, type Browser, type Page } from '@playwright/test';
import type { RelyingParty } from './relying-party.ts';
import { readCode } from './sign-in.ts';

// A project's hosted sign-in pages with passkeys (docs/decisions/0013), and the test app around them.

/** The device the end user holds: the ids of the passkeys it keeps (the spec's mpinIds, base64url). */
export interface VirtualAuthenticator {
  passkeyIds(): Promise<string[]>;
  /** The relying party id each passkey it keeps was made for (docs/decisions/0049), in passkeyIds' order. */
  passkeyRpIds(): Promise<string[]>;
}

/**
 * Gives the page a platform authenticator that holds passkeys and verifies its user (Chromium's
 * WebAuthn virtual authenticator over CDP), as a phone or laptop with a screen lock would.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return {
    async passkeyIds() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      // CDP gives the credential id in base64; WebAuthn and the API name it in base64url.
      return credentials.map((c) => Buffer.from(c.credentialId, 'base64').toString('base64url'));
    },
    async passkeyRpIds() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials.map((c) => c.rpId ?? '');
    },
  };
}

/** Opens the test app, which sends the person to the project's sign-in page. */
export async function goToAppSignIn(page: Page, appUrl: string, projectName: string): Promise<void> {
  await page.goto(appUrl);
  await expect(page.getByRole('heading', { name: `Sign in to ${projectName}` })).toBeVisible();
}

export async function fillIdentityAndContinue(page: Page, email: string, label = 'Email'): Promise<void> {
  await page.getByLabel(label).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

export async function fillEmailedCodeAndSignIn(page: Page, code: string): Promise<void> {
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function expectPasskeyOffer(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Create a passkey' })).toBeVisible();
}

/**
 * The ceremony buttons work once the page's scripts ran (a click before that posts the form without
 * a passkey): wait for the load event, as a person waits for the page to finish loading.
 */
export async function clickCreatePasskey(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.getByRole('button', { name: 'Create a passkey' }).click();
}

export async function expectPasskeyStep(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Email me a code instead' })).toBeVisible();
}

export async function clickSignInWithPasskey(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
}

/** Back at the test app, which exchanged the code for tokens; answers the subject it shows. */
export async function expectSignedInAtApp(page: Page): Promise<string> {
  await expect(page.getByRole('heading', { name: 'Signed in to the test app' })).toBeVisible();
  const text = (await page.getByText(/^Subject: /).textContent()) ?? '';
  return text.replace(/^Subject: /, '');
}

/** The passkey offer's "Not now": no passkey for now, the sign-in goes on. */
export async function clickNotNow(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Not now' }).click();
}

/** On the passkey step: ask for a QuickCode to add another device, with this sign-in. */
export async function checkAlsoGetQuickCode(page: Page): Promise<void> {
  await page.getByLabel('Also get a QuickCode to add another device').check();
}

/** After a sign-in that asked for one, the page shows the QuickCode. */
export async function expectQuickCodeShown(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Your QuickCode' })).toBeVisible();
}

/** The QuickCode as the page shows it (its digits may be spaced). */
export async function readQuickCode(page: Page): Promise<string> {
  return (await page.getByLabel('Your QuickCode').textContent()) ?? '';
}

/** A hosted page's Continue (the QuickCode shown, the QuickCode entered). */
export async function clickContinue(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** On the sign-in page of a new device: "I have a QuickCode". */
export async function clickIHaveAQuickCode(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'I have a QuickCode' }).click();
}

export async function expectQuickCodeEntry(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Enter your QuickCode' })).toBeVisible();
}

/** The QuickCode entry: the email and the QuickCode from the other device, then Continue. */
export async function fillQuickCodeAndContinue(page: Page, email: string, quickCode: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('QuickCode').fill(quickCode);
  await clickContinue(page);
}

export async function expectPasskeyRevoked(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'This passkey was revoked' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Email me a code instead' })).toBeVisible();
}

/**
 * An end user, in a browser of their own with a platform authenticator, signs in at the test app for
 * the first time: verifies by the emailed code and creates a passkey. `forwardedFor`: the address a
 * trusted proxy says they come from (default: loopback, no known country).
 */
export async function registerPasskey(browser: Browser, app: RelyingParty, projectName: string, email: string, forwardedFor?: string) {
  const context = await browser.newContext(forwardedFor ? { extraHTTPHeaders: { 'x-forwarded-for': forwardedFor } } : {});
  const user = await context.newPage();
  const authenticator = await addVirtualAuthenticator(user);
  await goToAppSignIn(user, app.url, projectName);
  await fillIdentityAndContinue(user, email);
  await fillEmailedCodeAndSignIn(user, await readCode(email, 0));
  await expectPasskeyOffer(user);
  // The page's WebAuthn script must be in place before the click, or the form posts without a
  // passkey ('No passkey was created'); seen on a busy machine.
  await user.waitForLoadState('load');
  await clickCreatePasskey(user);
  await expectSignedInAtApp(user);
  return { context, user, authenticator };
}

/** docs/decisions/0052: the code page's "Or use your previous password", filled and sent. */
export async function fillPreviousPasswordAndSignIn(page: Page, password: string): Promise<void> {
  await page.getByLabel('Previous password').fill(password);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
}

/**
 * After the password: the browser's automatic upgrade (conditional create) may make the passkey at
 * once and go on to the app; else the offer is shown and the person creates it.
 */
export async function createPasskeyWhenOffered(page: Page): Promise<void> {
  const offer = page.getByRole('heading', { name: 'Create a passkey' });
  const app = page.getByRole('heading', { name: 'Signed in to the test app' });
  await expect(offer.or(app)).toBeVisible();
  if (await offer.isVisible()) await clickCreatePasskey(page);
}
