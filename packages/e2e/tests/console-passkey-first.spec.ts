import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { clickLogOut, expectText } from '../support/layout.ts';
import {
  addVirtualAuthenticator,
  clickCreatePasskey,
  expectPasskeyOffer,
  expectSignedInAtApp,
  fillEmailedCodeAndSignIn,
  fillIdentityAndContinue,
  goToAppSignIn,
} from '../support/passkey-pages.ts';
import {
  atPhoneWidth,
  clickPasskeyButton,
  expectPasskeyFirstPage,
  expectPasskeyNotForConsole,
  waitForConsoleSignInPage,
} from '../support/passkey-first-pages.ts';
import { connectTestAppThroughApi, startRelyingParty } from '../support/relying-party.ts';
import { countCodesSentTo, expectSignedIn, fillCodeAndSignIn, fillEmailAndContinue, newEmail, readCode, signIn } from '../support/sign-in.ts';
import { recordWebAuthn } from '../support/webauthn-record.ts';

// docs/decisions/0048: the console's own sign-in (its issuer under /idp, the relying party
// PUBLIC_URL's host) is passkey first like a project's own host: an administrator's passkey signs
// them in from page 1 by the field's autofill or the "Sign in with a passkey" button, nothing typed.

/** HOSTED_PAGE_SHOTS=<dir>: the console's page 1 as a person sees it, light and dark, desktop and phone. */
async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.HOSTED_PAGE_SHOTS;
  if (!dir) return;
  const take = async (suffix: string) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(dir, `${name}${suffix}-${scheme}.png`), fullPage: true });
    }
  };
  await take('');
  await atPhoneWidth(page, () => take('-phone'));
  await page.emulateMedia({ colorScheme: null });
}

test('an administrator makes a passkey after the emailed code, then signs in to the console by autofill and by the passkey button, typing nothing', async ({
  page,
}) => {
  const email = newEmail('admin-passkey-first');
  const webauthn = await recordWebAuthn(page.context());
  // Until the person picks a passkey in the field's dropdown, the autofill request waits.
  webauthn.holdAutofill = true;
  const authenticator = await addVirtualAuthenticator(page);

  await test.step('page 1 leads with the passkey; the address gets the emailed code, then the passkey offer, taken', async () => {
    await signIn(page, email); // the account exists from a first sign-in
    await clickLogOut(page);
    await waitForConsoleSignInPage(page);
    await expectPasskeyFirstPage(page);
    await expectAccessible(page);
    await shots(page, 'console-page1');
    const before = await fillEmailAndContinue(page, email);
    await fillCodeAndSignIn(page, await readCode(email, before));
    await expectPasskeyOffer(page);
    await clickCreatePasskey(page);
    await expectSignedIn(page);
    expect(await authenticator.passkeyIds()).toHaveLength(1);
  });
  const [passkeyId] = await authenticator.passkeyIds();
  const codes = countCodesSentTo(email);

  await test.step('signed out, the autofill request signs them in again with nothing typed and no button pressed', async () => {
    webauthn.holdAutofill = false; // the person picks their passkey in the field's dropdown
    const requests = webauthn.requests.length;
    const signals = webauthn.signals.length;
    await clickLogOut(page);
    await waitForConsoleSignInPage(page);
    await expectSignedIn(page);
    await expectText(page, email);
    expect(webauthn.requests.slice(requests)).toEqual([{ mediation: 'conditional', hints: [] }]);
    // Before it left for the console, the page told the browser the passkeys the console accepts
    // for this administrator, and their name (Signal API).
    expect(webauthn.signals.slice(signals)).toEqual([
      { name: 'signalAllAcceptedCredentials', options: { rpId: 'localhost', userId: expect.any(String), allAcceptedCredentialIds: [passkeyId] } },
      { name: 'signalCurrentUserDetails', options: { rpId: 'localhost', userId: expect.any(String), name: email, displayName: email } },
    ]);
  });

  await test.step('signed out again, "Sign in with a passkey" signs them in', async () => {
    webauthn.holdAutofill = true; // this time the person presses the button
    const requests = webauthn.requests.length;
    await clickLogOut(page);
    await waitForConsoleSignInPage(page);
    await expectPasskeyFirstPage(page);
    await clickPasskeyButton(page);
    await expectSignedIn(page);
    await expectText(page, email);
    const asked = webauthn.requests.slice(requests).map((r) => r.mediation);
    expect(asked.at(-1) === 'optional' || asked.at(-1) === 'immediate', asked.join()).toBe(true);
    expect(countCodesSentTo(email)).toBe(codes); // no code was mailed for either
  });
});

test("an end user's passkey of a project on the shared path, offered at the console, is refused by name and kept by the browser", async ({
  page,
  browser,
  baseURL,
}) => {
  // The suite's server keeps projects on the shared path: their passkeys' relying party is
  // PUBLIC_URL's host, the console's too.
  const app = await startRelyingParty();
  const context = await browser.newContext({ baseURL });
  try {
    const projectName = `Shared path ${Date.now().toString(36)}`;
    await signIn(page, newEmail('developer'));
    const projectId = await createProjectThroughApi(page, projectName);
    await connectTestAppThroughApi(page, app, projectId, baseURL);

    const webauthn = await recordWebAuthn(context);
    webauthn.holdAutofill = true; // the person presses the button (the virtual authenticator would answer the autofill at once)
    const person = await context.newPage();
    const device = await addVirtualAuthenticator(person);
    const address = newEmail('end-user');
    await goToAppSignIn(person, app.url, projectName);
    await fillIdentityAndContinue(person, address);
    await fillEmailedCodeAndSignIn(person, await readCode(address, 0));
    await expectPasskeyOffer(person);
    await clickCreatePasskey(person);
    await expectSignedInAtApp(person);
    const held = await device.passkeyIds();
    expect(held).toHaveLength(1);

    // The same person opens the console: their only passkey for this host is the application's.
    await person.goto('/');
    await waitForConsoleSignInPage(person);
    await clickPasskeyButton(person);
    await expectPasskeyNotForConsole(person);
    await expectAccessible(person);
    await shots(person, 'console-passkey-not-for-console');
    // Not signalled as unknown: the browser keeps the passkey its owner signs in to the application with.
    expect(webauthn.signals).toEqual([]);
    expect(await device.passkeyIds()).toEqual(held);
  } finally {
    await context.close();
    await app.close();
  }
});
