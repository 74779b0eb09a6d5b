import { newEmail, signIn, signInInNewContext } from '../support/auth.ts';
import { confirmDialog, copySecretAndAcknowledge, fillRedirectUrls, goToApps } from '../support/apps.ts';
import { callApi, createProjectThroughForm } from '../support/console.ts';
import { setPermissions } from '../support/database.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a project admin creates an app, copies its secret, finds it by name, regenerates keys, disables and re-enables it', async ({
  page,
}) => {
  await signIn(page, newEmail('app-admin'));
  const projectId = await createProjectThroughForm(page, 'Apps project');
  const appName = `Storefront ${Date.now().toString(36)}`;

  await test.step('an empty list says so', async () => {
    await goToApps(page, projectId);
    await expect(page.getByText('No records found')).toBeVisible();
    await expectAccessible(page);
  });

  const firstSecret = await test.step('create an app with two redirect URLs', async () => {
    await page.getByRole('link', { name: 'Add application' }).click();
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/app/create$`));
    await expect(page.getByRole('button', { name: 'Create' })).toBeDisabled();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(appName);
    await fillRedirectUrls(page, ['https://shop.example.com/callback', 'not a uri']);
    await expect(page.getByText('Invalid URI')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create' })).toBeDisabled();
    await fillRedirectUrls(page, ['https://shop.example.com/callback', 'com.example.shop:/callback']);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create' }).click();
    const secret = await copySecretAndAcknowledge(page);
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/app/[^/]+/settings$`));
    return secret;
  });
  const appId = new URL(page.url()).pathname.split('/')[4] as string;

  await test.step('the settings show the type, ids and both redirect URLs', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Application settings' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Type', exact: true })).toHaveValue('oidc');
    await expect(page.getByRole('textbox', { name: 'Project ID', exact: true })).toHaveValue(projectId);
    await expect(page.getByRole('textbox', { name: 'Client ID', exact: true })).not.toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Redirect URL 1', exact: true })).toHaveValue('https://shop.example.com/callback');
    await expect(page.getByRole('textbox', { name: 'Redirect URL 2', exact: true })).toHaveValue('com.example.shop:/callback');
    await expect(page.getByText(firstSecret)).toHaveCount(0);
    await expectAccessible(page);
  });

  await test.step('the app is found in the list by its name', async () => {
    await goToApps(page, projectId);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(appName.slice(0, 8).toLowerCase());
    await expect(page).toHaveURL(/#.*name=/);
    const row = page.getByRole('row', { name: new RegExp(appName) });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell', { name: 'oidc' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('no-such-app-anywhere');
    await expect(page.getByText('No records found')).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('row', { name: new RegExp(appName) })).toBeVisible();
    await page.getByRole('row', { name: new RegExp(appName) }).getByRole('link', { name: /settings/i }).click();
    await expect(page).toHaveURL(new RegExp(`/app/${appId}/settings$`));
  });

  await test.step('generate new keys: a new secret, shown once', async () => {
    await page.getByRole('button', { name: 'Generate new keys' }).click();
    await confirmDialog(page, 'Generate new keys').getByRole('button', { name: 'Generate' }).click();
    const secondSecret = await copySecretAndAcknowledge(page);
    expect(secondSecret).not.toBe(firstSecret);
  });

  await test.step('disable, then enable again', async () => {
    await page.getByRole('button', { name: 'Disable application' }).click();
    await confirmDialog(page, 'Disable application').getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByRole('button', { name: 'Enable application' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Generate new keys' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    const disabled = await callApi(page, 'GET', `/apps/${appId}`);
    expect(((await disabled.json()) as { enabled: boolean }).enabled).toBe(false);

    await page.getByRole('button', { name: 'Enable application' }).click();
    await confirmDialog(page, 'Enable application').getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByRole('button', { name: 'Disable application' })).toBeVisible();
    const enabled = await callApi(page, 'GET', `/apps/${appId}`);
    expect(((await enabled.json()) as { enabled: boolean }).enabled).toBe(true);
  });
});

test('an account holding only usage on a project sees the 403 page at its applications', async ({ browser, baseURL, page }) => {
  await signIn(page, newEmail('owner-of-apps'));
  const projectId = await createProjectThroughForm(page, 'Guarded apps');

  const viewerEmail = newEmail('viewer');
  const { page: viewer, close } = await signInInNewContext(browser, baseURL as string, viewerEmail);
  await setPermissions(viewerEmail, [`cst:${projectId}:usage`]);

  await viewer.goto(`/project/${projectId}/apps`);
  await expect(viewer.getByText("You don't have permissions to view this page")).toBeVisible();
  await expectAccessible(viewer);
  const api = await viewer.request.get(`/api/projects/${projectId}/apps`);
  expect(api.status()).toBe(403);
  await close();
});
