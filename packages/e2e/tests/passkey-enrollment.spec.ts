import { callApiOk, createProjectThroughApi } from '../support/call-api.ts';
import { api } from '@latchkey/domain';
import { auditRow, listRows } from '../support/devices-pages.ts';
import {
  chooseEnrollment,
  clickEmailMeACodeInstead,
  clickEnrollmentCount,
  expectEnrollment,
  expectEnrollmentCount,
  expectEnrollmentShare,
  expectRequiredPasskeyOffer,
  reopenBrowserKeepingNotNow,
  saveHostedShots,
} from '../support/enrollment-pages.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import {
  addVirtualAuthenticator,
  clickCreatePasskey,
  clickNotNow,
  clickSignInWithPasskey,
  expectPasskeyOffer,
  expectPasskeyStep,
  expectSignedInAtApp,
  fillEmailedCodeAndSignIn,
  fillIdentityAndContinue,
  goToAppSignIn,
} from '../support/passkey-pages.ts';
import { expectPageTitle } from '../support/project-pages.ts';
import { connectTestAppThroughApi, startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { clickSaveAndWait, goToSettings } from '../support/settings-pages.ts';
import { saveShots } from '../support/shots.ts';
import { countCodesSentTo, newEmail, readCode, signIn } from '../support/sign-in.ts';

let app: RelyingParty;
test.beforeAll(async () => {
  app = await startRelyingParty();
});
test.afterAll(async () => app?.close());

// Issue 37 "Enrollment" (docs/decisions/0050), in Chromium with its virtual authenticator.
test('a code user is offered a passkey, creates it and next time signs in with it; on another device the offer comes after the code, "Not now" is remembered, then required; the dashboard counts it', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Enrollment shop ${Date.now().toString(36)}`;
  const projectId = await test.step('a developer requires a passkey after 3 fallback sign-ins (General settings)', async () => {
    await signIn(page, newEmail('enrollment-developer'));
    const id = await createProjectThroughApi(page, projectName);
    await connectTestAppThroughApi(page, app, id, baseURL);
    await goToSettings(page, id, 'settings', 'General settings');
    await expectEnrollment(page, 'Offer', 3);
    await chooseEnrollment(page, 'Require', 3);
    await expectAccessible(page);
    await saveShots(page, 'settings-enrollment', { phone: true });
    await clickSaveAndWait(page);
    const saved = await callApiOk(page, api.getProject, { params: { project: id } });
    expect(saved.passkeyEnrollment).toEqual({ mode: 'require', requireAfter: 3 });
    return id;
  });

  const email = newEmail('enrolled');
  const laptop = await browser.newContext();
  const onLaptop = await laptop.newPage();
  await addVirtualAuthenticator(onLaptop);
  const subject = await test.step('on the laptop: the emailed code, then the offer; the passkey is created', async () => {
    await goToAppSignIn(onLaptop, app.url, projectName);
    await fillIdentityAndContinue(onLaptop, email);
    await fillEmailedCodeAndSignIn(onLaptop, await readCode(email, 0));
    await expectPasskeyOffer(onLaptop);
    await expectAccessible(onLaptop);
    await clickCreatePasskey(onLaptop);
    return expectSignedInAtApp(onLaptop);
  });

  await test.step('on the laptop next time: the passkey alone', async () => {
    await laptop.clearCookies();
    await goToAppSignIn(onLaptop, app.url, projectName);
    await fillIdentityAndContinue(onLaptop, email);
    await expectPasskeyStep(onLaptop);
    await clickSignInWithPasskey(onLaptop);
    expect(await expectSignedInAtApp(onLaptop)).toBe(subject);
    expect(countCodesSentTo(email)).toBe(1);
  });

  const tablet = await browser.newContext();
  const onTablet = await tablet.newPage();
  await addVirtualAuthenticator(onTablet);
  /** On the tablet (no passkey of its own): page 1, "Email me a code instead", the code. */
  const codeOnTablet = async () => {
    await goToAppSignIn(onTablet, app.url, projectName);
    await fillIdentityAndContinue(onTablet, email);
    await expectPasskeyStep(onTablet);
    const before = countCodesSentTo(email);
    await clickEmailMeACodeInstead(onTablet);
    await fillEmailedCodeAndSignIn(onTablet, await readCode(email, before));
  };

  await test.step('on a tablet: the code instead of the laptop’s passkey, then a passkey on this device is offered; "Not now"', async () => {
    await codeOnTablet();
    await expectPasskeyOffer(onTablet);
    await expectAccessible(onTablet);
    await saveHostedShots(onTablet, 'offer-second-device');
    await clickNotNow(onTablet);
    expect(await expectSignedInAtApp(onTablet)).toBe(subject);
  });

  await test.step('on the tablet again: "Not now" is remembered on this device, the code signs in at once', async () => {
    await reopenBrowserKeepingNotNow(tablet);
    await codeOnTablet();
    expect(await expectSignedInAtApp(onTablet)).toBe(subject);
  });

  await test.step('the fourth fallback sign-in (three before it): the project requires the passkey, and it is created', async () => {
    await reopenBrowserKeepingNotNow(tablet);
    await codeOnTablet();
    await expectRequiredPasskeyOffer(onTablet, projectName);
    await expectAccessible(onTablet);
    await saveHostedShots(onTablet, 'offer-required');
    await clickCreatePasskey(onTablet);
    expect(await expectSignedInAtApp(onTablet)).toBe(subject);
  });

  await test.step('the dashboard’s enrollment card counts it, and opens the declined offer in the audit log', async () => {
    await page.goto(`/project/${projectId}/dashboard`);
    await expectPageTitle(page, 'Dashboard');
    await expectEnrollmentCount(page, 'Shown', '3');
    await expectEnrollmentCount(page, 'Passkey created', '2');
    await expectEnrollmentCount(page, 'Not now', '1');
    await expectEnrollmentCount(page, 'With a passkey', '1');
    await expectEnrollmentCount(page, 'By code, link or QuickCode', '4');
    await expectEnrollmentShare(page, 'Holding a passkey', '1 of 1');
    await expectEnrollmentShare(page, 'Completed of started', '3 of 4');
    await expectAccessible(page);
    await saveShots(page, 'dashboard-enrollment', { phone: true });
    await clickEnrollmentCount(page, 'Not now');
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/audit#.*action=passkey\\.offer\\.declined`));
    await expect(listRows(page, 'Audit events')).toHaveCount(1);
    await expect(auditRow(page, email, 'oidc', 'success')).toHaveCount(1);
  });
  await tablet.close();
  await laptop.close();
});
