import type { AuditEvent, AuditList } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type ApiCall, type FakeAnswer } from './fake-api.ts';
import { ACCOUNT, consoleConfig, project, projectSummary } from './fixtures.ts';
import { browser } from '../src/lib/browser.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Routes = Record<string, FakeAnswer | ((call: ApiCall) => FakeAnswer)>;

function server(routes: Routes) {
  return fakeApi({
    'GET /account': { body: ACCOUNT },
    'GET /config': { body: consoleConfig() },
    'GET /accounts/acc-1/projects': { body: [projectSummary()] },
    'GET /projects/p1': { body: project() },
    ...routes,
  });
}

function auditEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: '0195a1b2-0000-7000-8000-000000000001',
    createdAt: '2025-03-05T21:40:09.000Z',
    userID: 'ada@example.com',
    deviceName: 'Chrome on Linux',
    scope: 'oidc',
    eventStatus: 'denied',
    ip: '203.0.113.7',
    country: 'NL',
    clientId: 'client-a1',
    userAgent: 'Mozilla/5.0',
    details: { action: 'sign_in', reason: 'device_revoked' },
    ...overrides,
  };
}

function page(list: AuditEvent[], overrides: Partial<AuditList> = {}): AuditList {
  return { total: list.length, totalCapped: false, list, nextCursor: null, ...overrides };
}

const LIST = 'GET /projects/p1/audit';

describe('audit log (spec §2, §7, §9)', () => {
  it('shows date (UTC), account, device name, scope, result and a details button, newest first in the current month', async () => {
    const api = server({
      [LIST]: {
        body: page([
          auditEvent(),
          auditEvent({ id: 'e2', userID: null, deviceName: null, scope: 'console', eventStatus: 'success', details: { action: 'project.update' } }),
        ]),
      },
    });
    renderApp('/project/p1/audit');
    const table = await screen.findByRole('table', { name: 'Audit events' });
    const row = await within(table).findByRole('row', { name: /ada@example.com/ });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Account', 'Device name', 'Scope', 'Result', 'Details']);
    expect(within(table).getByRole('columnheader', { name: 'Date' })).toHaveAttribute('aria-sort', 'descending');
    expect(within(row).getByRole('cell', { name: '5 Mar 2025 21:40:09' })).toBeInTheDocument();
    expect(within(row).getByText('Chrome on Linux')).toBeInTheDocument();
    expect(within(row).getByText('oidc')).toBeInTheDocument();
    expect(within(row).getByText('denied')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Details of the event of 5 Mar 2025 21:40:09' })).toBeInTheDocument();
    const consoleRow = within(table).getByRole('row', { name: /console/ });
    expect(within(consoleRow).getAllByText('—')).toHaveLength(2);

    const query = Object.fromEntries(api.callsTo(LIST)[0]?.query ?? []);
    expect(query).toMatchObject({ sort: 'createdAt', direction: 'desc', offset: '0', limit: '10' });
    expect(query['fromDate']).toMatch(/^\d{4}-\d{2}-01T00:00:00Z$/);
    expect(query['toDate']).toMatch(/^\d{4}-\d{2}-(28|29|30|31)T23:59:59Z$/);
  });

  it('asks for the filters the address names and shows them as tags', async () => {
    const api = server({ [LIST]: { body: page([auditEvent()]) } });
    renderApp(
      '/project/p1/audit#userId=ada%40example.com&deviceName=chr&scope=console&result=denied&fromDate=2025-03-01&toDate=2025-03-31&sort=result',
    );
    await screen.findByText('ada@example.com', { selector: 'p' });
    expect(Object.fromEntries(api.callsTo(LIST)[0]?.query ?? [])).toEqual({
      sort: 'result',
      direction: 'desc',
      offset: '0',
      limit: '10',
      userId: 'ada@example.com',
      deviceName: 'chr',
      scope: 'console',
      result: 'denied',
      fromDate: '2025-03-01T00:00:00Z',
      toDate: '2025-03-31T23:59:59Z',
    });
    const filters = screen.getByRole('search', { name: 'Filters' });
    expect(within(filters).getByText('Account: ada@example.com')).toBeInTheDocument();
    expect(within(filters).getByText('Scope: console')).toBeInTheDocument();
    expect(within(filters).getByText('Result: denied')).toBeInTheDocument();
  });

  it("offers spec §9's scopes plus console, and §4's results, as filters", async () => {
    const api = server({ [LIST]: { body: page([auditEvent()]) } });
    const ui = renderApp('/project/p1/audit');
    await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(screen.getByRole('combobox', { name: 'Scope' }));
    const scopes = await screen.findByRole('listbox');
    expect(
      within(scopes)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['oidc', 'dvs-auth', 'dvs-verify', 'dvs-reg', 'reg-code', 'authcode', 'console']);
    await ui.user.click(within(scopes).getByRole('option', { name: 'console' }));
    await waitFor(() => expect(ui.router.state.location.hash).toBe('#scope=console'));
    await waitFor(() => expect(api.callsTo(LIST).at(-1)?.query.get('scope')).toBe('console'));

    await ui.user.click(screen.getByRole('combobox', { name: 'Result' }));
    const results = await screen.findByRole('listbox');
    expect(
      within(results)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['success', 'failed', 'created', 'disabled', 'denied', 'error']);
  });

  it('sorts by account when its header is clicked', async () => {
    const api = server({ [LIST]: { body: page([auditEvent()]) } });
    const ui = renderApp('/project/p1/audit');
    await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(screen.getByRole('button', { name: 'Account' }));
    await waitFor(() => expect(api.callsTo(LIST).at(-1)?.query.get('sort')).toBe('userId'));
    expect(screen.getByRole('columnheader', { name: 'Account' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('opens the whole event as formatted JSON in a dialog', async () => {
    const event = auditEvent();
    server({ [LIST]: { body: page([event]) } });
    const ui = renderApp('/project/p1/audit');
    const row = await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(within(row).getByRole('button', { name: /^Details/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Event details' });
    expect(within(dialog).getByLabelText('Event details').textContent).toBe(JSON.stringify(event, null, 2));
    await ui.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('audit export (docs/decisions/0019 "Export")', () => {
  it("downloads the filter as JSON Lines in the list's date order", async () => {
    const save = vi.spyOn(browser, 'save').mockImplementation(() => undefined);
    const line = `${JSON.stringify(auditEvent())}\n`;
    const api = server({
      [LIST]: { body: page([auditEvent()]) },
      'GET /projects/p1/audit/export': {
        text: [line, line, line],
        headers: { 'Content-Type': 'application/x-ndjson', 'Content-Disposition': 'attachment; filename="audit-p1-2025-03-01-2025-03-31.jsonl"' },
      },
    });
    const ui = renderApp('/project/p1/audit#scope=oidc&result=denied&sort=createdAt&direction=asc');
    await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(screen.getByRole('button', { name: 'Export' }));
    await ui.user.click(await screen.findByRole('menuitem', { name: 'JSON Lines' }));
    expect(await screen.findByText('3 rows exported to audit-p1-2025-03-01-2025-03-31.jsonl')).toBeInTheDocument();
    const [call] = api.callsTo('GET /projects/p1/audit/export');
    expect(call?.query.get('format')).toBe('jsonl');
    expect(call?.query.get('direction')).toBe('asc');
    expect(call?.query.get('scope')).toBe('oidc');
    expect(call?.query.get('result')).toBe('denied');
    expect(save.mock.calls[0]?.[1]).toBe('audit-p1-2025-03-01-2025-03-31.jsonl');
  });
});
