import { newEmail, signIn, signInInNewContext } from '../support/auth.ts';
import { createProjectThroughForm } from '../support/console.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';

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
      await expect(page.getByRole('heading', { name: 'Authentication Declined' })).toBeVisible();
      await expect(page.getByText(text, { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
      await expectAccessible(page);
    });
  }

  test('cancelling at the provider ends on the declined page', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/login\/error\?error=access_denied/);
    await expect(page.getByText('The authentication was cancelled')).toBeVisible();
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByLabel('Email')).toBeVisible();
  });
});

test('a signed-in user sees the not-found, forbidden, welcome and create pages, all accessible', async ({ page }) => {
  await signIn(page, newEmail('pages'));

  await page.goto('/no/such/page');
  await expect(page.getByText('The requested page could not be found')).toBeVisible();
  await expectAccessible(page);

  await page.goto('/forbidden');
  await expect(page.getByText("You don't have permissions to view this page")).toBeVisible();
  await expectAccessible(page);

  await page.goto('/project/create');
  await expect(page.getByRole('button', { name: 'Create' })).toBeDisabled();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('x'.repeat(251));
  await expect(page.getByText('Maximum input length exceeded')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create' })).toBeDisabled();
  await expectAccessible(page);

  const projectId = await createProjectThroughForm(page, 'Pages project');
  await page.goto(`/project/${projectId}/welcome`);
  await expect(page.getByText(/1,000 authentications per month/)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Add App' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}/app/create$`));
});

test("another account's project is not found, not leaked", async ({ browser, baseURL, page }) => {
  await signIn(page, newEmail('alice'));
  const projectId = await createProjectThroughForm(page, 'Private project');

  const { page: other, close } = await signInInNewContext(browser, baseURL as string, newEmail('bob'));
  await other.goto(`/project/${projectId}/dashboard`);
  await expect(other.getByText('The requested page could not be found')).toBeVisible();
  await expect(other.getByText('Private project')).toHaveCount(0);
  const api = await other.request.get(`/api/projects/${projectId}`);
  expect(api.status()).toBe(404);
  await close();
});

test.describe('in the dark color scheme', () => {
  test.use({ colorScheme: 'dark' });
  test('the project list, create form and provider page stay accessible', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByLabel('Email')).toBeVisible();
    await expectAccessible(page);
    await signIn(page, newEmail('dark'));
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expectAccessible(page);
    await page.goto('/project/create');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('x'.repeat(251));
    await expect(page.getByText('Maximum input length exceeded')).toBeVisible();
    await expectAccessible(page);
  });
});
