import { expect, type Page } from '@playwright/test';

// The project list and the create-project form: what a person sees and does there.

export async function goToProjectList(page: Page): Promise<void> {
  await page.goto('/');
  await expectPageTitle(page, 'Projects');
}

export async function goToCreateProject(page: Page): Promise<void> {
  await page.goto('/project/create');
  await expectPageTitle(page, 'Create project');
}

export async function goToProjectPage(page: Page, projectId: string, path: string): Promise<void> {
  await page.goto(`/project/${projectId}/${path}`);
}

/**
 * Goes to `path` the way the console's own links do: through the router's history, with no new
 * page load (the console's code, its catalogue and axe stay loaded, as they do for a person
 * clicking through). Done when the page's heading is no longer the one before: a walk's pages each
 * have their own title. At `path` already, nothing happens.
 */
export async function followInConsole(page: Page, path: string): Promise<void> {
  const target = new URL(path, page.url());
  if (new URL(page.url()).pathname === target.pathname) return;
  const heading = page.getByRole('heading', { level: 1 });
  const before = await heading.innerText();
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, target.pathname);
  await expect(heading).not.toHaveText(before);
}

export async function expectPageTitle(page: Page, title: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

export async function clickAddProject(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Add project' }).click();
  await expect(page).toHaveURL(/\/project\/create$/);
}

export async function fillProjectName(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
}

export async function expectCreateEnabled(page: Page, enabled: boolean): Promise<void> {
  const button = page.getByRole('button', { name: 'Create' });
  if (enabled) await expect(button).toBeEnabled();
  else await expect(button).toBeDisabled();
}

export async function clickCreate(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create' }).click();
}

/** Creates a project through the form; answers its id, read from the address it lands on. */
export async function createProjectThroughForm(page: Page, name: string): Promise<string> {
  await goToProjectList(page);
  await clickAddProject(page);
  await fillProjectName(page, name);
  await clickCreate(page);
  await expect(page).toHaveURL(/\/project\/[^/]+\/dashboard$/);
  const id = new URL(page.url()).pathname.split('/')[2];
  if (!id) throw new Error(`no project id in ${page.url()}`);
  return id;
}

export async function expectProjectCard(page: Page, name: string, visible = true): Promise<void> {
  const card = page.getByRole('link', { name, exact: true });
  if (visible) await expect(card).toBeVisible();
  else await expect(card).toHaveCount(0);
}

export async function clickProjectCard(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name, exact: true }).click();
}

export async function showClosedProjects(page: Page): Promise<void> {
  await page.getByLabel('Closed Projects').check();
}

export async function expectWelcomePage(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Add App' })).toBeVisible();
}

/** The welcome page's call to action. */
export async function clickAddApp(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add App' }).click();
}

export async function expectValidationMessage(page: Page, message: string | RegExp): Promise<void> {
  await expect(page.getByText(message)).toBeVisible();
}
