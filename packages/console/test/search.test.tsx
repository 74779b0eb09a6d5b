import { projectPermission, type SearchResult } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageItems, resultLink } from '../src/features/search/palette-items.ts';
import { fakeApi, type ApiCall } from './fake-api.ts';
import { ACCOUNT, consoleConfig, project, projectSummary } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const APP: SearchResult = {
  kind: 'app',
  id: 'a1',
  projectId: 'p1',
  projectName: 'Acme',
  projectEnabled: true,
  title: 'Storefront',
  detail: 'client-123',
  exact: true,
  clientId: 'client-123',
  enabled: false,
};

const DEVICE: SearchResult = {
  kind: 'device',
  id: 'mpin-9',
  projectId: 'p2',
  projectName: 'Other shop',
  projectEnabled: true,
  title: 'Chrome on Mac',
  detail: 'ana@example.com',
  exact: false,
  userId: 'ana@example.com',
  deviceName: 'Chrome on Mac',
  revoked: true,
  createdAt: '2026-03-05T10:00:00.000Z',
};

function server(search: (call: ApiCall) => SearchResult[]) {
  return fakeApi({
    'GET /account': { body: ACCOUNT },
    'GET /config': { body: consoleConfig() },
    'GET /accounts/acc-1/projects': { body: [projectSummary()] },
    'GET /projects/p1': { body: project() },
    'GET /projects/p1/apps': { body: { total: 0, list: [] } },
    'GET /search': (call) => ({ body: { results: search(call) } }),
  });
}

describe('the pages the palette offers (issue 13)', () => {
  it('are the current project’s menu pages the account may open, then the project list and creation', () => {
    const usageOnly = pageItems('p1', [projectPermission('p1', 'usage')]).map((item) => item.key);
    expect(usageOnly).toEqual(['page:projectDashboard', 'page:projectList', 'page:projectCreate']);
    const owner = pageItems('p1', [projectPermission('p1', '*')]).map((item) => item.key);
    expect(owner).toContain('page:projectAccounts');
    expect(owner).not.toContain('page:globalUsage');
    expect(pageItems(null, ['glb::usage']).map((item) => item.key)).toEqual(['page:projectList', 'page:projectCreate', 'page:globalUsage']);
  });

  it('open a found device on its owner’s devices list on its day, and an audit event on its day', () => {
    expect(resultLink(DEVICE, [])).toBe('/project/p2/devices#userId=ana%40example.com&fromDate=2026-03-05&toDate=2026-03-05');
    const event: SearchResult = {
      ...DEVICE,
      kind: 'audit',
      userId: null,
      scope: 'console',
      eventStatus: 'success',
      action: 'app.create',
    } as SearchResult;
    expect(resultLink(event, [])).toBe('/project/p2/audit#fromDate=2026-03-05&toDate=2026-03-05');
    expect(resultLink({ ...APP, kind: 'project', id: 'p1' } as SearchResult, [projectPermission('p1', 'usage')])).toBe('/project/p1/dashboard');
    expect(resultLink({ ...APP, kind: 'project', id: 'p1' } as SearchResult, [projectPermission('p1', 'apps')])).toBe('/project/p1/welcome');
  });
});

describe('the command palette (issue 13 "Find anything")', () => {
  it('opens with Ctrl+K, searches as one types with the current project first, moves by arrow keys and opens a result with Enter', async () => {
    const api = server((call) => (call.query.get('q') === 'client-123' ? [APP, DEVICE] : []));
    const { user, location } = renderApp('/project/p1/apps');
    await screen.findByRole('heading', { name: 'Applications', level: 1 });

    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Find anything' });
    const field = within(dialog).getByRole('combobox', { name: 'Search by name or id, or go to a page' });
    await waitFor(() => expect(field).toHaveFocus());
    // Before typing: the project's pages.
    expect(within(dialog).getByRole('group', { name: 'Pages' })).toBeInTheDocument();

    await user.type(field, 'client-123');
    const apps = await within(dialog).findByRole('group', { name: 'Applications' });
    expect(within(apps).getByRole('option', { name: /Storefront/ })).toHaveTextContent('Disabled');
    const devices = within(dialog).getByRole('group', { name: 'Devices' });
    // A result of another project says which.
    expect(within(devices).getByRole('option')).toHaveTextContent('ana@example.com · Other shop');
    const searched = api.calls.filter((c) => c.path === '/search');
    expect(searched.at(-1)?.query.get('project')).toBe('p1');
    expect(searched.at(-1)?.query.get('q')).toBe('client-123');

    // No page is named "client-123": the first option is the app, active; ↓ moves to the device.
    const options = within(dialog).getAllByRole('option');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(field).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await user.keyboard('{ArrowDown}');
    expect(field).toHaveAttribute('aria-activedescendant', options[1]?.id);
    await user.keyboard('{ArrowUp}{Enter}');
    await waitFor(() => expect(location()).toBe('/project/p1/app/a1/settings'));
    expect(screen.queryByRole('dialog', { name: 'Find anything' })).not.toBeInTheDocument();
  }, 20_000);

  it('filters the pages by what is typed and says when nothing is found', async () => {
    server(() => []);
    const { user } = renderApp('/project/p1/apps');
    await screen.findByRole('heading', { name: 'Applications', level: 1 });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Find anything' });
    const field = within(dialog).getByRole('combobox');
    await user.type(field, 'audit');
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Audit Log']);
    await user.clear(field);
    await user.type(field, 'zzzz-nothing');
    await within(dialog).findAllByText('Nothing found');
    expect(within(dialog).queryAllByRole('option')).toHaveLength(0);
  }, 20_000);
});
