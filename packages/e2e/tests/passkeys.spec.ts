import { createAppWithKeysThroughApi, createProjectThroughApi, revokeDeviceThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import {
  addVirtualAuthenticator,
  clickCreatePasskey,
  clickSignInWithPasskey,
  expectPasskeyOffer,
  expectPasskeyRevoked,
  expectPasskeyStep,
  expectSignedInAtApp,
  fillEmailedCodeAndSignIn,
  fillIdentityAndContinue,
  goToAppSignIn,
} from '../support/passkey-pages.ts';
import { startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { countCodesSentTo, newEmail, readCode, signIn } from '../support/sign-in.ts';

let app: RelyingParty;
test.beforeAll(async () => {
  app = await startRelyingParty();
});
test.afterAll(async () => app?.close());

test('an end user verifies by emailed code, creates a passkey, signs in again with it alone, and is refused once it is revoked', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Passkey shop ${Date.now().toString(36)}`;
  const projectId = await test.step('a developer creates a project and an application whose redirect URI is the test app', async () => {
    await signIn(page, newEmail('developer'));
    const id = await createProjectThroughApi(page, projectName);
    const keys = await createAppWithKeysThroughApi(page, id, [app.redirectUri]);
    app.useClient({ issuer: `${baseURL}/p/${id}`, clientId: keys.clientId, clientSecret: keys.clientSecret });
    return id;
  });

  // The end user's own browser, with a platform authenticator.
  const context = await browser.newContext();
  const user = await context.newPage();
  const device = await addVirtualAuthenticator(user);
  const email = newEmail('end-user');

  const subject = await test.step('a new user verifies by emailed code and creates a passkey on this device', async () => {
    await goToAppSignIn(user, app.url, projectName);
    await expectAccessible(user);
    await fillIdentityAndContinue(user, email);
    await fillEmailedCodeAndSignIn(user, await readCode(email, 0));
    await expectPasskeyOffer(user);
    await expectAccessible(user);
    await clickCreatePasskey(user);
    return expectSignedInAtApp(user);
  });

  await test.step('another day, the passkey alone signs them in', async () => {
    await context.clearCookies(); // a new browser session; the passkey stays on the device
    await goToAppSignIn(user, app.url, projectName);
    await fillIdentityAndContinue(user, email);
    await expectPasskeyStep(user);
    await expectAccessible(user);
    await clickSignInWithPasskey(user);
    expect(await expectSignedInAtApp(user)).toBe(subject);
    expect(countCodesSentTo(email)).toBe(1); // no code was mailed this time
  });

  await test.step('the device is revoked while the passkey page is open: the passkey is refused', async () => {
    await context.clearCookies();
    await goToAppSignIn(user, app.url, projectName);
    await fillIdentityAndContinue(user, email);
    await expectPasskeyStep(user);
    // The project admin (the developer's console session) revokes the passkey this device holds.
    const mpinIds = await device.passkeyIds();
    expect(mpinIds).toHaveLength(1);
    expect(await revokeDeviceThroughApi(page, projectId, mpinIds[0] as string)).toEqual({ mpinId: mpinIds[0], revoked: true });
    await clickSignInWithPasskey(user);
    await expectPasskeyRevoked(user);
    await expectAccessible(user);
  });

  await test.step('the next sign-in says at once that the passkey was revoked', async () => {
    await context.clearCookies();
    await goToAppSignIn(user, app.url, projectName);
    await fillIdentityAndContinue(user, email);
    await expectPasskeyRevoked(user);
  });
  await context.close();
});
