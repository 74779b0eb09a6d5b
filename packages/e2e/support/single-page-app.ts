import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { freePort } from './start-server.ts';

/**
 * A single-page app for the scenarios — not part of the product: a page that signs its user in with
 * oidc-client-ts (a standard browser OpenID Connect library nobody here wrote) as a public client
 * (code + PKCE, no secret), keeps its tokens in the browser, refreshes them with the refresh token
 * (offline_access) and signs out through the issuer's end_session_endpoint.
 */
export interface SinglePageApp {
  origin: string;
  url: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** Names the issuer and client; call before anyone opens the app. */
  useClient(client: { issuer: string; clientId: string }): void;
  close(): Promise<void>;
}

// The library's browser build (a global `oidc`), beside its package.json (its exports name only the module builds).
const packageJson = createRequire(import.meta.url).resolve('oidc-client-ts/package.json');
const library = readFileSync(join(dirname(packageJson), 'dist/browser/oidc-client-ts.min.js'), 'utf8');

// The app itself: a button to sign in; once signed in, who, the access token's end, "Refresh" and "Sign out".
const APP = `
const config = window.APP_CONFIG;
const manager = new oidc.UserManager({
  authority: config.issuer,
  client_id: config.clientId,
  redirect_uri: config.redirectUri,
  post_logout_redirect_uri: config.postLogoutRedirectUri,
  response_type: 'code',
  scope: 'openid email offline_access',
  prompt: 'consent',
  automaticSilentRenew: false,
  loadUserInfo: true,
});
const main = document.querySelector('main');
let refreshes = 0;
const show = (user, note) => {
  main.innerHTML = '';
  const h1 = document.createElement('h1');
  h1.textContent = 'Single-page app';
  const who = document.createElement('p');
  who.textContent = 'Signed in as ' + user.profile.email;
  const token = document.createElement('p');
  token.id = 'token';
  token.textContent = 'Access token ending ' + user.access_token.slice(-8);
  const status = document.createElement('p');
  status.setAttribute('role', 'status');
  status.textContent = note;
  const refresh = document.createElement('button');
  refresh.textContent = 'Refresh';
  refresh.onclick = async () => {
    try {
      const user = await manager.signinSilent();
      refreshes += 1;
      show(user, 'Refreshed ' + refreshes + (refreshes === 1 ? ' time' : ' times'));
    } catch (error) {
      status.textContent = 'Refresh failed: ' + error.message;
    }
  };
  const out = document.createElement('button');
  out.textContent = 'Sign out';
  out.onclick = () => manager.signoutRedirect();
  main.append(h1, who, token, status, refresh, out);
};
(async () => {
  if (location.pathname === '/signed-out') {
    main.innerHTML = '<h1>Signed out of the single-page app</h1><button id="in">Sign in</button>';
    document.getElementById('in').onclick = () => manager.signinRedirect();
    return;
  }
  if (new URLSearchParams(location.search).has('code')) {
    const user = await manager.signinRedirectCallback();
    history.replaceState(null, '', '/');
    return show(user, 'Signed in');
  }
  const user = await manager.getUser();
  if (user) return show(user, 'Signed in');
  main.innerHTML = '<h1>Single-page app</h1><button id="in">Sign in</button>';
  document.getElementById('in').onclick = () => manager.signinRedirect();
})().catch((error) => {
  main.innerHTML = '<h1>Single-page app failed</h1><p></p>';
  main.querySelector('p').textContent = String(error && error.message || error);
});
`;

export async function startSinglePageApp(): Promise<SinglePageApp> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  let client: { issuer: string; clientId: string } | null = null;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/oidc-client-ts.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(library);
    if (url.pathname === '/app.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(APP);
    if (url.pathname === '/config.js') {
      const config = { ...client, redirectUri: `${origin}/`, postLogoutRedirectUri: `${origin}/signed-out` };
      return response.writeHead(200, { 'content-type': 'text/javascript' }).end(`window.APP_CONFIG = ${JSON.stringify(config)};`);
    }
    if (url.pathname === '/' || url.pathname === '/signed-out') {
      return response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Single-page app</title></head><body><main></main>' +
            '<script src="/oidc-client-ts.js"></script><script src="/config.js"></script><script src="/app.js"></script></body></html>',
        );
    }
    return response.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  return {
    origin,
    url: `${origin}/`,
    redirectUri: `${origin}/`,
    postLogoutRedirectUri: `${origin}/signed-out`,
    useClient(c) {
      client = c;
    },
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

/** Opens the app and presses its "Sign in": the browser goes to the project's sign-in page. */
export async function signInAtSinglePageApp(page: Page, url: string, projectName: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: `Sign in to ${projectName}` })).toBeVisible();
}

/** Back at the app, signed in as `email`; answers the end of the access token it holds. */
export async function expectSignedInAtSinglePageApp(page: Page, email: string): Promise<string> {
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  return (await page.locator('#token').textContent()) ?? '';
}

/** "Refresh" (the `n`th time): the app exchanges its refresh token in the background; answers the new access token's end. */
export async function refreshAtSinglePageApp(page: Page, n: number): Promise<string> {
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('status')).toHaveText(`Refreshed ${n} ${n === 1 ? 'time' : 'times'}`);
  return (await page.locator('#token').textContent()) ?? '';
}

/** "Sign out": through the issuer's end_session_endpoint, back to the app's signed-out page. */
export async function signOutAtSinglePageApp(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Signed out of the single-page app' })).toBeVisible();
}
