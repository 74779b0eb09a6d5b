import type { ProjectSummary } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type ApiCall } from './fake-api.ts';
import { ACCOUNT, consoleConfig, project, projectSummary } from './fixtures.ts';
import { changeLanguage } from '../src/lib/i18n/index.ts';
import { renderApp } from './render-app.tsx';

afterEach(async () => {
  vi.unstubAllGlobals();
  // The files of a worker share the translator: the next test starts in English again.
  await changeLanguage('en');
});

const CONFIG = consoleConfig({ docsUrl: 'https://docs.example', supportUrl: 'https://support.example' });

describe('create project (spec §2, §5)', () => {
  function createServer(onCreate: (call: ApiCall) => { status?: number; body?: unknown }) {
    let created = false;
    let account = { ...ACCOUNT, permissions: [] as string[] };
    const server = fakeApi({
      'GET /account': () => ({ body: account }),
      'GET /config': { body: CONFIG },
      'GET /accounts/acc-1/projects': () => ({ body: created ? [projectSummary({ id: 'p9', name: 'Acme' })] : [] }),
      'POST /projects': (call) => {
        const answer = onCreate(call);
        if ((answer.status ?? 200) < 300) {
          created = true;
          account = { ...account, permissions: ['cst:p9:*'] };
        }
        return answer;
      },
      'GET /projects/p9': { body: project({ id: 'p9', name: 'Acme' }) },
    });
    return server;
  }

  const nameField = () => screen.getByRole('textbox', { name: 'Name' });
  const createButton = () => screen.getByRole('button', { name: 'Create' });

  it('keeps Create disabled while the name is invalid, with the spec messages', async () => {
    createServer(() => ({ status: 201, body: { id: 'p9' } }));
    const app = renderApp('/project/create');
    expect(await screen.findByRole('heading', { level: 1, name: 'Create project' })).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
    expect(screen.queryByText('Required')).not.toBeInTheDocument();

    await app.user.type(nameField(), 'Acme');
    expect(createButton()).toBeEnabled();

    await app.user.clear(nameField());
    expect(screen.getByText('Required')).toBeInTheDocument();
    expect(nameField()).toHaveAttribute('aria-invalid', 'true');
    expect(createButton()).toBeDisabled();

    await app.user.type(nameField(), '   ');
    expect(screen.getByText('Required')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();

    await app.user.clear(nameField());
    await app.user.click(nameField());
    await app.user.paste('x'.repeat(251));
    expect(screen.getByText('Maximum input length exceeded')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();

    await app.user.type(nameField(), '{Backspace}');
    expect(screen.queryByText('Maximum input length exceeded')).not.toBeInTheDocument();
    expect(createButton()).toBeEnabled();
  });

  it('creates the project with the trimmed name, pin length 4 and the creator email, then opens its dashboard', async () => {
    const server = createServer(() => ({ status: 201, body: { id: 'p9' } }));
    const app = renderApp('/project/create');
    await app.user.type(await screen.findByRole('textbox', { name: 'Name' }), '  Acme  ');
    await app.user.click(createButton());

    await waitFor(() => expect(app.location()).toBe('/project/p9/dashboard'));
    expect(server.callsTo('POST /projects')[0]?.body).toEqual({ name: 'Acme', pinLength: 4, email: 'owner@example.com' });
    // The account is asked again (the creator now holds the project's permissions), and the list too.
    expect(server.callsTo('GET /account').length).toBeGreaterThanOrEqual(2);
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Acme — Switch project' }));
    expect(await screen.findByRole('menuitem', { name: 'Acme' })).toBeInTheDocument();
  });

  it('says "Failed to create new project" when the server refuses, and stays on the form', async () => {
    createServer(() => ({ status: 500, body: { error: 'internal', message: 'Database unavailable' } }));
    const app = renderApp('/project/create');
    await app.user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Acme');
    await app.user.click(createButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to create new project');
    expect(alert).toHaveTextContent('Something went wrong on our side; try again later');
    expect(app.location()).toBe('/project/create');
    // Dismissable (spec §2 "Layout").
    await app.user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(nameField()).toHaveValue('Acme');
  });

  it('says a refusal in the account’s language, not in the server’s English (issue 35)', async () => {
    fakeApi({
      'GET /account': { body: { ...ACCOUNT, permissions: [], language: 'fr' } },
      'GET /config': { body: CONFIG },
      'GET /accounts/acc-1/projects': { body: [] },
      'POST /projects': {
        status: 403,
        body: {
          error: 'forbidden',
          message: 'You have created the most projects an account may create (10); ask an administrator of all projects for more',
        },
      },
    });
    const app = renderApp('/project/create');
    await app.user.type(await screen.findByRole('textbox', { name: 'Nom' }), 'Acme');
    await app.user.click(screen.getByRole('button', { name: 'Créer' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Échec de la création du nouveau projet');
    expect(alert).toHaveTextContent('Vous n’avez pas l’autorisation nécessaire pour cette action');
    expect(alert).not.toHaveTextContent('You have created the most projects');
    expect(within(alert).getByRole('button', { name: 'Fermer' })).toBeInTheDocument();
  });

  it("shows the server's field issue on the field", async () => {
    createServer(() => ({
      status: 400,
      body: {
        error: 'validation_failed',
        message: 'Invalid input',
        issues: [{ field: 'name', code: 'validation.max_length', message: 'Maximum input length exceeded' }],
      },
    }));
    const app = renderApp('/project/create');
    await app.user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Acme');
    await app.user.click(createButton());
    await waitFor(() => expect(nameField()).toHaveAccessibleDescription('Maximum input length exceeded'));
    // The notification says it too, in the catalogue's words for the issue's key.
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to create new project');
    expect(alert).toHaveTextContent('Maximum input length exceeded');
  });
});

describe('project list (spec §2)', () => {
  function listServer(projects: ProjectSummary[]) {
    return fakeApi({
      'GET /account': { body: ACCOUNT },
      'GET /config': { body: CONFIG },
      'GET /accounts/acc-1/projects': { body: projects },
    });
  }

  it('shows the add card first, then the enabled projects linking to their dashboards', async () => {
    listServer([
      projectSummary({ id: 'p1', name: 'Acme', logoUrl: 'https://cdn.example/acme.png' }),
      projectSummary({ id: 'p2', name: 'Globex' }),
      projectSummary({ id: 'p3', name: 'Initech', enabled: false }),
    ]);
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
    const links = within(await screen.findByRole('list')).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('aria-label') ?? l.textContent)).toEqual(['Add project', 'Acme', 'Globex']);
    expect(screen.getByRole('link', { name: 'Add project' })).toHaveAttribute('href', '/project/create');
    expect(screen.getByRole('link', { name: 'Acme' })).toHaveAttribute('href', '/project/p1/dashboard');
    expect(screen.getByRole('img', { name: 'Acme' })).toHaveAttribute('src', 'https://cdn.example/acme.png');
    // No logo: the default one, named after the project.
    expect(within(screen.getByRole('link', { name: 'Globex' })).getByRole('img', { name: 'Globex' }).tagName).toBe('svg');
    expect(screen.queryByRole('link', { name: 'Initech' })).not.toBeInTheDocument();
  });

  it('reveals closed projects, marked Closed, with the Closed Projects switch', async () => {
    listServer([projectSummary({ id: 'p1', name: 'Acme' }), projectSummary({ id: 'p3', name: 'Initech', enabled: false })]);
    const app = renderApp('/');
    await app.user.click(await screen.findByRole('switch', { name: 'Closed Projects' }));
    const closed = await screen.findByRole('link', { name: 'Initech' });
    expect(closed).toHaveAccessibleDescription('Closed');
    await app.user.click(screen.getByRole('switch', { name: 'Closed Projects' }));
    expect(screen.queryByRole('link', { name: 'Initech' })).not.toBeInTheDocument();
  });

  it('falls back to the default logo when the logo fails to load', async () => {
    listServer([projectSummary({ id: 'p1', name: 'Acme', logoUrl: 'https://cdn.example/broken.png' })]);
    renderApp('/');
    const image = await screen.findByRole('img', { name: 'Acme' });
    image.dispatchEvent(new Event('error'));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Acme' }).tagName).toBe('svg'));
  });

  it('explains how to start when the account has no project at all', async () => {
    listServer([]);
    const app = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Create your first project' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Add project' }));
    await waitFor(() => expect(app.location()).toBe('/project/create'));
  });

  it('shows the load error when the list cannot be loaded', async () => {
    fakeApi({
      'GET /account': { body: ACCOUNT },
      'GET /config': { body: CONFIG },
      'GET /accounts/acc-1/projects': { status: 500, body: { error: 'internal', message: 'Database unavailable' } },
    });
    renderApp('/');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The projects could not be loaded');
    expect(alert).toHaveTextContent('Something went wrong on our side; try again later');
  });
});

describe('welcome and disabled notice (spec §1, §2)', () => {
  function projectServer(enabled: boolean) {
    return fakeApi({
      'GET /account': { body: ACCOUNT },
      'GET /config': { body: CONFIG },
      'GET /accounts/acc-1/projects': { body: [projectSummary({ enabled })] },
      'GET /projects/p1': { body: projectSummary({ enabled }) },
    });
  }

  it('states the free tier and leads to app creation with Add App', async () => {
    projectServer(true);
    const app = renderApp('/project/p1/welcome');
    expect(await screen.findByText(/under 1,000 authentications per month is free/)).toBeInTheDocument();
    expect(screen.getByText(/Unlimited free use is offered to charities, academics and start-ups/)).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Add App' }));
    await waitFor(() => expect(app.location()).toBe('/project/p1/app/create'));
  });

  it('hides Add App in a closed project', async () => {
    projectServer(false);
    renderApp('/project/p1/welcome');
    await screen.findByText(/under 1,000 authentications per month is free/);
    expect(screen.queryByRole('button', { name: 'Add App' })).not.toBeInTheDocument();
  });

  it('shows the disabled notice once, without the banner repeating it', async () => {
    projectServer(false);
    renderApp('/project/p1/disabled');
    expect(await screen.findByRole('heading', { level: 1, name: 'This project is disabled' })).toBeInTheDocument();
    expect(screen.getAllByText("Changes to the project's info, apps and accounts cannot be made while disabled.")).toHaveLength(1);
  });
});
