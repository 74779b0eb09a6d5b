import { api } from '@latchkey/domain';
import { callApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { clickTryAgain, expectDeclined, expectForbidden, expectNotFound, expectText, expectTextAbsent, expectTryAgain } from '../support/layout.ts';
import {
  clickAddApp,
  expectCreateEnabled,
  expectPageTitle,
  expectValidationMessage,
  fillProjectName,
  goToCreateProject,
  goToProjectPage,
} from '../support/project-pages.ts';
import { clickCancelSignIn, expectSignInPage, newEmail, signIn, signInInNewContext } from '../support/sign-in.ts';

test.describe('authentication declined page', () => {
  const cases: Array<[string, string]> = [
    ['consent_required', "You pressed 'Disagree' on the mobile authenticator"],
    ['registration_disabled', 'Registration is disabled'],
    ['auth_error', 'There was a problem with authentication'],
    ['access_denied', 'The authentication was cancelled'],
  ];
  for (const [error, text] of cases) {
    test(`error=${error} says "${text}"`, async ({ page }) => {
      await page.goto(`/login/error?error=${error}`);
      await expectDeclined(page, text);
      await expectTryAgain(page);
      await expectAccessible(page);
    });
  }

  test('cancelling at the provider ends on the declined page', async ({ page }) => {
    await page.goto('/');
    await clickCancelSignIn(page);
    await expect(page).toHaveURL(/\/login\/error\?error=access_denied/);
    await expectDeclined(page, 'The authentication was cancelled');
    await clickTryAgain(page);
    await expectSignInPage(page);
  });
});

test('a signed-in user sees the not-found, forbidden, welcome and create pages, all accessible', async ({ page }) => {
  await signIn(page, newEmail('pages'));

  await page.goto('/no/such/page');
  await expectNotFound(page);
  await expectAccessible(page);

  await page.goto('/forbidden');
  await expectForbidden(page);
  await expectAccessible(page);

  await goToCreateProject(page);
  await expectCreateEnabled(page, false);
  await fillProjectName(page, 'x'.repeat(251));
  await expectValidationMessage(page, 'Maximum input length exceeded');
  await expectCreateEnabled(page, false);
  await expectAccessible(page);

  const projectId = await createProjectThroughApi(page, 'Pages project');
  await goToProjectPage(page, projectId, 'welcome');
  await expectText(page, /1,000 authentications per month/);
  await expectAccessible(page);
  await clickAddApp(page);
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/app/create$`));
});

test("another account's project is not found, not leaked", async ({ browser, baseURL, page }) => {
  await signIn(page, newEmail('alice'));
  const projectId = await createProjectThroughApi(page, 'Private project');

  const { page: other, close } = await signInInNewContext(browser, baseURL as string, newEmail('bob'));
  await goToProjectPage(other, projectId, 'dashboard');
  await expectNotFound(other);
  await expectTextAbsent(other, 'Private project');
  const answer = await callApi(other, api.getProject, { params: { project: projectId } });
  expect(answer.status()).toBe(404);
  await close();
});

test.describe('in the dark color scheme', () => {
  test.use({ colorScheme: 'dark' });
  test('the project list, create form and provider page stay accessible', async ({ page }) => {
    await page.goto('/');
    await expectSignInPage(page);
    await expectAccessible(page);
    await signIn(page, newEmail('dark'));
    await expectPageTitle(page, 'Projects');
    await expectAccessible(page);
    await goToCreateProject(page);
    await fillProjectName(page, 'x'.repeat(251));
    await expectValidationMessage(page, 'Maximum input length exceeded');
    await expectAccessible(page);
  });
});
