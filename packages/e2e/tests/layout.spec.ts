import { fillSignInForm, newEmail, signIn } from '../support/auth.ts';
import { closeProjectThroughApi, createProjectThroughForm } from '../support/console.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';

// Every page of a project, by its h1, as its administrator sees it (spec §2 routes).
const PROJECT_PAGES: Array<[string, string]> = [
  ['dashboard', 'Dashboard'],
  ['apps', 'Applications'],
  ['app/create', 'Create application'],
  ['accounts', 'Accounts'],
  ['account/create', 'Create staff account'],
  ['serviceaccount/create', 'Create service account'],
  ['audit', 'Audit Log'],
  ['devices', 'Device Registrations'],
  ['settings', 'General settings'],
  ['branding', 'Branding'],
  ['userverification', 'User Verification'],
  ['oidc', 'OpenID Connect'],
  ['mobileapps', 'Mobile Applications'],
  ['welcome', 'Welcome to Latchkey'],
  ['disabled', 'This project is disabled'],
];

test('every project page shows its title, breadcrumbs and side menu, and passes the accessibility check', async ({
  page,
}) => {
  await signIn(page, newEmail('tour'));
  const projectId = await createProjectThroughForm(page, 'Tour project');
  for (const [path, title] of PROJECT_PAGES) {
    await test.step(path, async () => {
      await page.goto(`/project/${projectId}/${path}`);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
      await expect(breadcrumb.getByRole('link', { name: 'Projects' })).toBeVisible();
      await expect(breadcrumb).toContainText('Tour project');
      const menu = page.getByRole('navigation', { name: 'Project menu' });
      for (const item of ['Dashboard', 'Applications', 'Device Registrations', 'Audit Log', 'General', 'Accounts']) {
        await expect(menu.getByRole('link', { name: item, exact: true })).toBeVisible();
      }
      await expectAccessible(page);
    });
  }
});

test('the project switcher switches between projects and offers to create one', async ({ page }) => {
  await signIn(page, newEmail('switcher'));
  const first = await createProjectThroughForm(page, 'First of two');
  const second = await createProjectThroughForm(page, 'Second of two');
  await page.goto(`/project/${first}/welcome`);
  await page.getByRole('button', { name: 'Switch project' }).click();
  await page.getByRole('menuitem', { name: 'Second of two' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${second}/`));
  await page.getByRole('button', { name: 'Switch project' }).click();
  await page.getByRole('menuitem', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/project\/create$/);
});

test('a closed project says so on every page with a banner, and on its notice page', async ({ page }) => {
  await signIn(page, newEmail('closed'));
  const projectId = await createProjectThroughForm(page, 'Soon closed');
  await closeProjectThroughApi(page, projectId);
  await page.goto(`/project/${projectId}/welcome`);
  await expect(page.getByRole('alert').filter({ hasText: 'This project is disabled' })).toBeVisible();
  await page.goto(`/project/${projectId}/disabled`);
  await expect(page.getByText("Changes to the project's info, apps and accounts cannot be made while disabled.")).toBeVisible();
  await expectAccessible(page);
});

test.describe('on a small screen', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('the side menu gives way to a Menu dropdown in the top bar', async ({ page }) => {
    await signIn(page, newEmail('mobile'));
    const projectId = await createProjectThroughForm(page, 'Pocket project');
    await page.goto(`/project/${projectId}/welcome`);
    await expect(page.getByRole('navigation', { name: 'Project menu' })).toBeHidden();
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('menuitem', { name: 'Applications', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/apps$`));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await expectAccessible(page);
  });
});

test('the provider page that asks for the code is accessible, and a wrong code is refused', async ({ page }) => {
  const email = newEmail('code-page');
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Code')).toBeVisible();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Code').fill('000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // A wrong code (one in a million chance it is right) is refused with a clear message.
  const refused = page.getByText('That code is not right');
  const signedIn = page.getByRole('button', { name: 'Log out' });
  await expect(refused.or(signedIn)).toBeVisible();
  if (await refused.isVisible()) {
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Use a different email' }).click();
    await fillSignInForm(page, email);
  }
  await expect(signedIn).toBeVisible();
});
