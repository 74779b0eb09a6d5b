import type { EndUserDetail, SessionAccount } from '@latchkey/domain';
import { projectPermission } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type FakeAnswer } from './fake-api.ts';
import { ACCOUNT, consoleConfig, project, projectSummary } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function user(overrides: Partial<EndUserDetail> = {}): EndUserDetail {
  return {
    id: 'u1',
    identity: 'ada@example.com',
    identityType: 'email',
    createdAt: '2026-01-05T09:05:07.000Z',
    lastSignInAt: null,
    activeDevices: 0,
    status: 'active',
    blockedAt: null,
    devices: [],
    sessions: [],
    profile: { name: null, externalId: null },
    recovery: {
      passkeys: 2,
      syncedPasskeys: 1,
      recoveryCodesLeft: 7,
      recoveryCodesCreatedAt: '2026-01-06T10:00:00.000Z',
      emailRecoveryUntil: '2026-01-08T12:30:00.000Z',
    },
    ...overrides,
  };
}

const LINK = 'POST /projects/p1/users/u1/reenrollment-link';

function server(account: SessionAccount, link: FakeAnswer) {
  return fakeApi({
    'GET /account': { body: account },
    'GET /config': { body: consoleConfig() },
    'GET /accounts/acc-1/projects': { body: [projectSummary()] },
    'GET /projects/p1': { body: project() },
    'GET /projects/p1/users/u1': { body: user() },
    'GET /projects/p1/auditevents': { body: { total: 0, totalCapped: false, list: [], nextCursor: null } },
    [LINK]: link,
  });
}

// Issue 37 "Recovery", docs/decisions/0051.
describe('the user page’s recovery (issue 37)', () => {
  it('shows the person’s recovery state, and a re-enrollment link once, in a dialog that only closes once acknowledged', async () => {
    const url = 'https://p1.example.com/account/reenroll?t=one-time-token';
    const api = server(ACCOUNT, { body: { url, expiresAt: '2026-01-09T08:00:00.000Z' } });
    const ui = renderApp('/project/p1/user/u1');
    const section = await screen.findByRole('region', { name: 'Recovery' });
    expect(section).toHaveTextContent('2 passkeys (1 synced)');
    expect(section).toHaveTextContent('7 left');
    expect(section).toHaveTextContent('A new passkey waits until');

    await ui.user.click(within(section).getByRole('button', { name: 'Create a re-enrollment link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-enrollment link' });
    expect(within(dialog).getByRole('textbox', { name: 'Link' })).toHaveValue(url);
    expect(dialog).toHaveTextContent('Give this link to ada@example.com only');
    expect(dialog).toHaveTextContent('2026-01-09 08:00 UTC');
    expect(api.callsTo(LINK)).toHaveLength(1);
    // Escape does not close it; the acknowledgement does, and the link is gone from the page.
    await ui.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Re-enrollment link' })).toBeInTheDocument();
    await ui.user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body).not.toHaveTextContent('one-time-token');
  });

  it('shows the server’s refusal and no dialog; one who may only read the user sees the state without the button', async () => {
    server(ACCOUNT, { status: 409, body: { error: 'conflict', message: 'This user is blocked: unblock them first' } });
    const ui = renderApp('/project/p1/user/u1');
    const section = await screen.findByRole('region', { name: 'Recovery' });
    await ui.user.click(within(section).getByRole('button', { name: 'Create a re-enrollment link' }));
    expect(await screen.findByText('This user is blocked: unblock them first')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    ui.unmount();

    vi.unstubAllGlobals();
    server({ ...ACCOUNT, permissions: [projectPermission('p1', 'audit')] }, { status: 500 });
    renderApp('/project/p1/user/u1');
    const readOnly = await screen.findByRole('region', { name: 'Recovery' });
    expect(readOnly).toHaveTextContent('7 left');
    expect(within(readOnly).queryByRole('button')).not.toBeInTheDocument();
  });
});
