import { api } from '@latchkey/domain';
import { callApi, closeProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import {
  clickBreadcrumbProjects,
  clickLogInAgain,
  clickLogOut,
  clickSwitchProject,
  expectBreadcrumb,
  expectMenuItem,
  expectSessionExpiredModal,
  expectText,
} from '../support/layout.ts';
import {
  clickProjectCard,
  createProjectThroughForm,
  expectProjectCard,
  expectWelcomePage,
  goToProjectList,
  goToProjectPage,
  showClosedProjects,
} from '../support/project-pages.ts';
import { expectSignInPage, newEmail, signIn, signInAgainIfAsked, signInThroughPages } from '../support/sign-in.ts';

test('a new user signs in, creates a project, closes it and finds it behind the toggle, then signs out', async ({ page }) => {
  const email = newEmail('newcomer');
  const projectName = `Acme ${Date.now().toString(36)}`;

  await test.step('sign in through the built-in provider with the mailed code', async () => {
    await page.goto('/');
    await expectSignInPage(page);
    await expectAccessible(page);
    await signInThroughPages(page, email);
    await expectText(page, email);
    await expectAccessible(page);
  });

  const projectId = await test.step('create a project', async () => {
    const id = await createProjectThroughForm(page, projectName);
    await expectBreadcrumb(page, projectName);
    return id;
  });

  await test.step('the project shows in the list and in the switcher', async () => {
    await goToProjectList(page);
    await expectProjectCard(page, projectName);
    await clickSwitchProject(page);
    await expectMenuItem(page, projectName);
    await page.keyboard.press('Escape');
  });

  await test.step('closed through the API, it hides behind the Closed Projects toggle', async () => {
    await closeProjectThroughApi(page, projectId);
    await goToProjectList(page);
    await expectProjectCard(page, projectName, false);
    await showClosedProjects(page);
    await expectProjectCard(page, projectName);
    await expectAccessible(page);
  });

  await test.step('a closed project shows the disabled banner', async () => {
    await clickProjectCard(page, projectName);
    await expectText(page, 'This project is disabled');
  });

  await test.step('sign out returns to the identity provider', async () => {
    await clickLogOut(page);
    await expectSignInPage(page);
    const account = await callApi(page, api.getAccount);
    expect(account.status()).toBe(401);
  });
});

test('an expired session shows the blocking modal and signing in again returns to the same page', async ({ page }) => {
  const email = newEmail('expiry');
  await signIn(page, email);
  const projectId = await createProjectThroughForm(page, 'Expiry project');
  await goToProjectPage(page, projectId, 'welcome');
  await expectWelcomePage(page);

  // The session ends on the server (as at its expiry); the browser still believes it is signed in.
  const ended = await callApi(page, api.logout);
  expect(ended.status()).toBe(200);

  await clickBreadcrumbProjects(page);
  await expectSessionExpiredModal(page);
  await page.keyboard.press('Escape');
  await expectSessionExpiredModal(page);
  await expectAccessible(page);

  const pathWhenExpired = new URL(page.url()).pathname;
  await clickLogInAgain(page);
  await signInAgainIfAsked(page, email);
  await expect(page).toHaveURL(new RegExp(`${pathWhenExpired.replace(/\//g, '\\/')}$`));
});
