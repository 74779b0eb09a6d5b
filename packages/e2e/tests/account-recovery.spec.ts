import { createProjectThroughApi, revokeDeviceThroughApi } from '../support/call-api.ts';
import { expectAccountPage, goToAccountPage, saveAccountShots } from '../support/end-user-account-pages.ts';
import { expectAccessible, test } from '../support/fixtures.ts';
import {
  addVirtualAuthenticator,
  clickCreatePasskey,
  clickSignInWithPasskey,
  expectPasskeyOffer,
  expectPasskeyStep,
  expectSignedInAtApp,
  fillEmailedCodeAndSignIn,
  fillIdentityAndContinue,
  goToAppSignIn,
  registerPasskey,
} from '../support/passkey-pages.ts';
import {
  acknowledgeLinkCopied,
  chooseEmailRecoveryDelay,
  clickEmailMeACode,
  clickStopRecovery,
  clickUseRecoveryCode,
  createReenrollmentLink,
  createRecoveryCodes,
  expectRecoveryCodesLeft,
  expectPasskeyWaits,
  expectReenrolled,
  expectUserRecovery,
  fillRecoveryCodeAndContinue,
  goToUserPage,
  openThisWasntMe,
  readThisWasntMeLink,
  reenrollWithLink,
  saveShownOnceShots,
} from '../support/recovery-pages.ts';
import { connectTestAppThroughApi, startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { saveShots } from '../support/shots.ts';
import { countCodesSentTo, newEmail, readCode, signIn } from '../support/sign-in.ts';
import { clickSaveAndWait, goToSettings } from '../support/settings-pages.ts';
import { expect } from '@playwright/test';

let app: RelyingParty;
test.beforeAll(async () => {
  app = await startRelyingParty();
});
test.afterAll(async () => app?.close());

// Issue 37 "Recovery", docs/decisions/0051.
test('a person who lost their passkey recovers with a recovery code and ends up with a new passkey; an admin’s re-enrollment link', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Recovery shop ${Date.now().toString(36)}`;
  const { projectId, issuer } = await test.step('an admin creates a project with the test app', async () => {
    await signIn(page, newEmail('recovery-admin'));
    const id = await createProjectThroughApi(page, projectName);
    await connectTestAppThroughApi(page, app, id, baseURL);
    return { projectId: id, issuer: `${baseURL}/p/${id}` };
  });

  const person = newEmail('recovery-person');
  const {
    context,
    user,
    authenticator: lostDevice,
  } = await test.step('an end user signs up with a passkey', async () => registerPasskey(browser, app, projectName, person));

  const codes = await test.step('on their account page they create recovery codes, shown once', async () => {
    await context.clearCookies();
    await goToAccountPage(user, issuer);
    await fillIdentityAndContinue(user, person);
    await expectPasskeyStep(user);
    await clickSignInWithPasskey(user);
    await expectAccountPage(user, projectName, person);
    const made = await createRecoveryCodes(user);
    await expectAccessible(user);
    await saveShownOnceShots(user, 'recovery-codes-en');
    // Opened again, the codes are not shown: the account page says how many are left.
    await user.goto(user.url());
    await expectRecoveryCodesLeft(user, 10);
    await saveAccountShots(user, 'recovery-account', ['en', 'fr', 'ro']);
    return made;
  });

  await test.step('they lose the device: its passkey is revoked, the authenticator is gone', async () => {
    const held = await lostDevice.passkeyIds();
    expect(held).toHaveLength(1);
    await revokeDeviceThroughApi(page, projectId, held[0] as string);
    await context.close();
  });

  await test.step('on a new device, "Use a recovery code" signs them in and leads straight to a new passkey', async () => {
    const fresh = await browser.newContext();
    const device = await fresh.newPage();
    const authenticator = await addVirtualAuthenticator(device);
    await goToAppSignIn(device, app.url, projectName);
    await clickUseRecoveryCode(device);
    await expectAccessible(device);
    await saveAccountShots(device, 'recovery-sign-in', ['en', 'fr', 'ro']);
    await fillRecoveryCodeAndContinue(device, person, codes[0] as string);
    await expectPasskeyOffer(device);
    await clickCreatePasskey(device);
    await expectSignedInAtApp(device);
    expect(await authenticator.passkeyIds()).toHaveLength(1);
    // The new passkey signs them in to their account page, which says nine codes are left.
    await fresh.clearCookies();
    await goToAccountPage(device, issuer);
    await fillIdentityAndContinue(device, person);
    await expectPasskeyStep(device);
    await clickSignInWithPasskey(device);
    await expectAccountPage(device, projectName, person);
    await expectRecoveryCodesLeft(device, 9);
    await fresh.close();
  });

  await test.step('the admin sees their recovery state and gives them a one-time re-enrollment link', async () => {
    await goToUserPage(page, projectId, person);
    await expectUserRecovery(page, '9 left');
    const link = await createReenrollmentLink(page);
    await expectAccessible(page);
    await saveShots(page, 'recovery-link-dialog');
    await acknowledgeLinkCopied(page);
    await saveShots(page, 'recovery-user-page', { phone: true });

    const other = await browser.newContext();
    const device = await other.newPage();
    const authenticator = await addVirtualAuthenticator(device);
    await reenrollWithLink(device, link, projectName);
    await expectAccessible(device);
    await saveAccountShots(device, 'recovery-reenroll', ['en', 'fr', 'ro']);
    await clickCreatePasskey(device);
    await expectReenrolled(device);
    expect(await authenticator.passkeyIds()).toHaveLength(1);
    await other.close();
  });
});

test('with a delay, an email-only sign-in cannot add a passkey at once, and the notice’s “This wasn’t me” stops it', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Delay shop ${Date.now().toString(36)}`;
  const { issuer } = await test.step('an admin creates a project and sets a 24-hour delay on General', async () => {
    await signIn(page, newEmail('delay-admin'));
    const id = await createProjectThroughApi(page, projectName);
    await connectTestAppThroughApi(page, app, id, baseURL);
    await goToSettings(page, id, 'settings', 'General settings');
    await chooseEmailRecoveryDelay(page, 'After 24 hours');
    await clickSaveAndWait(page);
    await expectAccessible(page);
    await saveShots(page, 'recovery-settings');
    return { issuer: `${baseURL}/p/${id}` };
  });

  const person = newEmail('delay-person');
  const { context } = await test.step('an end user signs up with a passkey', async () => registerPasskey(browser, app, projectName, person));
  await context.close();

  await test.step('someone signs in to their account page with an emailed code instead: a new passkey has to wait', async () => {
    const other = await browser.newContext();
    const device = await other.newPage();
    await goToAccountPage(device, issuer);
    await fillIdentityAndContinue(device, person);
    await expectPasskeyStep(device);
    const before = countCodesSentTo(person);
    await clickEmailMeACode(device);
    await fillEmailedCodeAndSignIn(device, await readCode(person, before));
    await expectAccountPage(device, projectName, person);
    await expectPasskeyWaits(device);
    await expectAccessible(device);
    await saveAccountShots(device, 'recovery-delay', ['en', 'fr', 'ro']);
    await other.close();
  });

  await test.step('the person, mailed a notice, answers "This wasn\'t me" and stops it', async () => {
    const link = await readThisWasntMeLink(person);
    const mailbox = await browser.newContext();
    const reader = await mailbox.newPage();
    await openThisWasntMe(reader, link);
    await expectAccessible(reader);
    await saveAccountShots(reader, 'recovery-stop', ['en', 'fr', 'ro']);
    await clickStopRecovery(reader);
    await mailbox.close();
  });
});
