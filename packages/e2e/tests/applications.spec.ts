import { api, projectPermission } from '@latchkey/domain';
import {
  clickAddApplication,
  clickAppSettings,
  clickDangerAction,
  copySecretAndAcknowledge,
  expectAppRow,
  expectButton,
  expectField,
  expectFieldFilled,
  expectNoRecords,
  expectOnAppSettings,
  fillAppName,
  fillNameFilter,
  chooseApplicationType,
  fillRedirectUrls,
  goToApps,
} from '../support/apps-pages.ts';
import { callApi, createProjectThroughApi, getAppThroughApi } from '../support/call-api.ts';
import { setPermissions } from '../support/database.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { expectForbidden, expectTextAbsent } from '../support/layout.ts';
import { saveShots } from '../support/shots.ts';
import { clickCreate, expectCreateEnabled, expectValidationMessage } from '../support/project-pages.ts';
import { newEmail, signIn, signInInNewContext } from '../support/sign-in.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a project admin creates an app, copies its secret, finds it by name, regenerates keys, disables and re-enables it', async ({ page }) => {
  await signIn(page, newEmail('app-admin'));
  const projectId = await createProjectThroughApi(page, 'Apps project');
  const appName = `Storefront ${Date.now().toString(36)}`;

  await test.step('an empty list says so', async () => {
    await goToApps(page, projectId);
    await expectNoRecords(page);
    await expectAccessible(page);
  });

  const firstSecret = await test.step('create an app with two redirect URLs', async () => {
    await clickAddApplication(page, projectId);
    await expectCreateEnabled(page, false);
    await fillAppName(page, appName);
    await fillRedirectUrls(page, ['https://shop.example.com/callback', 'not a uri']);
    await expectValidationMessage(page, 'Invalid URI');
    await expectCreateEnabled(page, false);
    await fillRedirectUrls(page, ['https://shop.example.com/callback', 'com.example.shop:/callback']);
    // Issue 22: a private-use scheme is a native app's.
    await expectValidationMessage(page, 'A private-use scheme (e.g. com.example.app:/callback) is for a native app');
    await expectCreateEnabled(page, false);
    await chooseApplicationType(page, 'Native app');
    await expectCreateEnabled(page, true);
    await expectAccessible(page);
    await clickCreate(page);
    return copySecretAndAcknowledge(page);
  });
  const appId = await expectOnAppSettings(page, projectId);

  await test.step('the settings show the type, ids and both redirect URLs', async () => {
    await expectField(page, 'Type', 'oidc');
    await expectField(page, 'Application type', 'Native app');
    await expectField(page, 'Project ID', projectId);
    await expectFieldFilled(page, 'Client ID');
    // Issue 24: where the app sends its users to manage their passkeys and sessions.
    await expectField(page, 'Account page URL', new RegExp(`/p/${projectId}/account$`));
    await expectField(page, 'Redirect URL 1', 'https://shop.example.com/callback');
    await expectField(page, 'Redirect URL 2', 'com.example.shop:/callback');
    await expectTextAbsent(page, firstSecret);
    await expectAccessible(page);
    await saveShots(page, 'app-settings');
  });

  await test.step('the app is found in the list by its name', async () => {
    await goToApps(page, projectId);
    await fillNameFilter(page, appName.slice(0, 8).toLowerCase());
    await expect(page).toHaveURL(/#.*name=/);
    await expectAppRow(page, appName, 'oidc');
    await fillNameFilter(page, 'no-such-app-anywhere');
    await expectNoRecords(page);
    await page.goBack();
    await expectAppRow(page, appName);
    await clickAppSettings(page, appName);
    await expect(page).toHaveURL(new RegExp(`/app/${appId}/settings$`));
  });

  await test.step('generate new keys: a new secret, shown once', async () => {
    await clickDangerAction(page, 'Generate new keys', 'Generate');
    const secondSecret = await copySecretAndAcknowledge(page);
    expect(secondSecret).not.toBe(firstSecret);
  });

  await test.step('disable, then enable again', async () => {
    await clickDangerAction(page, 'Disable application', 'Disable');
    await expectButton(page, 'Enable application', 'visible');
    await expectButton(page, 'Generate new keys', 'absent');
    await expectButton(page, 'Save', 'disabled');
    expect((await getAppThroughApi(page, appId)).enabled).toBe(false);

    await clickDangerAction(page, 'Enable application', 'Enable');
    await expectButton(page, 'Disable application', 'visible');
    expect((await getAppThroughApi(page, appId)).enabled).toBe(true);
  });
});

test('an account holding only usage on a project sees the 403 page at its applications', async ({ browser, baseURL, page }) => {
  await signIn(page, newEmail('owner-of-apps'));
  const projectId = await createProjectThroughApi(page, 'Guarded apps');

  const viewerEmail = newEmail('viewer');
  const { page: viewer, close } = await signInInNewContext(browser, baseURL as string, viewerEmail);
  await setPermissions(viewerEmail, [projectPermission(projectId, 'usage')]);

  await viewer.goto(`/project/${projectId}/apps`);
  await expectForbidden(viewer);
  await expectAccessible(viewer);
  const answer = await callApi(viewer, api.listApps, { params: { project: projectId } });
  expect(answer.status()).toBe(403);
  await close();
});
