import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { expectPageTitle } from '../support/project-pages.ts';
import { startRelyingParty } from '../support/relying-party.ts';
import { newEmail, OWNER_EMAIL, signIn } from '../support/sign-in.ts';

// Issue 11: the five settings pages, as a project's administrator uses them.

async function goToSettings(page: Page, projectId: string, path: string, title: string): Promise<void> {
  await page.goto(`/project/${projectId}/${path}`);
  await expectPageTitle(page, title);
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
}

async function clickSaveAndWait(page: Page): Promise<void> {
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/projects/'));
  await page.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
}

/** Picks a file as a person does: the field's button opens the browser's file chooser. */
async function chooseKeyFile(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Service account key file' }).click();
  await (await chooser).setFiles(path);
}

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const toggle = (page: Page, name: string) => page.getByRole('switch', { name, exact: true });

test('a project admin edits General, Branding, User Verification and OpenID Connect; the values stay after a reload', async ({ page }) => {
  await signIn(page, newEmail('settings-admin'));
  const projectId = await createProjectThroughApi(page, `Settings shop ${Date.now().toString(36)}`);

  await test.step('General: the login methods follow spec §4 as they are switched', async () => {
    await goToSettings(page, projectId, 'settings', 'General settings');
    await field(page, 'Authentication Page Title').fill('Settings shop, renamed');
    await field(page, 'PIN Length').fill('6');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await field(page, 'Allowed CORS Origin 1').fill('not a uri');
    await expect(page.getByText('Invalid URI')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await field(page, 'Allowed CORS Origin 1').fill('https://shop.example');

    const primaryMobile = page.getByRole('radio', { name: 'Mobile Login' });
    const primaryBrowser = page.getByRole('radio', { name: 'Browser Login' });
    await toggle(page, 'Browser Login').click();
    await expect(primaryMobile).toBeChecked();
    await expect(primaryMobile).toBeDisabled();
    await toggle(page, 'Mobile Login').click();
    await expect(page.getByText('You must select at least one login method')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await toggle(page, 'Browser Login').click();
    await expect(primaryBrowser).toBeChecked();
    await toggle(page, 'Mobile Login').click();
    await expect(primaryMobile).toBeEnabled();
    await primaryBrowser.check({ force: true });

    await expect(toggle(page, 'Limit QuickCode to verified devices')).toBeDisabled();
    await toggle(page, 'Enable QuickCode').click();
    await toggle(page, 'Limit QuickCode to verified devices').click();
    // Without a global permission the project domain is a copy field, not an input.
    await expect(page.getByText('Only an account with a global permission can change this.').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close project' })).toBeVisible();
    await clickSaveAndWait(page);
    await saveShots(page, 'settings-general');
    await expectAccessible(page);

    await page.reload();
    await expect(field(page, 'Authentication Page Title')).toHaveValue('Settings shop, renamed');
    await expect(field(page, 'PIN Length')).toHaveValue('6');
    await expect(field(page, 'Allowed CORS Origin 1')).toHaveValue('https://shop.example');
    await expect(primaryBrowser).toBeChecked();
    await expect(toggle(page, 'Limit QuickCode to verified devices')).toBeChecked();
  });

  await test.step('Branding: a phone number with a space is refused, a good one is kept', async () => {
    await goToSettings(page, projectId, 'branding', 'Branding');
    await field(page, 'Support Phone Number').fill('+44 1234');
    await expect(page.getByText('Invalid phone number')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await field(page, 'Support Phone Number').fill('+441234567890');
    await field(page, 'Support Email').fill('help@shop.example');
    await field(page, 'Display name').fill('Shop');
    await clickSaveAndWait(page);
    await saveShots(page, 'settings-branding');
    await expectAccessible(page);
    await page.reload();
    await expect(field(page, 'Support Phone Number')).toHaveValue('+441234567890');
  });

  await test.step('Branding history: the change is listed, and its earlier value goes back into the form', async () => {
    await page.getByRole('button', { name: 'History' }).click();
    const drawer = page.getByRole('dialog', { name: 'History of Branding' });
    await expect(drawer.getByRole('row', { name: /supportEmail/ })).toContainText('help@shop.example');
    // The drawer slides in: the picture waits for it to stand still.
    await drawer.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await saveShots(page, 'settings-history');
    await drawer.getByRole('button', { name: 'Restore the earlier value of displayName' }).click();
    await expect(field(page, 'Display name')).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  await test.step('User Verification: Email Link forces the email user ID; Custom opens its fields', async () => {
    await goToSettings(page, projectId, 'userverification', 'User Verification');
    await expect(field(page, 'Custom Verification URL')).toBeDisabled();
    await page.getByRole('radio', { name: 'Email Link' }).check();
    await expect(page.getByRole('radio', { name: 'Email', exact: true })).toBeChecked();
    await page.getByRole('radio', { name: 'Custom' }).check();
    await expect(field(page, 'Custom Verification URL')).toBeEnabled();
    await field(page, 'Custom Verification URL').fill('https://shop.example/verify');
    await field(page, 'Custom Verification Text').fill('Verify with Shop');
    await clickSaveAndWait(page);
    await saveShots(page, 'settings-verification');
    await expectAccessible(page);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Custom' })).toBeChecked();
    await expect(field(page, 'Custom Verification URL')).toHaveValue('https://shop.example/verify');
  });

  await test.step('OpenID Connect: at least one PKCE method; the change is kept', async () => {
    await page.goto(`/project/${projectId}/oidc`);
    await expectPageTitle(page, 'OpenID Connect');
    await expect(page.getByRole('textbox', { name: 'OIDC Issuer' })).toHaveValue(new RegExp(`/p/${projectId}$`));
    await page.getByRole('checkbox', { name: 'S256' }).uncheck();
    await expect(page.getByText('Select at least one method')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await page.getByRole('checkbox', { name: 'Plain' }).check();
    await page.getByRole('checkbox', { name: 'S256' }).check();
    await page.getByRole('switch', { name: 'Allow PKCE only token exchange' }).click();
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/issuer'));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
    await saveShots(page, 'settings-oidc');
    await expectAccessible(page);
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Plain' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'Allow PKCE only token exchange' })).toBeChecked();
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
  await field(page, 'Mobile Deep Link Domain').fill('https://app.push-shop.example');
  await field(page, 'Android store URL').fill('https://play.google.com/store/apps/details?id=com.pushshop');
  await expect(toggle(page, 'Push Notifications')).toBeDisabled();
  await toggle(page, 'Allow push notifications for this project').click();
  await toggle(page, 'Push Notifications').click();
  await expect(page.getByText('Required')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();

  await chooseKeyFile(page, notAKey);
  await expect(page.getByText(/This is not a Firebase service account key file/)).toBeVisible();
  await chooseKeyFile(page, keyFile);
  await expect(field(page, 'Firebase project ID')).toHaveValue('push-shop-1234');
  await expect(page.getByText('A new key will be saved: firebase-adminsdk-x1@push-shop-1234.iam.gserviceaccount.com.')).toBeVisible();
  await clickSaveAndWait(page);
  await saveShots(page, 'settings-mobile');
  await expectAccessible(page);

  await page.reload();
  await expect(field(page, 'Firebase project ID')).toHaveValue('push-shop-1234');
  await expect(page.getByText('A service account private key is set.')).toBeVisible();
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
    await page.getByRole('button', { name: 'Close project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close this project?' });
    const confirm = dialog.getByRole('button', { name: 'Close project' });
    await expect(confirm).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Project name' }).fill('not the name');
    await expect(confirm).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Project name' }).fill(name);
    await confirm.click();
    await expect(dialog).toBeHidden();

    await expect(page.getByText('This project is disabled')).toBeVisible();
    await expect(field(page, 'Authentication Page Title')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Close project' })).toHaveCount(0);
    await saveShots(page, 'settings-closed');
    await page.goto(`/project/${projectId}/apps`);
    await expectPageTitle(page, 'Applications');
    await expect(page.getByRole('link', { name: 'Add application' })).toHaveCount(0);

    const endUser = await page.context().browser()?.newPage();
    if (!endUser) throw new Error('no browser');
    await endUser.goto(app.url);
    await expect(endUser.getByRole('heading', { name: 'This project is closed' })).toBeVisible();
    await endUser.close();
  } finally {
    await app.close();
  }
});
