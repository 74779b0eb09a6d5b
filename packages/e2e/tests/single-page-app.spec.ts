import { createSinglePageAppThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import {
  addVirtualAuthenticator,
  clickCreatePasskey,
  clickSignInWithPasskey,
  expectPasskeyOffer,
  expectPasskeyStep,
  fillEmailedCodeAndSignIn,
  fillIdentityAndContinue,
} from '../support/passkey-pages.ts';
import { newEmail, readCode, signIn } from '../support/sign-in.ts';
import {
  expectSignedInAtSinglePageApp,
  refreshAtSinglePageApp,
  signInAtSinglePageApp,
  signOutAtSinglePageApp,
  startSinglePageApp,
  type SinglePageApp,
} from '../support/single-page-app.ts';

let app: SinglePageApp;
test.beforeAll(async () => {
  app = await startSinglePageApp();
});
test.afterAll(async () => app?.close());

// Issue 22: a single-page app built with oidc-client-ts signs in with a passkey, refreshes its tokens
// in the background and signs out through the issuer's end_session_endpoint, in Chromium.
test('a single-page app (oidc-client-ts) signs its user in with a passkey, refreshes silently, and signs out at the issuer', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `SPA shop ${Date.now().toString(36)}`;
  await signIn(page, newEmail('spa-developer'));
  const projectId = await createProjectThroughApi(page, projectName);
  const clientId = await createSinglePageAppThroughApi(page, projectId, app);
  app.useClient({ issuer: `${baseURL}/p/${projectId}`, clientId });

  const context = await browser.newContext();
  const user = await context.newPage();
  const refused: string[] = [];
  user.on('console', (message) => {
    if (/Content Security Policy|CORS/i.test(message.text())) refused.push(message.text());
  });
  await addVirtualAuthenticator(user);
  const email = newEmail('spa-user');

  const first = await test.step('a new user verifies by emailed code and creates a passkey', async () => {
    await signInAtSinglePageApp(user, app.url, projectName);
    await fillIdentityAndContinue(user, email);
    await fillEmailedCodeAndSignIn(user, await readCode(email, 0));
    await expectPasskeyOffer(user);
    await clickCreatePasskey(user);
    return expectSignedInAtSinglePageApp(user, email);
  });

  await test.step('the app refreshes its tokens with the refresh token, without leaving the page', async () => {
    const refreshed = await refreshAtSinglePageApp(user, 1);
    expect(refreshed).not.toBe(first);
    expect(await refreshAtSinglePageApp(user, 2)).not.toBe(refreshed);
  });

  await test.step('signing out ends the session at the issuer: the next sign-in asks again, and the passkey signs in', async () => {
    await signOutAtSinglePageApp(user);
    await expectAccessible(user);
    await signInAtSinglePageApp(user, app.postLogoutRedirectUri, projectName);
    await fillIdentityAndContinue(user, email);
    await expectPasskeyStep(user);
    await clickSignInWithPasskey(user);
    await expectSignedInAtSinglePageApp(user, email);
  });
  expect(refused).toEqual([]);
  await context.close();
});
