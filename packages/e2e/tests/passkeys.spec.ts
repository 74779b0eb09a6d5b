import { api } from '@latchkey/domain';
import { callApiOk, createProjectThroughApi, revokeDeviceThroughApi } from '../support/call-api.ts';
import { saveHostedShot } from '../support/shots.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import {
  addVirtualAuthenticator,
  checkAlsoGetQuickCode,
  clickContinue,
  clickCreatePasskey,
  clickIHaveAQuickCode,
  clickNotNow,
  clickSignInWithPasskey,
  expectPasskeyOffer,
  expectPasskeyRevoked,
  expectPasskeyStep,
  expectQuickCodeEntry,
  expectQuickCodeShown,
  expectSignedInAtApp,
  fillEmailedCodeAndSignIn,
  fillIdentityAndContinue,
  fillQuickCodeAndContinue,
  goToAppSignIn,
  readQuickCode,
} from '../support/passkey-pages.ts';
import { connectTestAppThroughApi, startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { countCodesSentTo, newEmail, readCode, signIn } from '../support/sign-in.ts';
import { eventsAndUsageOf } from '../support/database.ts';

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
    await connectTestAppThroughApi(page, app, id, baseURL);
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

  await test.step('each registration, sign-in, code, revocation and refusal is an event; usage counts them', async () => {
    const { events, usage } = await eventsAndUsageOf(projectId);
    expect(events).toEqual([
      // The offer after the emailed code (docs/decisions/0050).
      'oidc passkey.offer.shown success',
      'oidc device.register created',
      'oidc sign_in success',
      'authcode code.issued success',
      'authcode code.exchanged success',
      'oidc sign_in success',
      'authcode code.issued success',
      'authcode code.exchanged success',
      'console device.revoke success',
      'oidc sign_in denied',
      'oidc sign_in denied',
    ]);
    expect(usage).toEqual({ issued: 1, oidc: 2, jwt: 2 });
  });
  await context.close();
});

test('a QuickCode from the signed-in laptop lets the phone create its own passkey without an emailed code', async ({ page, browser, baseURL }) => {
  const projectName = `QuickCode shop ${Date.now().toString(36)}`;
  const projectId = await test.step('a developer turns QuickCodes on for a project with the test app', async () => {
    await signIn(page, newEmail('developer'));
    const id = await createProjectThroughApi(page, projectName);
    const project = await callApiOk(page, api.getProject, { params: { project: id } });
    await callApiOk(page, api.updateProject, { params: { project: id }, body: { ...project, enableRegistrationCode: true } });
    await connectTestAppThroughApi(page, app, id, baseURL);
    return id;
  });
  const email = newEmail('two-devices');

  const laptop = await browser.newContext();
  const onLaptop = await laptop.newPage();
  await addVirtualAuthenticator(onLaptop);
  const subject = await test.step('on the laptop: code, passkey', async () => {
    await goToAppSignIn(onLaptop, app.url, projectName);
    await fillIdentityAndContinue(onLaptop, email);
    await fillEmailedCodeAndSignIn(onLaptop, await readCode(email, 0));
    await clickCreatePasskey(onLaptop);
    return expectSignedInAtApp(onLaptop);
  });

  const quickCode = await test.step('on the laptop again: the passkey, asking for a QuickCode', async () => {
    await laptop.clearCookies();
    await goToAppSignIn(onLaptop, app.url, projectName);
    await fillIdentityAndContinue(onLaptop, email);
    await expectPasskeyStep(onLaptop);
    await checkAlsoGetQuickCode(onLaptop);
    await expectAccessible(onLaptop);
    await saveHostedShot(onLaptop, 'passkey-page-quickcode');
    await clickSignInWithPasskey(onLaptop);
    await expectQuickCodeShown(onLaptop);
    await expectAccessible(onLaptop);
    await saveHostedShot(onLaptop, 'quickcode-shown');
    const shown = await readQuickCode(onLaptop);
    await clickContinue(onLaptop);
    expect(await expectSignedInAtApp(onLaptop)).toBe(subject);
    return shown.replace(/\s/g, '');
  });
  expect(quickCode).toMatch(/^\d{6}$/);

  await test.step('on the phone: "I have a QuickCode", then a passkey of its own', async () => {
    const phone = await browser.newContext();
    const onPhone = await phone.newPage();
    await onPhone.emulateMedia({ colorScheme: 'dark' });
    await addVirtualAuthenticator(onPhone);
    await goToAppSignIn(onPhone, app.url, projectName);
    await clickIHaveAQuickCode(onPhone);
    await expectQuickCodeEntry(onPhone);
    await expectAccessible(onPhone);
    await saveHostedShot(onPhone, 'quickcode-entry-dark');
    await fillQuickCodeAndContinue(onPhone, email, quickCode);
    await expectPasskeyOffer(onPhone);
    await clickCreatePasskey(onPhone);
    expect(await expectSignedInAtApp(onPhone)).toBe(subject);
    expect(countCodesSentTo(email)).toBe(1);
    await phone.close();
  });

  const { events, usage } = await eventsAndUsageOf(projectId);
  expect(events.filter((e) => e.startsWith('reg-code'))).toEqual(['reg-code reg_code.issued success', 'reg-code reg_code.used success']);
  expect(usage).toMatchObject({ issued: 2, 'reg-code': 1 });
  await laptop.close();
});

test('response_mode=form_post: the issuer posts the code back to the application, and Chromium lets the form go', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Form post shop ${Date.now().toString(36)}`;
  await signIn(page, newEmail('form-post-developer'));
  const id = await createProjectThroughApi(page, projectName);
  await connectTestAppThroughApi(page, app, id, baseURL);

  const context = await browser.newContext();
  const user = await context.newPage();
  const refused: string[] = [];
  user.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  const email = newEmail('form-post-user');
  await goToAppSignIn(user, `${app.url}?response_mode=form_post`, projectName);
  await fillIdentityAndContinue(user, email);
  await fillEmailedCodeAndSignIn(user, await readCode(email, 0));
  await expectPasskeyOffer(user);
  await clickNotNow(user);
  expect(await expectSignedInAtApp(user)).toBeTruthy();
  expect(refused).toEqual([]);
  await context.close();
});
