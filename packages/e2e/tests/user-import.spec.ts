import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { createProjectThroughApi } from '../support/call-api.ts';
import { saveHostedShot } from '../support/shots.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import {
  addVirtualAuthenticator,
  clickSignInWithPasskey,
  createPasskeyWhenOffered,
  expectPasskeyStep,
  expectSignedInAtApp,
  fillIdentityAndContinue,
  fillPreviousPasswordAndSignIn,
  goToAppSignIn,
} from '../support/passkey-pages.ts';
import { connectTestAppThroughApi, startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { clickSaveAndWait, expectSetting, fillSetting, goToSettings } from '../support/settings-pages.ts';
import { expectImportDone, expectImportQueued, expectRefusedLine, goToUsers, importUsersFile, openImportReport } from '../support/users-pages.ts';

// Issue 37 "Migration" (docs/decisions/0052): users brought in with their old password hashes.

/** A PBKDF2-SHA256 hash as passlib writes it: what the team's old system stored. */
function oldSystemHash(password: string): string {
  const salt = randomBytes(16);
  const ab64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '').replaceAll('+', '.');
  return `$pbkdf2-sha256$29000$${ab64(salt)}$${ab64(pbkdf2Sync(password, salt, 29000, 32, 'sha256'))}`;
}

const PASSWORD_DAYS = 'Imported passwords expire after (days)';

let app: RelyingParty;
test.beforeAll(async () => {
  app = await startRelyingParty();
});
test.afterAll(async () => app?.close());

test('a team imports its users with their password hashes; one of them signs in once with the old password and holds a passkey after it', async ({
  page,
  browser,
  baseURL,
}) => {
  const projectName = `Moving shop ${Date.now().toString(36)}`;
  const email = newEmail('moved');
  const password = 'my old password 42';

  const projectId = await test.step('a developer creates a project and an application whose redirect URI is the test app', async () => {
    await signIn(page, newEmail('developer'));
    const id = await createProjectThroughApi(page, projectName);
    await connectTestAppThroughApi(page, app, id, baseURL);
    return id;
  });

  await test.step('they keep imported passwords 30 days: a setting of the project (General settings)', async () => {
    await goToSettings(page, projectId, 'settings', 'General settings');
    await expectSetting(page, PASSWORD_DAYS, '90');
    await fillSetting(page, PASSWORD_DAYS, '30');
    await clickSaveAndWait(page);
    await saveHostedShot(page, 'settings-imported-password-days');
  });

  await test.step('they import a JSON Lines file on the Users page, leave while it runs and come back: the good lines are added, the bad one is reported with its number', async () => {
    await goToUsers(page, projectId);
    const lines = [
      { email, verified: true, name: 'Moved Person', externalId: 'old-17', passwordHash: oldSystemHash(password) },
      { email: 'not an address' },
      { email: newEmail('other'), verified: true },
    ];
    await importUsersFile(page, {
      name: 'users.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n')),
    });
    await expectImportQueued(page);
    await saveHostedShot(page, 'users-import-queued');
    await goToSettings(page, projectId, 'settings', 'General settings');
    await expectSetting(page, PASSWORD_DAYS, '30');
    await goToUsers(page, projectId);
    await expectImportDone(page, 2, 1);
    await openImportReport(page);
    await expectRefusedLine(page, 2, 'The email address is not valid');
    await expectAccessible(page);
    await saveHostedShot(page, 'users-import-report');
  });

  const context = await browser.newContext();
  const user = await context.newPage();
  const device = await addVirtualAuthenticator(user);

  const subject = await test.step('the imported person signs in with their old password, once, and is moved to a passkey at once', async () => {
    await goToAppSignIn(user, app.url, projectName);
    await fillIdentityAndContinue(user, email);
    await expectAccessible(user);
    await saveHostedShot(user, 'code-page-with-previous-password');
    await fillPreviousPasswordAndSignIn(user, password);
    await createPasskeyWhenOffered(user);
    const signedIn = await expectSignedInAtApp(user);
    expect(await device.passkeyIds()).toHaveLength(1);
    return signedIn;
  });

  await test.step('next time, the passkey alone signs them in; the old password is gone', async () => {
    await context.clearCookies();
    await goToAppSignIn(user, app.url, projectName);
    await fillIdentityAndContinue(user, email);
    await expectPasskeyStep(user);
    await clickSignInWithPasskey(user);
    expect(await expectSignedInAtApp(user)).toBe(subject);
  });
  await context.close();
});
