import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../src/lib/browser.ts';
import { fakeApi } from './fake-api.ts';
import { ACCOUNT, project } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

beforeEach(() => {
  vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  vi.spyOn(browser, 'currentPath').mockReturnValue('/project/p1/welcome?tab=1#x');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('session expired (spec §2, §4)', () => {
  it('opens a modal that cannot be dismissed when a call answers 401, and Log in comes back to the same path', async () => {
    const server = fakeApi({
      'GET /account': { body: ACCOUNT },
      'GET /config': { body: { docsUrl: '', supportUrl: '', registration: 'open' } },
      'GET /accounts/acc-1/projects': { status: 401, body: { error: 'unauthorized', message: 'Session ended' } },
      'GET /projects/p1': { body: project() },
      'GET /authurl': { body: { authUrl: 'https://idp.example/auth' } },
    });
    const app = renderApp('/project/p1/welcome');

    const dialog = await screen.findByRole('dialog', { name: 'Session expired' });
    expect(dialog).toHaveTextContent('Your session has ended. Log in again to continue where you were.');
    expect(screen.queryByRole('button', { name: /close/i })).not.toBeInTheDocument();

    await app.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Session expired' })).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(browser.assign).toHaveBeenCalledWith('https://idp.example/auth'));
    const authUrl = server.callsTo('GET /authurl')[0];
    expect(authUrl?.query.get('state_next')).toBe('/project/p1/welcome?tab=1#x');
    expect(authUrl?.query.get('redirectURL')).toBe(`${window.location.origin}/login`);
  });
});
