import { createHash, randomBytes } from 'node:crypto';
import { createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, test } from '../support/fixtures.ts';
import { expectHeading } from '../support/hosted-pages.ts';
import { clickNotNow, expectPasskeyOffer, fillEmailedCodeAndSignIn, fillIdentityAndContinue } from '../support/passkey-pages.ts';
import { newEmail, readCode, signIn } from '../support/sign-in.ts';

/** A mobile app's private-use scheme redirect (RFC 8252 §7.1). */
const APP_REDIRECT = 'com.example.app:/oauth2redirect';

// docs/decisions/0012 "Native apps": Chromium checks the pages' form-action along the redirects after
// the last form, so the return to an app's own scheme must be allowed there, or the code never leaves.
test('a native app’s user signs in in the browser, and Chromium hands the code to the app’s own scheme', async ({ page, browser, baseURL }) => {
  const projectName = `Native shop ${Date.now().toString(36)}`;
  const { issuer, clientId, clientSecret } = await test.step('a developer registers a mobile app that returns to its own scheme', async () => {
    await signIn(page, newEmail('developer'));
    const projectId = await createProjectThroughApi(page, projectName);
    const keys = await createAppWithKeysThroughApi(page, projectId, ['https://app.example.com/callback', APP_REDIRECT], 'native');
    return { issuer: `${baseURL}/p/${projectId}`, clientId: keys.clientId, clientSecret: keys.clientSecret };
  });

  // The app opens the authorization request in the browser (RFC 8252 §6) and listens for its scheme.
  const context = await browser.newContext();
  const user = await context.newPage();
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorization = new URL(`${issuer}/auth`);
  authorization.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: APP_REDIRECT,
    response_type: 'code',
    scope: 'openid email',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const toApp = user.waitForRequest((request) => request.url().startsWith(`${APP_REDIRECT}?`));

  await test.step('the user verifies by emailed code and declines a passkey for now', async () => {
    const email = newEmail('mobile-user');
    await user.goto(authorization.href);
    await expectHeading(user, `Sign in to ${projectName}`);
    await fillIdentityAndContinue(user, email);
    await fillEmailedCodeAndSignIn(user, await readCode(email, 0));
    await expectPasskeyOffer(user);
    await clickNotNow(user);
  });

  await test.step('the browser leaves for com.example.app: with a code the app exchanges', async () => {
    const callback = new URL((await toApp).url());
    expect(callback.searchParams.get('state')).toBe(state);
    const code = callback.searchParams.get('code') ?? '';
    const res = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: APP_REDIRECT, code_verifier: verifier }).toString(),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id_token?: string }).id_token).toBeTruthy();
  });
  await context.close();
});
