import type { Application } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type ApiCall, type FakeAnswer } from './fake-api.ts';
import { ACCOUNT, application, applicationKeys, consoleConfig, project, projectSummary } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const CONFIG = consoleConfig();
const KEYS = applicationKeys();
const SECRET = 'secret-0123456789abcdef0123456789abcdef';

type Routes = Record<string, FakeAnswer | ((call: ApiCall) => FakeAnswer)>;

function server(routes: Routes, { enabled = true }: { enabled?: boolean } = {}) {
  return fakeApi({
    'GET /account': { body: ACCOUNT },
    'GET /config': { body: CONFIG },
    'GET /accounts/acc-1/projects': { body: [projectSummary({ enabled })] },
    'GET /projects/p1': { body: project({ enabled }) },
    ...routes,
  });
}

/** The notifications on screen (snackbars), as opposed to the page's own alerts. */
async function notification(text: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.getAllByRole('alert').find((el) => el.classList.contains('mantine-Notification-root') && el.textContent?.includes(text));
    if (!found) throw new Error(`no notification saying "${text}"`);
    return found;
  });
}

describe('applications list (spec §2, §7, §9)', () => {
  it('shows name, type and enabled per row with a settings link, sorted by name ascending, first page of 10', async () => {
    const api = server({
      'GET /projects/p1/apps': {
        body: { total: 2, list: [application(), application({ id: 'a2', name: 'Back office', enabled: false })] },
      },
    });
    renderApp('/project/p1/apps');
    const table = await screen.findByRole('table', { name: 'Applications' });
    await within(table).findByText('Storefront');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Type', 'Enabled', 'Settings']);
    const row = within(table).getByRole('row', { name: /Storefront/ });
    expect(within(row).getByRole('cell', { name: 'oidc' })).toBeInTheDocument();
    expect(within(row).getByText('Yes')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Settings of Storefront' })).toHaveAttribute('href', '/project/p1/app/a1/settings');
    expect(within(within(table).getByRole('row', { name: /Back office/ })).getByText('No')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');

    const query = api.callsTo('GET /projects/p1/apps')[0]?.query;
    expect(Object.fromEntries(query ?? [])).toEqual({ sort: 'name', direction: 'asc', offset: '0', limit: '10' });
    // Two rows: no pagination.
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('asks for the page, size, sort and filters the address names (offset = page × size)', async () => {
    const api = server({ 'GET /projects/p1/apps': { body: { total: 95, list: [application()] } } });
    renderApp('/project/p1/apps#name=shop&enabled=false&sort=enabled&direction=desc&page=2&size=20');
    await screen.findByText('Storefront');
    const query = api.callsTo('GET /projects/p1/apps')[0]?.query;
    expect(Object.fromEntries(query ?? [])).toEqual({
      sort: 'enabled',
      direction: 'desc',
      offset: '40',
      limit: '20',
      name: 'shop',
      enabled: 'false',
    });
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('shop');
    const filters = screen.getByRole('search', { name: 'Filters' });
    expect(within(filters).getByText('Name: shop')).toBeInTheDocument();
    expect(within(filters).getByText('Enabled: No')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
  });

  it('filters by name as the user types (in the hash, from page 0) and by enabled', async () => {
    const api = server({ 'GET /projects/p1/apps': { body: { total: 1, list: [application()] } } });
    const ui = renderApp('/project/p1/apps#page=1');
    await screen.findByText('Storefront');
    await ui.user.type(screen.getByRole('textbox', { name: 'Name' }), 'store');
    await waitFor(() => expect(ui.router.state.location.hash).toBe('#name=store'));
    await waitFor(() => expect(api.callsTo('GET /projects/p1/apps').at(-1)?.query.get('name')).toBe('store'));
    // One request for the word typed, not one per letter.
    expect(api.callsTo('GET /projects/p1/apps').filter((c) => c.query.has('name'))).toHaveLength(1);

    await ui.user.click(screen.getByRole('combobox', { name: 'Enabled' }));
    await ui.user.click(await screen.findByRole('option', { name: 'Yes' }));
    await waitFor(() => expect(ui.router.state.location.hash).toBe('#name=store&enabled=true'));
    expect(api.callsTo('GET /projects/p1/apps').at(-1)?.query.get('enabled')).toBe('true');
  });

  it('says "No records found" for an empty list', async () => {
    server({ 'GET /projects/p1/apps': { body: { total: 0, list: [] } } });
    renderApp('/project/p1/apps');
    expect(await screen.findByText('No records found')).toBeInTheDocument();
  });

  it('shows the message of a failed load', async () => {
    server({ 'GET /projects/p1/apps': { status: 500, body: { error: 'internal', message: 'Database unavailable' } } });
    renderApp('/project/p1/apps');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The list could not be loaded');
    expect(alert).toHaveTextContent('Something went wrong on our side; try again later');
    expect(screen.queryByText('No records found')).not.toBeInTheDocument();
  });

  it('offers "Add application" while the project is enabled', async () => {
    server({ 'GET /projects/p1/apps': { body: { total: 0, list: [] } } });
    renderApp('/project/p1/apps');
    expect(await screen.findByRole('link', { name: 'Add application' })).toHaveAttribute('href', '/project/p1/app/create');
  });

  it('hides "Add application" in a closed project (spec §2, §4)', async () => {
    server({ 'GET /projects/p1/apps': { body: { total: 0, list: [] } } }, { enabled: false });
    renderApp('/project/p1/apps');
    expect(await screen.findByText('No records found')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Applications' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add application' })).not.toBeInTheDocument();
  });
});

describe('create application (spec §2, §5, §7, §8)', () => {
  const nameField = () => screen.getByRole('textbox', { name: 'Name' });
  const redirect = (n: number) => screen.getByRole('textbox', { name: `Redirect URL ${n}` });
  const createButton = () => screen.getByRole('button', { name: 'Create' });

  it('validates name and redirect URLs as they are typed, and keeps Create disabled while invalid', async () => {
    server({});
    const ui = renderApp('/project/p1/app/create');
    await screen.findByRole('heading', { level: 1, name: 'Create application' });
    expect(createButton()).toBeDisabled();
    expect(screen.queryByText('Required')).not.toBeInTheDocument();
    // One redirect URL to start, which cannot be removed.
    expect(screen.queryByRole('textbox', { name: 'Redirect URL 2' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove redirect URL/ })).not.toBeInTheDocument();

    await ui.user.type(nameField(), 'Storefront');
    await ui.user.type(redirect(1), 'not a uri');
    expect(screen.getByText('Invalid URI')).toBeInTheDocument();
    expect(redirect(1)).toHaveAttribute('aria-invalid', 'true');
    expect(createButton()).toBeDisabled();

    await ui.user.clear(redirect(1));
    expect(screen.getByText('Required')).toBeInTheDocument();
    await ui.user.type(redirect(1), 'https://shop.example.com/cb');
    expect(screen.queryByText('Required')).not.toBeInTheDocument();
    expect(createButton()).toBeEnabled();

    await ui.user.click(screen.getByRole('button', { name: 'Add redirect URL' }));
    expect(redirect(2)).toHaveFocus();
    // An empty new row keeps Create disabled, without shouting before it is touched.
    expect(createButton()).toBeDisabled();
    expect(screen.queryByText('Required')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove redirect URL 1' })).toBeInTheDocument();
    await ui.user.click(screen.getByRole('button', { name: 'Remove redirect URL 2' }));
    expect(screen.queryByRole('textbox', { name: 'Redirect URL 2' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove redirect URL/ })).not.toBeInTheDocument();
    expect(createButton()).toBeEnabled();

    await ui.user.clear(nameField());
    expect(screen.getByText('Required')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
  });

  it('creates the app, then its keys (in that order), shows the secret once, and goes to its settings after "I have copied it"', async () => {
    const api = server({
      'POST /apps': { status: 201, body: { id: 'a1', projectId: 'p1', keysEndpoint: 'apps/a1/keys' } },
      'POST /apps/a1/keys': {
        status: 201,
        body: { clientId: 'client-a1', clientSecret: SECRET, redirectURI: ['https://shop.example.com/cb', 'com.example.shop:/cb'] },
      },
      'GET /apps/a1': { body: application() },
      'GET /apps/a1/keys': { body: KEYS },
    });
    const ui = renderApp('/project/p1/app/create');
    await ui.user.type(await screen.findByRole('textbox', { name: 'Name' }), '  Storefront  ');
    await ui.user.type(redirect(1), 'https://shop.example.com/cb');
    await ui.user.click(screen.getByRole('button', { name: 'Add redirect URL' }));
    await ui.user.type(redirect(2), 'com.example.shop:/cb');
    // Issue 22: a private-use scheme is a native app's; as a web app (the default) it is refused.
    expect(screen.getByRole('radio', { name: /^Web app/ })).toBeChecked();
    expect(screen.getByText('A private-use scheme (e.g. com.example.app:/callback) is for a native app')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
    await ui.user.click(screen.getByRole('radio', { name: /^Native app/ }));
    expect(screen.queryByText('A private-use scheme (e.g. com.example.app:/callback) is for a native app')).not.toBeInTheDocument();
    await ui.user.click(createButton());

    const dialog = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(within(dialog).getByRole('textbox', { name: 'Client secret' })).toHaveValue(SECRET);
    expect(within(dialog).getByRole('textbox', { name: 'Client ID' })).toHaveValue('client-a1');
    const writes = api.calls.filter((c) => c.method === 'POST').map((c) => ({ path: c.path, body: c.body }));
    expect(writes).toEqual([
      { path: '/apps', body: { platformCode: 'oidc', applicationType: 'native', name: 'Storefront', url: '', projectId: 'p1' } },
      { path: '/apps/a1/keys', body: { redirectURI: ['https://shop.example.com/cb', 'com.example.shop:/cb'] } },
    ]);
    expect(ui.location()).toBe('/project/p1/app/create');

    await ui.user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(ui.location()).toBe('/project/p1/app/a1/settings'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Application settings' })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
  });

  it('says "Failed to create new application" when the app is refused, and makes no keys', async () => {
    const api = server({ 'POST /apps': { status: 409, body: { error: 'project_closed', message: 'The project is closed' } } });
    const ui = renderApp('/project/p1/app/create');
    await ui.user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Storefront');
    await ui.user.type(redirect(1), 'https://shop.example.com/cb');
    await ui.user.click(createButton());
    const shown = await notification('Failed to create new application');
    expect(shown).toHaveTextContent('The project is closed');
    expect(api.calls.filter((c) => c.path.endsWith('/keys'))).toHaveLength(0);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(ui.location()).toBe('/project/p1/app/create');
  });

  it('when the key step fails, says so, offers the settings page, and a retry makes only the keys', async () => {
    let keyAttempts = 0;
    const api = server({
      'POST /apps': { status: 201, body: { id: 'a1', projectId: 'p1', keysEndpoint: 'apps/a1/keys' } },
      'POST /apps/a1/keys': () => {
        keyAttempts += 1;
        return keyAttempts === 1
          ? { status: 500, body: { error: 'internal', message: 'Key store unavailable' } }
          : { status: 201, body: { clientId: 'client-a1', clientSecret: SECRET, redirectURI: ['https://shop.example.com/cb'] } };
      },
    });
    const ui = renderApp('/project/p1/app/create');
    await ui.user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Storefront');
    await ui.user.type(redirect(1), 'https://shop.example.com/cb');
    await ui.user.click(createButton());

    expect(await notification('Failed to create new application')).toHaveTextContent('Something went wrong on our side; try again later');
    const explained = await screen.findByText(/The application was created without its keys/);
    expect(within(explained.closest('[role="alert"]') as HTMLElement).getByRole('link', { name: 'Open its settings' })).toHaveAttribute(
      'href',
      '/project/p1/app/a1/settings',
    );

    // The button shows the last attempt for 600 ms more (spec §9), then takes the retry.
    await waitFor(() => expect(createButton()).toBeEnabled());
    await ui.user.click(createButton());
    expect(await screen.findByRole('dialog', { name: 'Client secret' })).toBeInTheDocument();
    expect(api.callsTo('POST /apps')).toHaveLength(1);
    expect(api.callsTo('POST /apps/a1/keys')).toHaveLength(2);
  });
});

describe('application settings (spec §2, §4, §7, §8)', () => {
  function settingsServer(routes: Routes = {}, options: { enabled?: boolean; app?: Partial<Application> } = {}) {
    let current = application(options.app);
    let version = 3;
    return server(
      {
        'GET /apps/a1': () => ({ body: current, headers: { ETag: `"${version}"` } }),
        // The keys have their own version (docs/decisions/0007).
        'GET /apps/a1/keys': { body: KEYS, headers: { ETag: '"7"' } },
        'PUT /apps/a1': (call) => {
          current = { ...current, ...(call.body as object) };
          version += 1;
          return { body: current, headers: { ETag: `"${version}"` } };
        },
        'PUT /apps/a1/keys': (call) => ({ body: { ...KEYS, ...(call.body as object) }, headers: { ETag: '"8"' } }),
        ...routes,
      },
      { enabled: options.enabled ?? true },
    );
  }

  const saveButton = () => screen.getByRole('button', { name: 'Save' });

  it('shows type (read-only), name, project and client id (copyable), the redirect URLs and the status; the name in the breadcrumb', async () => {
    settingsServer();
    renderApp('/project/p1/app/a1/settings');
    await screen.findByRole('heading', { level: 1, name: 'Application settings' });
    expect(await screen.findByRole('textbox', { name: 'Type' })).toHaveValue('oidc');
    expect(screen.getByRole('textbox', { name: 'Type' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Application type' })).toHaveValue('Native app');
    expect(screen.getByRole('textbox', { name: 'Application type' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Storefront');
    expect(screen.getByRole('textbox', { name: 'Project ID' })).toHaveValue('p1');
    expect(screen.getByRole('textbox', { name: 'Client ID' })).toHaveValue('client-a1');
    expect(screen.getByRole('button', { name: 'Copy Project ID' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy Client ID' })).toBeInTheDocument();
    // Issue 8: what a developer needs to connect, as copy fields.
    expect(screen.getByRole('textbox', { name: 'Issuer' })).toHaveValue('http://localhost:8080/p/p1');
    expect(screen.getByRole('textbox', { name: 'Discovery URL' })).toHaveValue('http://localhost:8080/p/p1/.well-known/openid-configuration');
    expect(screen.getByRole('button', { name: 'Copy Discovery URL' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Redirect URL 1' })).toHaveValue('https://shop.example.com/cb');
    expect(screen.getByRole('textbox', { name: 'Redirect URL 2' })).toHaveValue('com.example.shop:/cb');
    expect(screen.getByText('Enabled')).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Applications' })).toHaveAttribute('href', '/project/p1/apps');
    expect(crumbs.getByText('Storefront')).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(document.title).toBe('Storefront · Application settings · Acme · Latchkey'));
    expect(screen.getByRole('heading', { level: 2, name: 'Danger zone' })).toBeInTheDocument();
  });

  it('saves the app and then its redirect URLs, each with If-Match from the version it was read at', async () => {
    const api = settingsServer();
    const ui = renderApp('/project/p1/app/a1/settings');
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await ui.user.clear(name);
    await ui.user.type(name, 'Storefront EU ');
    await ui.user.clear(screen.getByRole('textbox', { name: 'Redirect URL 2' }));
    await ui.user.type(screen.getByRole('textbox', { name: 'Redirect URL 2' }), 'https://eu.example.com/cb');
    await ui.user.click(saveButton());

    await waitFor(() => expect(api.callsTo('PUT /apps/a1/keys')).toHaveLength(1));
    const put = api.callsTo('PUT /apps/a1')[0];
    expect(put?.body).toEqual({ name: 'Storefront EU', logoUrl: '', enabled: true });
    expect(put?.headers.get('If-Match')).toBe('"3"');
    expect(api.callsTo('PUT /apps/a1/keys')[0]?.body).toEqual({
      redirectURI: ['https://shop.example.com/cb', 'https://eu.example.com/cb'],
      postLogoutRedirectURI: [],
      backchannelLogoutURI: '',
    });
    expect(api.callsTo('PUT /apps/a1/keys')[0]?.headers.get('If-Match')).toBe('"7"');
    const order = api.calls.filter((c) => c.method === 'PUT').map((c) => c.path);
    expect(order).toEqual(['/apps/a1', '/apps/a1/keys']);
    // Typing two URLs letter by letter takes seconds on a loaded 2-core machine.
  }, 15_000);

  it("saves a post-logout redirect URL (issue 22): none at first, checked by the redirect URLs' rules", async () => {
    const api = settingsServer();
    const ui = renderApp('/project/p1/app/a1/settings');
    await screen.findByRole('textbox', { name: 'Name' });
    expect(screen.queryByRole('textbox', { name: 'Post-logout redirect URL 1' })).not.toBeInTheDocument();
    await ui.user.click(screen.getByRole('button', { name: 'Add post-logout redirect URL' }));
    await ui.user.type(screen.getByRole('textbox', { name: 'Post-logout redirect URL 1' }), 'https://eu.example.com/bye#x');
    expect(screen.getByText('A redirect URI cannot contain a fragment (#)')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await ui.user.clear(screen.getByRole('textbox', { name: 'Post-logout redirect URL 1' }));
    await ui.user.type(screen.getByRole('textbox', { name: 'Post-logout redirect URL 1' }), 'https://eu.example.com/bye');
    await ui.user.click(saveButton());
    await waitFor(() => expect(api.callsTo('PUT /apps/a1/keys')).toHaveLength(1));
    expect(api.callsTo('PUT /apps/a1/keys')[0]?.body).toEqual({
      redirectURI: ['https://shop.example.com/cb', 'com.example.shop:/cb'],
      postLogoutRedirectURI: ['https://eu.example.com/bye'],
      backchannelLogoutURI: '',
    });
    // Typing two URLs letter by letter takes seconds on a loaded 2-core machine.
  }, 15_000);

  it('saves a back-channel logout URL (issue 22): empty at first; http only for a web app', async () => {
    const api = settingsServer();
    const ui = renderApp('/project/p1/app/a1/settings');
    await screen.findByRole('textbox', { name: 'Name' });
    const field = screen.getByRole('textbox', { name: 'Back-channel logout URL' });
    expect(field).toHaveValue('');
    expect(field).toHaveAccessibleDescription(/posts a signed logout token/);
    // This application is a native app: its server must be reached over https.
    await ui.user.type(field, 'http://eu.example.com/bc');
    expect(screen.getByText('Use an https address: only a web app may receive logout notices over http')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await ui.user.clear(field);
    await ui.user.type(field, 'https://eu.example.com/bc');
    await ui.user.click(saveButton());
    await waitFor(() => expect(api.callsTo('PUT /apps/a1/keys')).toHaveLength(1));
    expect(api.callsTo('PUT /apps/a1/keys')[0]?.body).toEqual({
      redirectURI: ['https://shop.example.com/cb', 'com.example.shop:/cb'],
      postLogoutRedirectURI: [],
      backchannelLogoutURI: 'https://eu.example.com/bc',
    });
    // Typing two URLs letter by letter takes seconds on a loaded 2-core machine.
  }, 15_000);

  it('says "Failed to update application" when a save is refused', async () => {
    settingsServer({
      'PUT /apps/a1': { status: 412, body: { error: 'conflict', message: 'The application was changed by someone else; reload and try again' } },
    });
    const ui = renderApp('/project/p1/app/a1/settings');
    await screen.findByRole('textbox', { name: 'Name' });
    await ui.user.click(saveButton());
    expect(await notification('Failed to update application')).toHaveTextContent('Someone else changed this in the meantime; reload and try again');
  });

  it('keeps Save disabled while a field is invalid', async () => {
    settingsServer();
    const ui = renderApp('/project/p1/app/a1/settings');
    await ui.user.clear(await screen.findByRole('textbox', { name: 'Redirect URL 1' }));
    expect(screen.getByText('Required')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('disables the app through a confirm modal; then Save and Generate are gone or disabled, and Enable brings it back', async () => {
    const api = settingsServer();
    const ui = renderApp('/project/p1/app/a1/settings');
    await screen.findByRole('textbox', { name: 'Name' });
    expect(saveButton()).toBeEnabled();
    await ui.user.click(screen.getByRole('button', { name: 'Disable application' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable application' });
    await ui.user.click(within(dialog).getByRole('button', { name: 'Disable' }));

    expect(await screen.findByRole('button', { name: 'Enable application' })).toBeInTheDocument();
    expect(api.callsTo('PUT /apps/a1')[0]?.body).toEqual({ name: 'Storefront', logoUrl: '', enabled: false });
    expect(screen.queryByRole('button', { name: 'Generate new keys' })).not.toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(screen.getByText('Disabled')).toBeInTheDocument();

    await ui.user.click(screen.getByRole('button', { name: 'Enable application' }));
    await ui.user.click(within(await screen.findByRole('dialog', { name: 'Enable application' })).getByRole('button', { name: 'Enable' }));
    expect(await screen.findByRole('button', { name: 'Disable application' })).toBeInTheDocument();
    const second = api.callsTo('PUT /apps/a1')[1];
    expect(second?.body).toEqual({ name: 'Storefront', logoUrl: '', enabled: true });
    // The version answered by the first write is the precondition of the second.
    expect(second?.headers.get('If-Match')).toBe('"4"');
    expect(saveButton()).toBeEnabled();
  });

  it('opens a disabled app with Save disabled, Enable offered and no Generate new keys', async () => {
    settingsServer({}, { app: { enabled: false } });
    renderApp('/project/p1/app/a1/settings');
    expect(await screen.findByRole('button', { name: 'Enable application' })).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Generate new keys' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disable application' })).not.toBeInTheDocument();
  });

  it('shows the raw server message, with no title, when disabling fails (spec §8)', async () => {
    settingsServer({
      'PUT /apps/a1': {
        status: 409,
        body: { error: 'project_closed', message: 'The project is closed; changes cannot be made while it is disabled' },
      },
    });
    const ui = renderApp('/project/p1/app/a1/settings');
    await ui.user.click(await screen.findByRole('button', { name: 'Disable application' }));
    await ui.user.click(within(await screen.findByRole('dialog', { name: 'Disable application' })).getByRole('button', { name: 'Disable' }));
    const shown = await notification('The project is closed; changes cannot be made while it is disabled');
    expect(shown).not.toHaveTextContent('Failed to update application');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Disable application' })).toBeInTheDocument();
  });

  it('after a stale-version refusal (412) when disabling, says so, reads the app again and a retry succeeds', async () => {
    // Someone else saves the app after the page has read it: version 3 is stale, 4 is current.
    let version = 3;
    let current = application();
    const api = server({
      'GET /apps/a1': () => ({ body: current, headers: { ETag: `"${version}"` } }),
      'GET /apps/a1/keys': { body: KEYS },
      'PUT /apps/a1': (call) => {
        if (call.headers.get('If-Match') !== `"${version}"`) {
          return { status: 412, body: { error: 'conflict', message: 'The application was changed by someone else; reload and try again' } };
        }
        current = { ...current, ...(call.body as object) };
        version += 1;
        return { body: current, headers: { ETag: `"${version}"` } };
      },
    });
    const ui = renderApp('/project/p1/app/a1/settings');
    await ui.user.click(await screen.findByRole('button', { name: 'Disable application' }));
    version = 4;
    const reads = api.callsTo('GET /apps/a1').length;
    const keyReads = api.callsTo('GET /apps/a1/keys').length;
    await ui.user.click(within(await screen.findByRole('dialog', { name: 'Disable application' })).getByRole('button', { name: 'Disable' }));
    const shown = await notification('Someone else changed this in the meantime; reload and try again');
    expect(shown).not.toHaveTextContent('Failed to update application');
    await waitFor(() => expect(api.callsTo('GET /apps/a1').length).toBeGreaterThan(reads));
    await waitFor(() => expect(api.callsTo('GET /apps/a1/keys').length).toBeGreaterThan(keyReads));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await ui.user.click(screen.getByRole('button', { name: 'Disable application' }));
    await ui.user.click(within(await screen.findByRole('dialog', { name: 'Disable application' })).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByRole('button', { name: 'Enable application' })).toBeInTheDocument();
    expect(api.callsTo('PUT /apps/a1')[1]?.headers.get('If-Match')).toBe('"4"');
  }, 15_000);

  it('generates new keys after confirmation and shows the new secret once', async () => {
    const api = settingsServer({
      'POST /apps/a1/keys/generate': { body: { ...KEYS, clientSecret: SECRET } },
    });
    const ui = renderApp('/project/p1/app/a1/settings');
    await ui.user.click(await screen.findByRole('button', { name: 'Generate new keys' }));
    await ui.user.click(within(await screen.findByRole('dialog', { name: 'Generate new keys' })).getByRole('button', { name: 'Generate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(within(dialog).getByRole('textbox', { name: 'Client secret' })).toHaveValue(SECRET);
    expect(api.callsTo('POST /apps/a1/keys/generate')[0]?.body).toEqual({ redirectURI: KEYS.redirectURI });
    expect(api.callsTo('POST /apps/a1/keys/generate')[0]?.headers.get('If-Match')).toBe('"7"');
    await ui.user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
  });

  it('shows the raw server message when generating keys fails (spec §8)', async () => {
    settingsServer({
      'POST /apps/a1/keys/generate': {
        status: 409,
        body: { error: 'conflict', message: 'The application is disabled; enable it before generating new keys' },
      },
    });
    const ui = renderApp('/project/p1/app/a1/settings');
    await ui.user.click(await screen.findByRole('button', { name: 'Generate new keys' }));
    await ui.user.click(within(await screen.findByRole('dialog', { name: 'Generate new keys' })).getByRole('button', { name: 'Generate' }));
    await notification('The application is disabled; enable it before generating new keys');
    expect(screen.queryByRole('dialog', { name: 'Client secret' })).not.toBeInTheDocument();
  });

  it('in a closed project: Save disabled, no Generate new keys, Disable disabled', async () => {
    settingsServer({}, { enabled: false });
    renderApp('/project/p1/app/a1/settings');
    await screen.findByRole('textbox', { name: 'Name' });
    expect(saveButton()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Generate new keys' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disable application' })).toBeDisabled();
  });

  it('an app whose keys were never made says so and creates them from its redirect URLs', async () => {
    const api = settingsServer({
      'GET /apps/a1/keys': { status: 404, body: { error: 'not_found', message: 'This application has no keys yet' } },
      'POST /apps/a1/keys': { status: 201, body: { ...KEYS, clientSecret: SECRET, redirectURI: ['https://shop.example.com/cb'] } },
    });
    const ui = renderApp('/project/p1/app/a1/settings');
    expect(await screen.findByText('This application has no keys yet')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Client ID' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate new keys' })).not.toBeInTheDocument();
    await ui.user.type(screen.getByRole('textbox', { name: 'Redirect URL 1' }), 'https://shop.example.com/cb');
    await ui.user.click(screen.getByRole('button', { name: 'Create keys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(api.callsTo('POST /apps/a1/keys')[0]?.body).toEqual({ redirectURI: ['https://shop.example.com/cb'] });
    await ui.user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    expect(await screen.findByRole('textbox', { name: 'Client ID' })).toHaveValue('client-a1');
  });

  it('renames an app without keys: Save needs only a valid name and sends no redirect URLs', async () => {
    const api = settingsServer({
      'GET /apps/a1/keys': { status: 404, body: { error: 'not_found', message: 'This application has no keys yet' } },
    });
    const ui = renderApp('/project/p1/app/a1/settings');
    const name = await screen.findByRole('textbox', { name: 'Name' });
    // The empty redirect row is for "Create keys"; it does not hold Save back.
    expect(screen.getByRole('textbox', { name: 'Redirect URL 1' })).toHaveValue('');
    expect(saveButton()).toBeEnabled();
    await ui.user.clear(name);
    expect(saveButton()).toBeDisabled();
    await ui.user.type(name, 'Storefront EU ');
    await ui.user.click(saveButton());
    await waitFor(() => expect(api.callsTo('PUT /apps/a1')).toHaveLength(1));
    expect(api.callsTo('PUT /apps/a1')[0]?.body).toEqual({ name: 'Storefront EU', logoUrl: '', enabled: true });
    expect(api.callsTo('PUT /apps/a1/keys')).toHaveLength(0);
  });

  it('shows not-found for an application of another project', async () => {
    settingsServer({}, { app: { projectId: 'p2' } });
    renderApp('/project/p1/app/a1/settings');
    expect(await screen.findByText('The requested page could not be found')).toBeInTheDocument();
  });
});
