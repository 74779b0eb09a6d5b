import { createProjectThroughApi } from '../support/call-api.ts';
import {
  clickBackToAccount,
  clickRemovePasskey,
  openCreatePasskey,
  confirmRemove,
  expectAccountPage,
  expectSignInPageOf,
  expectLastPasskeyWarning,
  expectPasskeyListed,
  expectThisBrowserSession,
  goToAccountPage,
  renamePasskey,
  saveAccountShots,
} from '../support/end-user-account-pages.ts';
import { expectAccessible, test } from '../support/fixtures.ts';
import { clickSignInWithPasskey, expectPasskeyStep, fillIdentityAndContinue, registerPasskey } from '../support/passkey-pages.ts';
import { connectTestAppThroughApi, startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { newEmail, signIn } from '../support/sign-in.ts';

let app: RelyingParty;
test.beforeAll(async () => {
  app = await startRelyingParty();
});
test.afterAll(async () => app?.close());

// Issue 24 "The end user's own page at the issuer".
test('an end user signs in to their account page with their passkey, renames it and removes it', async ({ page, browser, baseURL }) => {
  const projectName = `Account shop ${Date.now().toString(36)}`;
  const issuer = await test.step('an admin creates a project with the test app', async () => {
    await signIn(page, newEmail('account-admin'));
    const id = await createProjectThroughApi(page, projectName);
    await connectTestAppThroughApi(page, app, id, baseURL);
    return `${baseURL}/p/${id}`;
  });

  const person = newEmail('account-person');
  const { context, user } = await test.step('an end user signs up through the test app with a passkey', async () =>
    registerPasskey(browser, app, projectName, person));

  await test.step('in a new session, they open their account page and sign in there with the passkey', async () => {
    await context.clearCookies();
    await goToAccountPage(user, issuer);
    await expectSignInPageOf(user, projectName);
    await fillIdentityAndContinue(user, person);
    await expectPasskeyStep(user);
    await clickSignInWithPasskey(user);
    await expectAccountPage(user, projectName, person);
    await expectPasskeyListed(user, 'Chrome on Linux', { current: true });
    await expectThisBrowserSession(user);
    await expectAccessible(user);
  });

  await test.step('they rename the passkey', async () => {
    await renamePasskey(user, 'Chrome on Linux', 'My laptop');
    await expectPasskeyListed(user, 'My laptop', { current: true });
    await expectAccessible(user);
    await saveAccountShots(user, 'account', ['en', 'fr', 'ro']);
  });

  await test.step('the page that creates another passkey reads well and leads back', async () => {
    await openCreatePasskey(user);
    await expectAccessible(user);
    await saveAccountShots(user, 'account-new-passkey');
    await clickBackToAccount(user);
    await expectAccountPage(user, projectName, person);
  });

  await test.step('they remove it, after the warning that the next sign-in needs the emailed code, and are signed out', async () => {
    await clickRemovePasskey(user, 'My laptop');
    await expectLastPasskeyWarning(user);
    await expectAccessible(user);
    await saveAccountShots(user, 'account-remove');
    await confirmRemove(user);
    await expectSignInPageOf(user, projectName);
    await context.close();
  });
});
