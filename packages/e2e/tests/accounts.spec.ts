import type { Page } from '@playwright/test';
import { createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { FORBIDDEN_TEXT } from '../support/layout.ts';
import { expectPageTitle } from '../support/project-pages.ts';
import { newEmail, signIn } from '../support/sign-in.ts';

// Issue 12: staff and service accounts, as a project's owner manages them.

const checkbox = (page: Page, name: string) => page.getByRole('group', { name: 'This project' }).getByRole('checkbox', { name, exact: true });

test('an owner adds a person with View Usage only, who sees the dashboard but not the applications', async ({ page, browser }) => {
  await signIn(page, newEmail('accounts-owner'));
  const projectId = await createProjectThroughApi(page, `Accounts shop ${Date.now().toString(36)}`);
  const person = newEmail('usage-viewer');

  await page.goto(`/project/${projectId}/accounts`);
  await expectPageTitle(page, 'Accounts');
  await page.getByRole('link', { name: 'Add user' }).click();
  await expectPageTitle(page, 'Create staff account');
  await page.getByRole('textbox', { name: 'Email' }).fill(person);
  await expect(page.getByRole('button', { name: 'Create' })).toBeDisabled();

  // spec §5: checking the parent checks and disables its children.
  await checkbox(page, 'select all').check();
  await expect(checkbox(page, 'Manage Apps')).toBeDisabled();
  await expect(checkbox(page, 'Manage Apps')).toBeChecked();
  await checkbox(page, 'select all').uncheck();
  await expect(checkbox(page, 'Manage Apps')).toBeEnabled();
  await expect(checkbox(page, 'Manage Apps')).not.toBeChecked();
  await checkbox(page, 'View Usage').check();
  await saveShots(page, 'account-create');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create' }).click();

  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/accounts`));
  const row = page.getByRole('row', { name: new RegExp(person) });
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('usage');
  await saveShots(page, 'accounts-list');
  await expectAccessible(page);

  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '198.19.250.1' } });
  const theirs = await context.newPage();
  await signIn(theirs, person);
  await theirs.goto(`/project/${projectId}/dashboard`);
  await expectPageTitle(theirs, 'Dashboard');
  await theirs.goto(`/project/${projectId}/apps`);
  await expect(theirs.getByText(FORBIDDEN_TEXT)).toBeVisible();
  await context.close();

  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(person) })).not.toContainText('Invited');
});

test('an owner creates a service account, copies its token once, and the token lists the project’s apps', async ({ page, request, baseURL }) => {
  await signIn(page, newEmail('service-owner'));
  const projectId = await createProjectThroughApi(page, `Service shop ${Date.now().toString(36)}`);
  await createAppWithKeysThroughApi(page, projectId, ['https://app.example.com/callback']);

  await page.goto(`/project/${projectId}/serviceaccount/create`);
  await expectPageTitle(page, 'Create service account');
  await page.getByRole('textbox', { name: 'Name' }).fill('CI deploy');
  await checkbox(page, 'Manage Apps').check();
  await page.getByRole('button', { name: 'Create' }).click();

  const dialog = page.getByRole('dialog', { name: 'Service account token' });
  const token = await dialog.getByRole('textbox', { name: 'Token' }).inputValue();
  expect(token).toMatch(/^lks_/);
  await saveShots(page, 'service-token');
  await dialog.getByRole('button', { name: /copied/i }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/accounts`));

  const apps = await request.get(`${baseURL}/api/projects/${projectId}/apps`, { headers: { authorization: `Bearer ${token}` } });
  expect(apps.status()).toBe(200);
  expect(((await apps.json()) as { list: Array<{ name: string }> }).list.map((a) => a.name)).toEqual(['Test app']);

  await page.getByRole('link', { name: 'Manage CI deploy' }).click();
  await expectPageTitle(page, 'Edit account');
  await expect(page.getByText(token.slice(0, 10))).toBeVisible();
  await expect(page.getByText(/from /)).toBeVisible();
  await saveShots(page, 'service-account-settings');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Revoke token' }).click();
  await page.getByRole('dialog', { name: 'Revoke the token?' }).getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByText('This service account has no token: generate one.')).toBeVisible();
  const refused = await request.get(`${baseURL}/api/projects/${projectId}/apps`, { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
});
