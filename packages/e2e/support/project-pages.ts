import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Helpers named as a person would describe the step. */

export async function goToProjectList(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
}

export async function clickAddProject(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Add project' }).click();
  await expect(page).toHaveURL(/\/project\/create$/);
}

export async function fillProjectName(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
}

/** Creates a project through the form; answers its id, read from the address it lands on. */
export async function createProjectThroughForm(page: Page, name: string): Promise<string> {
  await goToProjectList(page);
  await clickAddProject(page);
  await fillProjectName(page, name);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/project\/[^/]+\/dashboard$/);
  const id = new URL(page.url()).pathname.split('/')[2];
  if (!id) throw new Error(`no project id in ${page.url()}`);
  return id;
}

/** The XSRF token the console holds, for calls a test makes through the page's own session. */
export async function xsrfToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('no XSRF-TOKEN cookie: is the page signed in?');
  return cookie.value;
}

/** Calls the management API with the browser's session, as the console would. */
export async function callApi(
  page: Page,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
): Promise<Awaited<ReturnType<APIRequestContext['fetch']>>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (method !== 'GET') headers['X-XSRF-TOKEN'] = await xsrfToken(page);
  return page.request.fetch(`/api${path}`, { method, headers, data: data === undefined ? undefined : JSON.stringify(data) });
}

export async function closeProjectThroughApi(page: Page, projectId: string): Promise<void> {
  const res = await callApi(page, 'PUT', `/projects/${projectId}/meta`, { enabled: false, purchaseOrder: '', referrer: '' });
  expect(res.status(), await res.text()).toBe(200);
}

export async function expectProjectCard(page: Page, name: string, visible = true): Promise<void> {
  const card = page.getByRole('link', { name, exact: true });
  if (visible) await expect(card).toBeVisible();
  else await expect(card).toHaveCount(0);
}
