import { closeProjectThroughApi, createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import {
  clickMenu,
  clickMenuItem,
  clickSwitchProject,
  expectBreadcrumb,
  expectClosedBanner,
  expectNoHorizontalScroll,
  expectNoSideMenu,
  expectSideMenu,
  expectText,
} from '../support/layout.ts';
import { expectPageTitle, followInConsole, goToProjectPage } from '../support/project-pages.ts';
import {
  clickUseDifferentEmail,
  expectCodeRefusedOrSignedIn,
  expectCodeStep,
  expectSignedIn,
  fillCodeAndSignIn,
  fillEmailAndContinue,
  fillSignInForm,
  newEmail,
  signIn,
} from '../support/sign-in.ts';

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

const SIDE_MENU = [
  'Dashboard',
  'Applications',
  'Device Registrations',
  'Audit Log',
  'General',
  'Branding',
  'User Verification',
  'OpenID Connect',
  'Mobile Applications',
  'Accounts',
];

test('every project page shows its title, breadcrumbs and side menu, and passes the accessibility check', async ({ page }) => {
  // Thirteen pages, each checked by axe: a walk, not one step (the languages walks take longer).
  test.setTimeout(180_000);
  await signIn(page, newEmail('tour'));
  const projectId = await createProjectThroughApi(page, 'Tour project');
  for (const [path, title] of PROJECT_PAGES) {
    await test.step(path, async () => {
      await followInConsole(page, `/project/${projectId}/${path}`);
      await expectPageTitle(page, title);
      await expectBreadcrumb(page, 'Tour project');
      await expectSideMenu(page, SIDE_MENU);
      await expectAccessible(page);
    });
  }
});

test('the project switcher switches between projects and offers to create one', async ({ page }) => {
  await signIn(page, newEmail('switcher'));
  const first = await createProjectThroughApi(page, 'First of two');
  const second = await createProjectThroughApi(page, 'Second of two');
  await goToProjectPage(page, first, 'welcome');
  await clickSwitchProject(page);
  await clickMenuItem(page, 'Second of two');
  await expect(page).toHaveURL(new RegExp(`/project/${second}/`));
  await clickSwitchProject(page);
  await clickMenuItem(page, 'Create project');
  await expect(page).toHaveURL(/\/project\/create$/);
});

test('a closed project says so on every page with a banner, and on its notice page', async ({ page }) => {
  await signIn(page, newEmail('closed'));
  const projectId = await createProjectThroughApi(page, 'Soon closed');
  await closeProjectThroughApi(page, projectId);
  await goToProjectPage(page, projectId, 'welcome');
  await expectClosedBanner(page);
  await goToProjectPage(page, projectId, 'disabled');
  await expectText(page, "Changes to the project's info, apps and accounts cannot be made while disabled.");
  await expectAccessible(page);
});

test.describe('on a small screen', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('the side menu gives way to a Menu dropdown in the top bar', async ({ page }) => {
    await signIn(page, newEmail('mobile'));
    const projectId = await createProjectThroughApi(page, 'Pocket project');
    await goToProjectPage(page, projectId, 'welcome');
    await expectNoSideMenu(page);
    await clickMenu(page);
    await clickMenuItem(page, 'Applications');
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}/apps$`));
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);
  });
});

test('the provider page that asks for the code is accessible, and a wrong code is refused', async ({ page }) => {
  const email = newEmail('code-page');
  await page.goto('/');
  await fillEmailAndContinue(page, email);
  await expectCodeStep(page, email);
  await expectAccessible(page);
  await fillCodeAndSignIn(page, '000000');
  // A wrong code (one in a million chance it is right) is refused with a clear message.
  if ((await expectCodeRefusedOrSignedIn(page)) === 'refused') {
    await expectAccessible(page);
    await clickUseDifferentEmail(page);
    await fillSignInForm(page, email);
  }
  await expectSignedIn(page);
});
