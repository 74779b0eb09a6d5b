import { defaultIssuer, type Issuer } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type ApiCall, type FakeAnswer } from './fake-api.ts';
import { ACCOUNT, consoleConfig, project, projectSummary } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const SHARED = 'http://localhost:8080/p/p1';
const OWN = 'http://p1.localhost:8080';

/** GET projects/p1/issuer as the server answers it (docs/decisions/0047), on the shared path with a move offered by default. */
function issuer(overrides: Partial<Issuer> = {}): Issuer {
  return {
    ...defaultIssuer(),
    address: SHARED,
    placement: 'sharedPath',
    own_host: OWN,
    passkey_domain: 'localhost',
    moves: ['ownHost'],
    ...overrides,
  };
}

const ON_OWN_HOST = issuer({ address: OWN, placement: 'ownHost', passkey_domain: 'p1.localhost', moves: [] });

type Routes = Record<string, FakeAnswer | ((call: ApiCall) => FakeAnswer)>;

function server(routes: Routes, { enabled = true, customDomain = '' }: { enabled?: boolean; customDomain?: string } = {}) {
  return fakeApi({
    'GET /account': { body: ACCOUNT },
    'GET /config': { body: consoleConfig() },
    'GET /accounts/acc-1/projects': { body: [projectSummary({ enabled })] },
    'GET /projects/p1': { body: project({ enabled, customDomain }), headers: { ETag: '"3"' } },
    'GET /projects/p1/issuer/keys': { body: { keys: [] } },
    ...routes,
  });
}

async function notification(text: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.getAllByRole('alert').find((el) => el.classList.contains('mantine-Notification-root') && el.textContent?.includes(text));
    if (!found) throw new Error(`no notification saying "${text}"`);
    return found;
  });
}

describe('the issuer address and its move to an own host (docs/decisions/0047)', () => {
  it('on the shared path: says where it is, and the move asks first, saying what it means for apps and passkeys', async () => {
    const api = server({ 'GET /projects/p1/issuer': { body: issuer(), headers: { ETag: '"3"' } } });
    const { user } = renderApp('/project/p1/oidc');
    const section = await screen.findByRole('region', { name: 'Issuer address' });
    expect(within(section).getByRole('textbox', { name: 'OIDC Issuer' })).toHaveValue(SHARED);
    expect(within(section).getByText('Shared path')).toBeInTheDocument();
    expect(within(section).getByText(/Passkeys are made for localhost, which every project on this path shares/)).toBeInTheDocument();
    expect(within(section).getByText(/can have a host of its own, http:\/\/p1\.localhost:8080/)).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Move to its own host' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move the issuer to its own host?' });
    expect(within(dialog).getByText(`The issuer identifier changes from ${SHARED} to ${OWN}.`)).toBeInTheDocument();
    expect(within(dialog).getByText(/compliant OpenID Connect client checks the tokens’ iss/)).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'Passkeys made for localhost are no longer offered: each user signs in by the code emailed to them once and is then offered a new passkey.',
      ),
    ).toBeInTheDocument();
    // Nothing is moved before the confirmation; Cancel is where the focus starts.
    expect(api.callsTo('POST /projects/p1/issuer/move')).toHaveLength(0);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  });

  it('a confirmed move shows the new address, the own host and no more offer', async () => {
    let moved = false;
    const api = server({
      'GET /projects/p1/issuer': () => ({ body: moved ? ON_OWN_HOST : issuer(), headers: { ETag: moved ? '"4"' : '"3"' } }),
      'POST /projects/p1/issuer/move': () => {
        moved = true;
        return { body: ON_OWN_HOST };
      },
    });
    const { user } = renderApp('/project/p1/oidc');
    await user.click(await screen.findByRole('button', { name: 'Move to its own host' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Move issuer' }));
    await notification(`Issuer moved to ${OWN}`);
    expect(api.callsTo('POST /projects/p1/issuer/move').map((c) => c.body)).toEqual([{ to: 'ownHost' }]);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'OIDC Issuer' })).toHaveValue(OWN));
    const after = screen.getByRole('region', { name: 'Issuer address' });
    expect(within(after).getByText('Own host')).toBeInTheDocument();
    expect(within(after).getByText(/passkeys are made for p1\.localhost, this project's alone/)).toBeInTheDocument();
    expect(within(after).queryByRole('button', { name: 'Move to its own host' })).not.toBeInTheDocument();
  });

  it('a refused move is shown as the other errors are: its title and the message of its code', async () => {
    server({
      'GET /projects/p1/issuer': { body: issuer(), headers: { ETag: '"3"' } },
      'POST /projects/p1/issuer/move': { status: 409, body: { error: 'conflict', message: 'p1.localhost:8080 is in use' } },
    });
    const { user } = renderApp('/project/p1/oidc');
    await user.click(await screen.findByRole('button', { name: 'Move to its own host' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Move issuer' }));
    const shown = await notification('Failed to move the issuer');
    expect(shown).toHaveTextContent('p1.localhost:8080 is in use');
    expect(screen.getByRole('textbox', { name: 'OIDC Issuer' })).toHaveValue(SHARED);
  });

  it('offers no move where the server offers none (no issuer domain, or on its own host)', async () => {
    server({ 'GET /projects/p1/issuer': { body: issuer({ moves: [], own_host: '' }), headers: { ETag: '"3"' } } });
    renderApp('/project/p1/oidc');
    expect(await screen.findByText('Shared path')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move to its own host' })).not.toBeInTheDocument();
  });

  it('the move is locked while the project is closed', async () => {
    server({ 'GET /projects/p1/issuer': { body: issuer(), headers: { ETag: '"3"' } } }, { enabled: false });
    renderApp('/project/p1/oidc');
    expect(await screen.findByRole('button', { name: 'Move to its own host' })).toBeDisabled();
  });

  it('at a custom domain with its own host: passkeys of the own host with Related Origin Requests, of the domain itself elsewhere (docs/decisions/0049)', async () => {
    server({
      'GET /projects/p1/issuer': {
        body: issuer({ address: 'https://login.acme.example', placement: 'customDomain', passkey_domain: 'p1.localhost', moves: [] }),
        headers: { ETag: '"3"' },
      },
    });
    renderApp('/project/p1/oidc');
    expect(
      await screen.findByText(
        "At the project's custom domain. Passkeys are made for its own host, p1.localhost, in browsers that support Related Origin Requests, and for the custom domain itself in the others.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move to its own host' })).not.toBeInTheDocument();
  });

  it('at a custom domain: says so, and a move says the identifier stays', async () => {
    const custom = 'https://login.acme.example';
    server({
      'GET /projects/p1/issuer': {
        body: issuer({ address: custom, placement: 'customDomain', passkey_domain: 'login.acme.example' }),
        headers: { ETag: '"3"' },
      },
    });
    const { user } = renderApp('/project/p1/oidc');
    expect(await screen.findByText('Custom domain')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move to its own host' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(/The issuer identifier stays https:\/\/login\.acme\.example\. Passkeys are made for the own host, p1\.localhost/),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/changes from/)).not.toBeInTheDocument();
  });
});

describe('the custom domain setting says what a new domain does to passkeys (docs/decisions/0047)', () => {
  const globalAdmin = { ...ACCOUNT, permissions: ['glb::projects'] };

  it('with an own host: existing passkeys keep working through Related Origin Requests, elsewhere by the fallback once', async () => {
    server({ 'GET /account': { body: globalAdmin }, 'GET /projects/p1/issuer': { body: ON_OWN_HOST } });
    renderApp('/project/p1/settings');
    expect(
      await screen.findByText(
        'Passkeys are made for the own host, p1.localhost, which lists this domain as a related origin: existing passkeys keep working at a new domain in browsers that support Related Origin Requests. In other browsers, users sign in by the code emailed to them once and are offered a passkey made for the domain itself, which works there as long as the project keeps that domain.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/stop working/)).not.toBeInTheDocument();
  });

  it('on the shared path: passkeys made before stop working at a new domain, a warning once the domain is changed, with the move that keeps them', async () => {
    server({ 'GET /account': { body: globalAdmin }, 'GET /projects/p1/issuer': { body: issuer() } });
    const { user } = renderApp('/project/p1/settings');
    const note = await screen.findByText(/Passkeys made before stop working at a new domain/);
    expect(note).toHaveTextContent(
      'Passkeys are made for the domain the issuer is at, now localhost. Passkeys made before stop working at a new domain: each user signs in by the code emailed to them once and is offered a new passkey. To keep them, move the issuer to its own host first (OpenID Connect page).',
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Project Domain' }), 'https://login.acme.example');
    const warning = await screen.findByRole('status');
    expect(warning).toHaveTextContent(/Passkeys made before stop working at a new domain/);
  });

  it('on a server without an issuer domain: no move is suggested', async () => {
    server({ 'GET /account': { body: globalAdmin }, 'GET /projects/p1/issuer': { body: issuer({ moves: [], own_host: '' }) } });
    renderApp('/project/p1/settings');
    expect(await screen.findByText(/Passkeys made before stop working at a new domain/)).not.toHaveTextContent('move the issuer');
  });
});
