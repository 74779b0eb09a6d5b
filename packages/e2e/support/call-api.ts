import {
  API_BASE_PATH,
  api,
  buildPath,
  REVOCATION_REASON,
  XSRF_COOKIE,
  XSRF_HEADER,
  type BodyOf,
  type ApplicationType,
  type Endpoint,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '@latchkey/domain';
import { expect, type Page } from '@playwright/test';

/** The XSRF token the console holds, for calls a test makes through the page's own session. */
export async function xsrfToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === XSRF_COOKIE);
  if (!cookie) throw new Error(`no ${XSRF_COOKIE} cookie: is the page signed in?`);
  return cookie.value;
}

interface CallOptions<E> {
  params?: ParamsOf<E>;
  query?: QueryOf<E>;
  body?: BodyOf<E>;
}

/**
 * One call of the API contract with the browser's session, as the console makes it: method and
 * path from the contract entry, the XSRF header on unsafe methods. Answers the response itself.
 */
export async function callApi<E extends Endpoint>(page: Page, endpoint: E, options: CallOptions<E> = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (endpoint.method !== 'GET') headers[XSRF_HEADER] = await xsrfToken(page);
  const path = buildPath(endpoint.path, (options.params ?? {}) as Record<string, string>);
  const query = Object.entries((options.query ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null);
  const search = query.length > 0 ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
  return page.request.fetch(`${API_BASE_PATH}${path}${search}`, {
    method: endpoint.method,
    headers,
    data: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** As `callApi`, expecting a success: answers the parsed body. */
export async function callApiOk<E extends Endpoint>(page: Page, endpoint: E, options: CallOptions<E> = {}): Promise<ResponseOf<E>> {
  const res = await callApi(page, endpoint, options);
  expect(res.ok(), `${endpoint.method} ${endpoint.path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as ResponseOf<E>;
}

/** A project of the signed-in account, made through the API (for scenarios about something else). */
export async function createProjectThroughApi(page: Page, name: string): Promise<string> {
  const account = await callApiOk(page, api.getAccount);
  const { id } = await callApiOk(page, api.createProject, { body: { name, email: account.email } });
  return id;
}

export async function closeProjectThroughApi(page: Page, projectId: string): Promise<void> {
  await callApiOk(page, api.updateProjectMeta, { params: { project: projectId }, body: { enabled: false, purchaseOrder: '', referrer: '' } });
}

export async function getAppThroughApi(page: Page, applicationId: string) {
  return callApiOk(page, api.getApp, { params: { application: applicationId } });
}

/** An OpenID Connect application in the project with its keys, through the API (a web app unless `applicationType` says otherwise): answers its client credentials. */
export async function createAppWithKeysThroughApi(page: Page, projectId: string, redirectUris: string[], applicationType: ApplicationType = 'web') {
  const { id } = await callApiOk(page, api.createApp, {
    body: { platformCode: 'oidc', applicationType, name: 'Test app', url: new URL(redirectUris[0] ?? 'https://app.example.com').origin, projectId },
  });
  const keys = await callApiOk(page, api.createAppKeys, { params: { application: id }, body: { redirectURI: redirectUris } });
  return { ...keys, id };
}

/** Revokes an end user's passkey as a project admin does (POST projects/{project}/mpinids/{mpinId}/revocation). */
export async function revokeDeviceThroughApi(page: Page, projectId: string, mpinId: string) {
  return callApiOk(page, api.revokeDevice, { params: { project: projectId, mpinId }, body: { reason: REVOCATION_REASON } });
}

/**
 * A single-page app's set-up through the API (issue 22): the project lets public clients exchange a
 * code with PKCE alone and lets the app's origin call its issuer (Allowed CORS Origins); the app is
 * a `spa` whose redirect and post-logout URIs are given. Answers its client id.
 */
export async function createSinglePageAppThroughApi(
  page: Page,
  projectId: string,
  app: { origin: string; redirectUri: string; postLogoutRedirectUri: string },
): Promise<string> {
  const issuer = await callApiOk(page, api.getIssuer, { params: { project: projectId } });
  await callApiOk(page, api.updateIssuer, { params: { project: projectId }, body: { ...issuer, allow_pkce_only_token_exchange: true } });
  const project = await callApiOk(page, api.getProject, { params: { project: projectId } });
  await callApiOk(page, api.updateProject, { params: { project: projectId }, body: { ...project, allowedCORSDomains: [app.origin] } });
  const { id } = await callApiOk(page, api.createApp, {
    body: { platformCode: 'oidc', applicationType: 'spa', name: 'Single-page app', url: app.origin, projectId },
  });
  const keys = await callApiOk(page, api.createAppKeys, {
    params: { application: id },
    body: { redirectURI: [app.redirectUri], postLogoutRedirectURI: [app.postLogoutRedirectUri] },
  });
  return keys.clientId;
}
