import { createProjectThroughApi } from '../support/call-api.ts';
import { expectAccessible, test } from '../support/fixtures.ts';
import {
  clickSignInWithPasskey,
  expectPasskeyStep,
  expectSignedInAtApp,
  fillIdentityAndContinue,
  goToAppSignIn,
  registerPasskey,
} from '../support/passkey-pages.ts';
import { expectRowsWhollyInView } from '../support/devices-pages.ts';
import { connectTestAppThroughApi, startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { clickLanguage, expectPageLanguage } from '../support/language-pages.ts';
import { clickPaletteOptionIn, openPalette, search } from '../support/search-pages.ts';
import { saveShots } from '../support/shots.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import {
  clickUserAction,
  expectOnUserPage,
  expectSignInBlocked,
  expectUserPasskeys,
  expectUserRow,
  expectUserSessions,
  expectUserSessionsShown,
  expectUsersListWithout,
  expectUserStatus,
  goToUsers,
} from '../support/users-pages.ts';

let app: RelyingParty;
test.beforeAll(async () => {
  app = await startRelyingParty();
});
test.afterAll(async () => app?.close());

test('an administrator finds a user by the palette, blocks them (their next sign-in is refused), unblocks them, and deletes them', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Users shop ${Date.now().toString(36)}`;
  const projectId = await test.step('an admin creates a project with the test app', async () => {
    await signIn(page, newEmail('users-admin'));
    const id = await createProjectThroughApi(page, projectName);
    await connectTestAppThroughApi(page, app, id, baseURL);
    return id;
  });

  const person = newEmail('person');
  const { context, user } = await test.step('an end user signs up through the test app with a passkey', async () =>
    registerPasskey(browser, app, projectName, person));

  await test.step('the admin sees them in the users list', async () => {
    await goToUsers(page, projectId);
    await expectUserRow(page, person, 'Active');
    await saveShots(page, 'users', { phone: true });
    await expectAccessible(page);
  });

  await test.step('finds them by the palette and opens their page: one passkey, their sessions', async () => {
    await openPalette(page);
    await search(page, person.slice(0, 10), person);
    await clickPaletteOptionIn(page, 'Users', person);
    await expectOnUserPage(page, person);
    await expectUserStatus(page, 'Active');
    await expectUserPasskeys(page, 1);
    await expectUserSessionsShown(page);
    await saveShots(page, 'user', { phone: true });
    await expectAccessible(page);
  });

  await test.step('their page reads in French and Romanian too', async () => {
    for (const [name, language] of [
      ['Français', 'fr'],
      ['Română', 'ro'],
    ] as const) {
      await clickLanguage(page, name);
      await expectPageLanguage(page, language);
      await saveShots(page, `user-${language}`, { phone: true });
    }
  });

  await test.step('on a phone and a tablet, in Romanian, each row of their tables shows its status and its actions whole', async () => {
    const size = page.viewportSize();
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 768, height: 1024 },
    ]) {
      await page.setViewportSize(viewport);
      for (const table of ['Chei de acces', 'Sesiuni', 'Evenimente recente']) await expectRowsWhollyInView(page, table);
    }
    if (size) await page.setViewportSize(size);
    await clickLanguage(page, 'English');
    await expectPageLanguage(page, 'en');
  });

  await test.step('blocks them: their sessions end', async () => {
    await clickUserAction(page, 'Block', 'Block user');
    await expectUserStatus(page, 'Blocked');
    await expectUserSessions(page, 0);
    await saveShots(page, 'user-blocked', { fullPage: false });
  });

  await test.step('the user’s next sign-in is refused with a page', async () => {
    await context.clearCookies();
    await goToAppSignIn(user, app.url, projectName);
    await fillIdentityAndContinue(user, person);
    await expectPasskeyStep(user);
    await clickSignInWithPasskey(user);
    await expectSignInBlocked(user);
    await expectAccessible(user);
  });

  await test.step('unblocked, they sign in again', async () => {
    await clickUserAction(page, 'Unblock', 'Unblock user');
    await expectUserStatus(page, 'Active');
    await goToAppSignIn(user, app.url, projectName);
    await fillIdentityAndContinue(user, person);
    await expectPasskeyStep(user);
    await clickSignInWithPasskey(user);
    await expectSignedInAtApp(user);
    await context.close();
  });

  await test.step('deleted, they are gone from the list', async () => {
    await page.reload();
    await expectOnUserPage(page, person);
    await clickUserAction(page, 'Delete', 'Delete user');
    await expectUsersListWithout(page, person);
  });
});
