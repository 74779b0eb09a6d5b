import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { fakeApi } from './fake-api.ts';
import { ACCOUNT, project, projectSummary } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function server(permissions: string[], projectAnswer: { status?: number; body?: unknown } = { body: project() }) {
  return fakeApi({
    'GET /account': { body: { ...ACCOUNT, permissions } },
    'GET /config': { body: { docsUrl: 'https://docs.example', supportUrl: 'https://support.example', registration: 'open' } },
    'GET /accounts/acc-1/projects': { body: [projectSummary()] },
    'GET /projects/p1': projectAnswer,
  });
}

const FORBIDDEN = "You don't have permissions to view this page";
const NOT_FOUND = 'The requested page could not be found';

describe('page guards (spec §6)', () => {
  it('shows the page when the account holds its permission', async () => {
    server(['cst:p1:usage']);
    renderApp('/project/p1/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.queryByText(FORBIDDEN)).not.toBeInTheDocument();
  });

  it.each([
    ['/project/p1/settings', 'General settings'],
    ['/project/p1/apps', 'Applications'],
    ['/project/p1/accounts', 'Accounts'],
    ['/project/p1/audit', 'Audit Log'],
    ['/project/p1/devices', 'Device Registrations'],
    ['/project/p1/users', 'Users'],
    ['/project/p1/user/u1', 'User'],
    ['/project/p1/webhooks', 'Webhooks'],
    ['/project/p1/webhook/w1', 'Webhook'],
    ['/project/p1/app/create', 'Create application'],
  ])('shows the 403 message at %s without the needed permission', async (path, title) => {
    server(['cst:p1:usage']);
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: FORBIDDEN })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: title })).not.toBeInTheDocument();
  });

  it('lets a project admin (cst:p1:*) into the settings pages', async () => {
    server(['cst:p1:*']);
    renderApp('/project/p1/oidc');
    expect(await screen.findByRole('heading', { level: 1, name: 'OpenID Connect' })).toBeInTheDocument();
  });

  it('lets a global permission open the pages it covers in any project', async () => {
    server(['glb::apps']);
    renderApp('/project/p1/apps');
    expect(await screen.findByRole('heading', { level: 1, name: 'Applications' })).toBeInTheDocument();
  });

  it('shows the 403 page at /forbidden', async () => {
    server(['cst:p1:*']);
    renderApp('/forbidden');
    expect(await screen.findByText(FORBIDDEN)).toBeInTheDocument();
  });

  it('shows not-found for a project the account holds no permission on, without asking for it', async () => {
    const api = server(['cst:other:*']);
    renderApp('/project/p1/dashboard');
    expect(await screen.findByText(NOT_FOUND)).toBeInTheDocument();
    expect(api.callsTo('GET /projects/p1')).toHaveLength(0);
    // Read again once before saying so, not again and again.
    expect(api.callsTo('GET /account')).toHaveLength(2);
  });

  it('reads the permissions again before saying not found: a project the account was let into after the console loaded opens', async () => {
    // Another administrator grants cst:p1:* while this console is open on the project list.
    let granted = false;
    const api = fakeApi({
      'GET /account': () => ({ body: { ...ACCOUNT, permissions: granted ? ['cst:p1:*'] : ['cst:other:*'] } }),
      'GET /config': { body: { docsUrl: 'https://docs.example', supportUrl: 'https://support.example', registration: 'open' } },
      'GET /accounts/acc-1/projects': { body: [projectSummary()] },
      'GET /projects/p1': { body: project() },
    });
    const app = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
    granted = true;
    await app.router.navigate('/project/p1/apps');
    expect(await screen.findByRole('heading', { level: 1, name: 'Applications' })).toBeInTheDocument();
    expect(screen.queryByText(NOT_FOUND)).not.toBeInTheDocument();
    expect(api.callsTo('GET /account')).toHaveLength(2);
  });

  it('shows not-found when the server does not know the project', async () => {
    server(['glb::*'], { status: 404, body: { error: 'not_found', message: 'No such project' } });
    renderApp('/project/p1/dashboard');
    expect(await screen.findByText(NOT_FOUND)).toBeInTheDocument();
  });

  it('shows not-found with a link home at an unknown path', async () => {
    server([]);
    const app = renderApp('/no/such/page');
    expect(await screen.findByText(NOT_FOUND)).toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Back to projects' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
  });
});

describe('layout (spec §2)', () => {
  it('shows breadcrumbs Projects > project name > page, and the document title', async () => {
    server(['cst:p1:*']);
    renderApp('/project/p1/app/create');
    await screen.findByRole('heading', { level: 1, name: 'Create application' });
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Projects' })).toHaveAttribute('href', '/');
    expect(crumbs.getByRole('link', { name: 'Acme' })).toHaveAttribute('href', '/project/p1/dashboard');
    expect(crumbs.getByRole('link', { name: 'Applications' })).toHaveAttribute('href', '/project/p1/apps');
    expect(crumbs.getByText('Create application')).toHaveAttribute('aria-current', 'page');
    expect(document.title).toBe('Create application · Acme · Latchkey');
  });

  it('shows the project menu with both groups inside a project, marking the current page', async () => {
    server(['cst:p1:*']);
    renderApp('/project/p1/devices');
    await screen.findByRole('heading', { level: 1, name: 'Device Registrations' });
    const menu = within(screen.getByRole('navigation', { name: 'Project menu' }));
    const overview = within(menu.getByRole('list', { name: 'Overview' }));
    expect(overview.getAllByRole('link').map((l) => l.textContent)).toEqual([
      'Dashboard',
      'Applications',
      'Users',
      'Device Registrations',
      'Audit Log',
    ]);
    const configuration = within(menu.getByRole('list', { name: 'Configuration' }));
    expect(configuration.getAllByRole('link').map((l) => l.textContent)).toEqual([
      'General',
      'Branding',
      'User Verification',
      'OpenID Connect',
      'Mobile Applications',
      'Webhooks',
      'Accounts',
    ]);
    expect(overview.getByRole('link', { name: 'Device Registrations' })).toHaveAttribute('aria-current', 'page');
  });

  it('has no project menu outside projects; top bar, footer and landmarks are there', async () => {
    server(['cst:p1:*']);
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Projects' });
    expect(screen.queryByRole('navigation', { name: 'Project menu' })).not.toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent(`© ${new Date().getFullYear()} Latchkey`);
    expect(screen.getByRole('button', { name: 'Select project — Switch project' })).toHaveTextContent('Select project');
    expect(screen.getByText('owner@example.com')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Toggle color scheme' })).toBeInTheDocument();
    const docs = await screen.findByRole('link', { name: 'Documentation' });
    expect(docs).toHaveAttribute('href', 'https://docs.example');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(docs.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: 'Support' })).toHaveAttribute('href', 'https://support.example');
    expect(document.title).toBe('Projects · Latchkey');
  });

  it('shows the closed-project banner in a closed project', async () => {
    server(['cst:p1:*'], { body: project({ enabled: false }) });
    renderApp('/project/p1/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.getByText('This project is disabled')).toBeInTheDocument();
    expect(screen.getByText("Changes to the project's info, apps and accounts cannot be made while disabled.")).toBeInTheDocument();
  });

  it('labels the project switcher with the current project and lists enabled projects and Create project', async () => {
    server(['cst:p1:*']);
    const app = renderApp('/project/p1/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    // Its name holds what it shows (WCAG 2.5.3), then what it does.
    const switcher = screen.getByRole('button', { name: 'Acme — Switch project' });
    expect(switcher).toHaveTextContent('Acme');
    await app.user.click(switcher);
    expect(await screen.findByRole('menuitem', { name: 'Acme' })).toHaveAttribute('href', '/project/p1/dashboard');
    expect(screen.getByRole('menuitem', { name: 'Create project' })).toHaveAttribute('href', '/project/create');
  });
});
