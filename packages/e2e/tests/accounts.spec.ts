import {
  checkPermission,
  clickAddUser,
  clickManageAccount,
  clickRevokeToken,
  clickTokenCopied,
  expectAccountRow,
  expectAccountRowWithout,
  expectNoToken,
  expectPermission,
  chooseAccountStatus,
  readServiceAccountToken,
  fillAccountEmail,
  fillAccountName,
  uncheckPermission,
} from '../support/accounts-pages.ts';
import { createAppWithKeysThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { expectForbidden, expectTextOnce } from '../support/layout.ts';
import { clickCreate, expectCreateEnabled, expectPageTitle } from '../support/project-pages.ts';
import { newEmail, signIn } from '../support/sign-in.ts';

// Issue 12: staff and service accounts, as a project's owner manages them.

test('an owner adds a person with View Usage only, who sees the dashboard but not the applications', async ({ page, browser }) => {
  await signIn(page, newEmail('accounts-owner'));
  const projectId = await createProjectThroughApi(page, `Accounts shop ${Date.now().toString(36)}`);
  const person = newEmail('usage-viewer');

  await page.goto(`/project/${projectId}/accounts`);
  await expectPageTitle(page, 'Accounts');
  await clickAddUser(page);
  await expectPageTitle(page, 'Create staff account');
  await fillAccountEmail(page, person);
  await expectCreateEnabled(page, false);

  // spec §5: checking the parent checks and disables its children.
  await checkPermission(page, 'select all');
  await expectPermission(page, 'Manage Apps', { enabled: false, checked: true });
  await uncheckPermission(page, 'select all');
  await expectPermission(page, 'Manage Apps', { enabled: true, checked: false });
  await checkPermission(page, 'View Usage');
  await saveShots(page, 'account-create');
  await expectAccessible(page);
  await clickCreate(page);

  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/accounts`));
  await expectAccountRow(page, person, ['Invited', 'usage']);
  await saveShots(page, 'accounts-list');
  await expectAccessible(page);

  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '198.19.250.1' } });
  const theirs = await context.newPage();
  await signIn(theirs, person);
  await theirs.goto(`/project/${projectId}/dashboard`);
  await expectPageTitle(theirs, 'Dashboard');
  await theirs.goto(`/project/${projectId}/apps`);
  await expectForbidden(theirs);
  await context.close();

  await page.reload();
  await expectAccountRowWithout(page, person, 'Invited');
});

test('an owner creates a service account, copies its token once, and the token lists the project’s apps', async ({ page, request, baseURL }) => {
  await signIn(page, newEmail('service-owner'));
  const projectId = await createProjectThroughApi(page, `Service shop ${Date.now().toString(36)}`);
  await createAppWithKeysThroughApi(page, projectId, ['https://app.example.com/callback']);

  await page.goto(`/project/${projectId}/serviceaccount/create`);
  await expectPageTitle(page, 'Create service account');
  await fillAccountName(page, 'CI deploy');
  await checkPermission(page, 'Manage Apps');
  await clickCreate(page);

  const token = await readServiceAccountToken(page);
  expect(token).toMatch(/^lks_/);
  await saveShots(page, 'service-token');
  await clickTokenCopied(page);
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/accounts`));

  const apps = await request.get(`${baseURL}/api/projects/${projectId}/apps`, { headers: { authorization: `Bearer ${token}` } });
  expect(apps.status()).toBe(200);
  expect(((await apps.json()) as { list: Array<{ name: string }> }).list.map((a) => a.name)).toEqual(['Test app']);

  await clickManageAccount(page, 'CI deploy');
  await expectPageTitle(page, 'Edit account');
  await expectTextOnce(page, token.slice(0, 10));
  await expectTextOnce(page, /from /);
  await saveShots(page, 'service-account-settings');
  await expectAccessible(page);
  await clickRevokeToken(page);
  await expectNoToken(page);
  const refused = await request.get(`${baseURL}/api/projects/${projectId}/apps`, { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);

  // Issue 21: one created inactive gets no token; its page opens, where it is activated and its token made.
  await page.goto(`/project/${projectId}/serviceaccount/create`);
  await fillAccountName(page, 'Dormant');
  await checkPermission(page, 'Manage Apps');
  await chooseAccountStatus(page, 'Inactive');
  await clickCreate(page);
  await expectPageTitle(page, 'Edit account');
  await expectNoToken(page);
});
