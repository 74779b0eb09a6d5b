import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoAddApplication } from '../support/apps-pages.ts';
import { createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { expectHeading } from '../support/hosted-pages.ts';
import { expectText, expectTextOnce } from '../support/layout.ts';
import { expectPageTitle, expectValidationMessage } from '../support/project-pages.ts';
import { startRelyingParty } from '../support/relying-party.ts';
import {
  checkPkceMethod,
  checkRadio,
  chooseKeyFile,
  clickAddOrigin,
  clickCloseProject,
  clickConfirmClose,
  clickHistory,
  clickRestoreEarlierValue,
  clickSaveAndWait,
  clickSaveIssuerAndWait,
  clickSwitch,
  expectCloseProjectButton,
  expectConfirmCloseEnabled,
  expectHistoryAction,
  expectHistoryDrawerStill,
  expectHistoryRow,
  expectIssuer,
  expectPkceMethodChecked,
  expectRadio,
  expectSave,
  expectSetting,
  expectSettingEnabled,
  expectSwitch,
  fillCloseConfirmation,
  expectSigningKeyStatuses,
  fillSetting,
  rotateSigningKey,
  goToSettings,
  uncheckPkceMethod,
} from '../support/settings-pages.ts';
import { saveShots } from '../support/shots.ts';
import { newEmail, OWNER_EMAIL, signIn } from '../support/sign-in.ts';

// Issue 11: the five settings pages, as a project's administrator uses them.

test('a project admin edits General, Branding, User Verification and OpenID Connect; the values stay after a reload', async ({ page }) => {
  await signIn(page, newEmail('settings-admin'));
  const projectId = await createProjectThroughApi(page, `Settings shop ${Date.now().toString(36)}`);

  await test.step('General: the login methods follow spec §4 as they are switched', async () => {
    await goToSettings(page, projectId, 'settings', 'General settings');
    await fillSetting(page, 'Authentication Page Title', 'Settings shop, renamed');
    await fillSetting(page, 'PIN Length', '6');
    await clickAddOrigin(page);
    await fillSetting(page, 'Allowed CORS Origin 1', 'not a uri');
    await expectValidationMessage(page, 'Invalid URI');
    await expectSave(page, 'disabled');
    await fillSetting(page, 'Allowed CORS Origin 1', 'https://shop.example');

    // The primary login method's radios: 'Mobile Login' and 'Browser Login'.
    await clickSwitch(page, 'Browser Login');
    await expectRadio(page, 'Mobile Login', 'checked');
    await expectRadio(page, 'Mobile Login', 'disabled');
    await clickSwitch(page, 'Mobile Login');
    await expectValidationMessage(page, 'You must select at least one login method');
    await expectSave(page, 'disabled');
    await clickSwitch(page, 'Browser Login');
    await expectRadio(page, 'Browser Login', 'checked');
    await clickSwitch(page, 'Mobile Login');
    await expectRadio(page, 'Mobile Login', 'enabled');
    await checkRadio(page, 'Browser Login', { force: true });

    await expectSwitch(page, 'Limit QuickCode to verified devices', 'disabled');
    await clickSwitch(page, 'Enable QuickCode');
    await clickSwitch(page, 'Limit QuickCode to verified devices');
    // Without a global permission the project domain is a copy field, not an input.
    await expectText(page, 'Only an account with a global permission can change this.');
    await expectCloseProjectButton(page, true);
    await clickSaveAndWait(page);
    await saveShots(page, 'settings-general');
    await expectAccessible(page);

    await page.reload();
    await expectSetting(page, 'Authentication Page Title', 'Settings shop, renamed');
    await expectSetting(page, 'PIN Length', '6');
    await expectSetting(page, 'Allowed CORS Origin 1', 'https://shop.example');
    await expectRadio(page, 'Browser Login', 'checked');
    await expectSwitch(page, 'Limit QuickCode to verified devices', 'checked');
  });

  await test.step('Branding: a phone number with a space is refused, a good one is kept', async () => {
    await goToSettings(page, projectId, 'branding', 'Branding');
    await fillSetting(page, 'Support Phone Number', '+44 1234');
    await expectValidationMessage(page, 'Invalid phone number');
    await expectSave(page, 'disabled');
    await fillSetting(page, 'Support Phone Number', '+441234567890');
    await fillSetting(page, 'Support Email', 'help@shop.example');
    await fillSetting(page, 'Display name', 'Shop');
    await clickSaveAndWait(page);
    await saveShots(page, 'settings-branding');
    await expectAccessible(page);
    await page.reload();
    await expectSetting(page, 'Support Phone Number', '+441234567890');
  });

  await test.step('Branding history: the change is listed, and its earlier value goes back into the form', async () => {
    await clickHistory(page);
    await expectHistoryRow(page, 'Branding', /supportEmail/, 'help@shop.example');
    await expectHistoryAction(page, 'Branding', 'Saved');
    // The drawer slides in: the picture waits for it to stand still.
    await expectHistoryDrawerStill(page, 'Branding');
    await saveShots(page, 'settings-history');
    await clickRestoreEarlierValue(page, 'Branding', 'displayName');
    await expectSetting(page, 'Display name', '');
    await expectSave(page, 'enabled');
  });

  await test.step('User Verification: Email Link forces the email user ID; Custom opens its fields', async () => {
    await goToSettings(page, projectId, 'userverification', 'User Verification');
    await expectSettingEnabled(page, 'Custom Verification URL', false);
    await checkRadio(page, 'Email Link');
    await expectRadio(page, 'Email', 'checked', true);
    await checkRadio(page, 'Custom');
    await expectSettingEnabled(page, 'Custom Verification URL', true);
    await fillSetting(page, 'Custom Verification URL', 'https://shop.example/verify');
    await fillSetting(page, 'Custom Verification Text', 'Verify with Shop');
    await clickSaveAndWait(page);
    await saveShots(page, 'settings-verification');
    await expectAccessible(page);
    await page.reload();
    await expectRadio(page, 'Custom', 'checked');
    await expectSetting(page, 'Custom Verification URL', 'https://shop.example/verify');
  });

  await test.step('OpenID Connect: at least one PKCE method; the change is kept', async () => {
    await page.goto(`/project/${projectId}/oidc`);
    await expectPageTitle(page, 'OpenID Connect');
    await expectIssuer(page, new RegExp(`/p/${projectId}$`));
    await uncheckPkceMethod(page, 'S256');
    await expectValidationMessage(page, 'Select at least one method');
    await expectSave(page, 'disabled');
    await checkPkceMethod(page, 'Plain');
    await checkPkceMethod(page, 'S256');
    await clickSwitch(page, 'Allow PKCE only token exchange', false);
    // Issue 22: token lifetimes, in minutes and days, within their ranges.
    await expectSetting(page, 'Access token lifetime', '10 min');
    await fillSetting(page, 'Refresh token idle lifetime', '400');
    await expectValidationMessage(page, 'Value not in the valid range');
    await expectSave(page, 'disabled');
    await fillSetting(page, 'Refresh token idle lifetime', '30');
    await clickSaveIssuerAndWait(page);
    await saveShots(page, 'settings-oidc');
    await expectAccessible(page);
    await page.reload();
    await expectPkceMethodChecked(page, 'Plain');
    await expectSwitch(page, 'Allow PKCE only token exchange', 'checked', false);
    await expectSetting(page, 'Refresh token idle lifetime', '30 days');
    // Issue 22: rotating the signing key keeps the previous one published for a while.
    await expectSigningKeyStatuses(page, ['Signing']);
    await rotateSigningKey(page);
    await expectSigningKeyStatuses(page, ['Signing', /^Published until /]);
    await expectAccessible(page);
  });
});

test('the owner allows push on Mobile Applications and uploads a Firebase key file, which fills the project id and is never shown again', async ({
  page,
}) => {
  await signIn(page, OWNER_EMAIL);
  const projectId = await createProjectThroughApi(page, `Push shop ${Date.now().toString(36)}`);
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-key-'));
  const keyFile = join(dir, 'push-shop-firebase-adminsdk.json');
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'push-shop-1234',
      private_key_id: 'abc123',
      private_key: privateKey,
      client_email: 'firebase-adminsdk-x1@push-shop-1234.iam.gserviceaccount.com',
      client_id: '100000000000000000001',
    }),
  );
  const notAKey = join(dir, 'package.json');
  writeFileSync(notAKey, JSON.stringify({ name: 'not-a-key' }));

  await goToSettings(page, projectId, 'mobileapps', 'Mobile Applications');
  // The owner holds a global permission: the association files and the deep-link domain are inputs.
  await fillSetting(page, 'Mobile Deep Link Domain', 'https://app.push-shop.example');
  await fillSetting(page, 'Android store URL', 'https://play.google.com/store/apps/details?id=com.pushshop');
  await expectSwitch(page, 'Push Notifications', 'disabled');
  await clickSwitch(page, 'Allow push notifications for this project');
  await clickSwitch(page, 'Push Notifications');
  await expectValidationMessage(page, 'Required');
  await expectSave(page, 'disabled');

  await chooseKeyFile(page, notAKey);
  await expectValidationMessage(page, /This is not a Firebase service account key file/);
  await chooseKeyFile(page, keyFile);
  await expectSetting(page, 'Firebase project ID', 'push-shop-1234');
  await expectTextOnce(page, 'A new key will be saved: firebase-adminsdk-x1@push-shop-1234.iam.gserviceaccount.com.');
  await clickSaveAndWait(page);
  await saveShots(page, 'settings-mobile');
  await expectAccessible(page);

  await page.reload();
  await expectSetting(page, 'Firebase project ID', 'push-shop-1234');
  await expectTextOnce(page, 'A service account private key is set.');
  const read = await page.evaluate(async (id) => (await fetch(`/api/projects/${id}`)).text(), projectId);
  expect(read).not.toContain('PRIVATE KEY');
});

test('closing a project: the name is typed, the banner shows, forms lock, and its issuer refuses sign-in', async ({ page }) => {
  const app = await startRelyingParty();
  try {
    await signIn(page, newEmail('closing-admin'));
    const name = `Closing shop ${Date.now().toString(36)}`;
    const projectId = await createProjectThroughApi(page, name);
    const keys = await createAppWithKeysThroughApi(page, projectId, [app.redirectUri]);
    app.useClient({ issuer: `${new URL(page.url()).origin}/p/${projectId}`, clientId: keys.clientId, clientSecret: keys.clientSecret });

    await goToSettings(page, projectId, 'settings', 'General settings');
    await clickCloseProject(page);
    await expectConfirmCloseEnabled(page, false);
    await fillCloseConfirmation(page, 'not the name');
    await expectConfirmCloseEnabled(page, false);
    await fillCloseConfirmation(page, name);
    await clickConfirmClose(page);

    await expectTextOnce(page, 'This project is disabled');
    await expectSettingEnabled(page, 'Authentication Page Title', false);
    await expectSave(page, 'disabled');
    await expectCloseProjectButton(page, false);
    await saveShots(page, 'settings-closed');
    await page.goto(`/project/${projectId}/apps`);
    await expectPageTitle(page, 'Applications');
    await expectNoAddApplication(page);

    const endUser = await page.context().browser()?.newPage();
    if (!endUser) throw new Error('no browser');
    await endUser.goto(app.url);
    await expectHeading(endUser, 'This project is closed');
    await endUser.close();
  } finally {
    await app.close();
  }
});
