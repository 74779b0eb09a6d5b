import { newEmail, signIn } from '../support/auth.ts';
import {
  closeProjectThroughApi,
  createProjectThroughForm,
  expectProjectCard,
  goToProjectList,
} from '../support/console.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';

test('a new user signs in, creates a project, closes it and finds it behind the toggle, then signs out', async ({
  page,
}) => {
  const email = newEmail('newcomer');
  const projectName = `Acme ${Date.now().toString(36)}`;

  await test.step('sign in through the built-in provider with the mailed code', async () => {
    await page.goto('/');
    await expect(page.getByLabel('Email')).toBeVisible();
    await expectAccessible(page);
    await signIn(page, email);
    await expect(page.getByText(email)).toBeVisible();
    await expectAccessible(page);
  });

  const projectId = await test.step('create a project', async () => {
    const id = await createProjectThroughForm(page, projectName);
    await expect(page.getByRole('navigation', { name: /breadcrumb/i })).toContainText(projectName);
    return id;
  });

  await test.step('the project shows in the list and in the switcher', async () => {
    await goToProjectList(page);
    await expectProjectCard(page, projectName);
    await page.getByRole('button', { name: 'Switch project' }).click();
    await expect(page.getByRole('menuitem', { name: projectName })).toBeVisible();
    await page.keyboard.press('Escape');
  });

  await test.step('closed through the API, it hides behind the Closed Projects toggle', async () => {
    await closeProjectThroughApi(page, projectId);
    await goToProjectList(page);
    await expectProjectCard(page, projectName, false);
    await page.getByLabel('Closed Projects').check();
    await expectProjectCard(page, projectName);
    await expectAccessible(page);
  });

  await test.step('a closed project shows the disabled banner', async () => {
    await page.getByRole('link', { name: projectName, exact: true }).click();
    await expect(page.getByText('This project is disabled').first()).toBeVisible();
  });

  await test.step('sign out returns to the identity provider', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByLabel('Email')).toBeVisible();
    const account = await page.request.get('/api/account');
    expect(account.status()).toBe(401);
  });
});

test('an expired session shows the blocking modal and signing in again returns to the same page', async ({
  page,
}) => {
  const email = newEmail('expiry');
  await signIn(page, email);
  const projectId = await createProjectThroughForm(page, 'Expiry project');
  const welcome = `/project/${projectId}/welcome`;
  await page.goto(welcome);
  await expect(page.getByRole('button', { name: 'Add App' })).toBeVisible();

  // The session ends on the server (as at its expiry); the browser still believes it is signed in.
  const ended = await page.request.get('/api/logout');
  expect(ended.status()).toBe(200);

  await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
  const modal = page.getByRole('dialog', { name: 'Session expired' });
  await expect(modal).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modal).toBeVisible();
  await expectAccessible(page);

  const pathWhenExpired = new URL(page.url()).pathname;
  await modal.getByRole('button', { name: 'Log in' }).click();
  // The provider may still remember the browser; if it asks, sign in again.
  const emailField = page.getByLabel('Email');
  const loggedIn = page.getByRole('button', { name: 'Log out' });
  await expect(emailField.or(loggedIn)).toBeVisible();
  if (await emailField.isVisible()) {
    const { fillSignInForm } = await import('../support/auth.ts');
    await fillSignInForm(page, email);
  }
  await expect(loggedIn).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${pathWhenExpired.replace(/\//g, '\\/')}$`));
});
