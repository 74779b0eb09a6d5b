import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../src/lib/browser.ts';
import { fakeApi } from './fake-api.ts';
import { ACCOUNT, project, projectSummary } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

const ORIGIN = window.location.origin;

beforeEach(() => {
  vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A server where the code is accepted and the account then loads. */
function signInServer(loginNext: string | null = null) {
  return fakeApi({
    'POST /login': { body: { next: loginNext } },
    'GET /account': { body: ACCOUNT },
    'GET /config': { body: { docsUrl: 'https://docs.example', supportUrl: 'https://support.example', registration: 'open' } },
    'GET /accounts/acc-1/projects': { body: [projectSummary()] },
    'GET /projects/p1': { body: project() },
  });
}

describe('login callback page (spec §2)', () => {
  it('shows Loading... and does not load the account by itself', async () => {
    const server = fakeApi({ 'POST /login': () => new Promise(() => undefined) });
    renderApp('/login?code=abc&state=s1');
    // The page itself (not the router's Loading... while the page's module loads) has sent the code.
    await waitFor(() => expect(server.callsTo('POST /login')).toHaveLength(1));
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(server.callsTo('GET /account')).toHaveLength(0);
  });

  it('goes to the declined page with the error the provider returned, without logging in', async () => {
    const server = fakeApi({});
    const app = renderApp('/login?error=consent_required');
    expect(await screen.findByRole('heading', { name: 'Authentication Declined' })).toBeInTheDocument();
    expect(screen.getByText("You pressed 'Disagree' on the mobile authenticator")).toBeInTheDocument();
    expect(app.location()).toBe('/login/error?error=consent_required');
    expect(server.callsTo('POST /login')).toHaveLength(0);
  });

  it('exchanges the code once (StrictMode runs effects twice), then loads the account', async () => {
    const server = signInServer();
    const app = renderApp('/login?code=once&state=st', { strict: true });
    await waitFor(() => expect(app.location()).toBe('/'));
    expect(server.callsTo('POST /login')).toHaveLength(1);
    expect(server.callsTo('POST /login')[0]?.body).toEqual({ code: 'once', redirectURL: `${ORIGIN}/login`, state: 'st' });
    expect(server.callsTo('GET /account').length).toBeGreaterThanOrEqual(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
  });

  it('goes to the next target of the query when it is one of the console routes', async () => {
    signInServer('/project/create');
    const app = renderApp(`/login?code=c-next&next=${encodeURIComponent('/project/p1/apps?x=1#top')}`);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/project/p1/apps'));
    expect(app.router.state.location.search).toBe('?x=1');
    expect(app.router.state.location.hash).toBe('#top');
  });

  it("goes to the login answer's next when the query has none", async () => {
    signInServer('/project/create');
    const app = renderApp('/login?code=c-answer');
    await waitFor(() => expect(app.location()).toBe('/project/create'));
  });

  it.each([
    ['another site', 'https://evil.example/project/p1/apps'],
    ['a protocol-relative address', '//evil.example/'],
    ['a path that is no console route', '/admin/secrets'],
    ['the sign-in page itself', '/login?code=again'],
  ])('goes to / instead of %s', async (_label, next) => {
    signInServer(null);
    const code = `c-${Math.random().toString(36).slice(2)}`;
    const app = renderApp(`/login?code=${code}&next=${encodeURIComponent(next)}`);
    await waitFor(() => expect(app.location()).toBe('/'));
  });

  it.each([
    ['registration_disabled', 403, 'registration_disabled', 'Registration is disabled'],
    ['login_failed', 400, 'auth_error', 'There was a problem with authentication'],
    ['forbidden', 403, 'auth_error', 'There was a problem with authentication'],
    ['internal', 500, 'auth_error', 'There was a problem with authentication'],
  ])('goes to the declined page when the login fails with %s', async (code, status, shown, text) => {
    const server = fakeApi({ 'POST /login': { status, body: { error: code, message: 'No' } } });
    const app = renderApp(`/login?code=fail-${code}`);
    await waitFor(() => expect(app.location()).toBe(`/login/error?error=${shown}`));
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(server.callsTo('GET /account')).toHaveLength(0);
  });

  it('goes to the declined page with auth_error when the login call cannot reach the server', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const app = renderApp('/login?code=fail-network');
    await waitFor(() => expect(app.location()).toBe('/login/error?error=auth_error'));
    expect(await screen.findByText('There was a problem with authentication')).toBeInTheDocument();
  });

  it('keeps the error value the provider returned (access_denied)', async () => {
    fakeApi({});
    const app = renderApp('/login?error=access_denied');
    await waitFor(() => expect(app.location()).toBe('/login/error?error=access_denied'));
    expect(await screen.findByText('The authentication was cancelled')).toBeInTheDocument();
  });
});

describe('authentication declined page (spec §2)', () => {
  it.each([
    ['consent_required', "You pressed 'Disagree' on the mobile authenticator"],
    ['registration_disabled', 'Registration is disabled'],
    ['auth_error', 'There was a problem with authentication'],
    ['access_denied', 'The authentication was cancelled'],
    ['', 'The authentication was cancelled'],
  ])('error=%s says "%s"', async (error, text) => {
    fakeApi({});
    renderApp(`/login/error?error=${error}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Authentication Declined' })).toBeInTheDocument();
    expect(screen.getByText(text, { exact: true })).toBeInTheDocument();
  });

  it('Try again logs out and follows the server to the identity provider', async () => {
    const server = fakeApi({ 'GET /logout': { body: { redirectUrl: 'https://idp.example/logout' } } });
    const app = renderApp('/login/error?error=auth_error');
    await app.user.click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(browser.assign).toHaveBeenCalledWith('https://idp.example/logout'));
    expect(server.callsTo('GET /logout')).toHaveLength(1);
  });
});

describe('session entry (spec §2)', () => {
  it('loads the account first, showing a loader', async () => {
    fakeApi({ 'GET /account': () => new Promise(() => undefined) });
    renderApp('/');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading...');
  });

  it('sends the browser to the identity provider, to come back to the same path, when the account fails', async () => {
    const server = fakeApi({
      'GET /account': { status: 401, body: { error: 'unauthorized', message: 'Sign in' } },
      'GET /authurl': { body: { authUrl: 'https://idp.example/auth?x=1' } },
    });
    renderApp('/project/p1/apps?sort=name#page=2', { strict: true });
    await waitFor(() => expect(browser.assign).toHaveBeenCalledWith('https://idp.example/auth?x=1'));
    expect(browser.assign).toHaveBeenCalledTimes(1);
    const authUrl = server.callsTo('GET /authurl');
    expect(authUrl).toHaveLength(1);
    expect(authUrl[0]?.query.get('redirectURL')).toBe(`${ORIGIN}/login`);
    expect(authUrl[0]?.query.get('state_next')).toBe('/project/p1/apps?sort=name#page=2');
    // An unsigned visitor is not shown the session-expired modal.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
