import { globalPermission, projectPermission, type UsageKeys, type UsageLocations, type UsagePeriods } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../src/lib/browser.ts';
import { fakeApi, type ApiCall, type FakeAnswer } from './fake-api.ts';
import { ACCOUNT, consoleConfig, project, projectSummary } from './fixtures.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Routes = Record<string, FakeAnswer | ((call: ApiCall) => FakeAnswer)>;

function server(routes: Routes, permissions = ACCOUNT.permissions) {
  return fakeApi({
    'GET /account': { body: { ...ACCOUNT, permissions } },
    'GET /config': { body: consoleConfig() },
    'GET /accounts/acc-1/projects': { body: [projectSummary()] },
    'GET /projects/p1': { body: project() },
    // The enrollment funnel's card (docs/decisions/0050): passkey-enrollment.test.tsx tests it.
    'GET /projects/p1/usage/enrollment': {
      body: {
        offers: { shown: 0, created: 0, declined: 0 },
        signIns: { passkey: 0, fallback: 0 },
        activeUsers: { total: 0, withPasskey: 0 },
        ceremonies: { started: 0, completed: 0 },
      },
    },
    ...routes,
  });
}

const keys = (issued: number, oidc = 0, jwt = 0): UsageKeys => ({ issued, events: { oidc, jwt, 'dvs-auth': 0, 'dvs-verify': 0, 'reg-code': 0 } });

/** A year by month: March had 2 registrations, 5 sign-ins and 4 ID tokens. */
function year(y: number): UsagePeriods {
  return {
    totals: { issued: 2, sum: 9 },
    periodType: 'month',
    periods: Array.from({ length: 12 }, (_, m) => ({
      period: new Date(Date.UTC(y, m, 1)).toISOString(),
      keys: m === 2 ? keys(2, 5, 4) : keys(0),
    })),
  };
}

const LOCATIONS: UsageLocations = {
  locations: [
    { country: 'NL', keys: { sum: 7 } },
    { country: 'ZZ', keys: { sum: 2 } },
  ],
};

/** Answers the periods, or the locations when the call asks for them (spec §7: type=locations). */
function usage(periods: UsagePeriods, locations: UsageLocations = LOCATIONS) {
  return (call: ApiCall): FakeAnswer => ({ body: call.query.get('type') === 'locations' ? locations : periods });
}

const USAGE = 'GET /projects/p1/usage';
const FORBIDDEN = "You don't have permissions to view this page";
const thisYear = new Date().getUTCFullYear();

describe('project dashboard (spec §2 "Dashboard", §7 "Usage")', () => {
  it('asks for the current year (T00:00:00Z to T23:59:59Z) and shows the totals, the chart and the map', async () => {
    const api = server({ [USAGE]: usage(year(thisYear)) });
    renderApp('/project/p1/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    const totals = await screen.findByRole('region', { name: 'Totals' });
    await within(totals).findByText('9');
    expect(within(totals).getByText('Device registrations').nextSibling).toHaveTextContent('2');

    const calls = api.callsTo(USAGE);
    const periods = calls.find((c) => !c.query.get('type'));
    const locations = calls.find((c) => c.query.get('type') === 'locations');
    expect(Object.fromEntries(periods?.query ?? [])).toEqual({ fromDate: `${thisYear}-01-01T00:00:00Z`, toDate: `${thisYear}-12-31T23:59:59Z` });
    expect(Object.fromEntries(locations?.query ?? [])).toEqual({
      fromDate: `${thisYear}-01-01T00:00:00Z`,
      toDate: `${thisYear}-12-31T23:59:59Z`,
      type: 'locations',
      locationType: 'country',
    });
    expect(screen.getByRole('img', { name: /^Column chart of registrations and events by month/ })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /^World map of events by country/ })).toBeInTheDocument();
  });

  it('shows the periods as a table on request, each count linking to its events in the audit log', async () => {
    server({ [USAGE]: usage(year(thisYear)) });
    const ui = renderApp('/project/p1/dashboard');
    const chart = await screen.findByRole('region', { name: 'Usage' });
    await ui.user.click(await within(chart).findByRole('button', { name: 'Show the data as a table' }));
    const table = within(chart).getByRole('table', { name: 'Usage by month' });
    expect(within(table).getAllByRole('row')).toHaveLength(13);
    const march = within(table).getByRole('row', { name: new RegExp(`^Mar ${thisYear}`) });
    const signIns = within(march).getByRole('link', { name: `Open the events of Sign-ins (oidc), Mar ${thisYear} in the audit log` });
    expect(signIns).toHaveTextContent('5');
    expect(signIns).toHaveAttribute(
      'href',
      `/project/p1/audit#fromDate=${thisYear}-03-01&toDate=${thisYear}-03-31&scope=oidc&result=success&action=sign_in`,
    );
    const registrations = within(march).getByRole('link', { name: /^Open the events of Registrations \(issued\)/ });
    expect(registrations).toHaveAttribute(
      'href',
      `/project/p1/audit#fromDate=${thisYear}-03-01&toDate=${thisYear}-03-31&scope=oidc&result=created&action=device.register`,
    );
    // A zero is not a link.
    expect(within(within(table).getByRole('row', { name: new RegExp(`^Jan ${thisYear}`) })).queryByRole('link')).not.toBeInTheDocument();
  });

  it('lists the countries with their events, the unknown location included, each linking to its audit events', async () => {
    server({ [USAGE]: usage(year(thisYear)) });
    const ui = renderApp('/project/p1/dashboard');
    const map = await screen.findByRole('region', { name: 'Events by country' });
    await ui.user.click(await within(map).findByRole('button', { name: 'Show the data as a table' }));
    const table = within(map).getByRole('table', { name: 'Events by country' });
    const nl = within(table).getByRole('row', { name: /Netherlands \(NL\)/ });
    expect(within(nl).getByRole('link', { name: 'Open the events of Netherlands in the audit log' })).toHaveAttribute(
      'href',
      `/project/p1/audit#fromDate=${thisYear}-01-01&toDate=${thisYear}-12-31&country=NL`,
    );
    expect(within(table).getByRole('row', { name: /Unknown location/ })).toHaveTextContent('2');
  });

  it('says so in place of the map when no event has a location, and shows the failed usage load in place of the chart', async () => {
    server({
      [USAGE]: (call) =>
        call.query.get('type') === 'locations'
          ? { body: { locations: [] } }
          : { status: 500, body: { error: 'internal', message: 'Database unavailable' } },
    });
    renderApp('/project/p1/dashboard');
    const chart = await screen.findByRole('region', { name: 'Usage' });
    const alert = await within(chart).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load usage');
    expect(alert).toHaveTextContent('Something went wrong on our side; try again later');
    expect(await screen.findByText('No events with a known location in this period.')).toBeInTheDocument();
  });

  it('filters by scope and by the range in the address, and downloads the chart as CSV', async () => {
    const save = vi.spyOn(browser, 'save').mockImplementation(() => undefined);
    const api = server({ [USAGE]: usage(year(2025)) });
    const ui = renderApp('/project/p1/dashboard#fromDate=2025-01-01&toDate=2025-12-31&scope=authcode');
    await screen.findByRole('img', { name: /^Column chart/ });
    expect(api.callsTo(USAGE).every((c) => c.query.get('scope') === 'authcode' && c.query.get('fromDate') === '2025-01-01T00:00:00Z')).toBe(true);
    expect(screen.getByRole('search', { name: 'Filters' })).toHaveTextContent('Scope: authcode');

    await ui.user.click(screen.getByRole('button', { name: 'Download CSV' }));
    const [blob, filename] = save.mock.calls[0] ?? [];
    expect(filename).toBe('usage-p1-2025-01-01-2025-12-31.csv');
    const lines = (await (blob as Blob).text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('period,issued,oidc,jwt,dvs-auth,dvs-verify,reg-code');
    expect(lines[3]).toBe('2025-03-01T00:00:00.000Z,2,5,4,0,0,0');
    expect(lines).toHaveLength(13);
  });
});

describe('global usage (issue 10)', () => {
  it('is linked from the project list and shows every project together, with the top projects, to an account holding glb::usage', async () => {
    const permissions = [projectPermission('p1', '*'), globalPermission('usage')];
    const api = server(
      {
        'GET /usage': (call) => ({
          body:
            call.query.get('type') === 'locations'
              ? LOCATIONS
              : call.query.get('type') === 'projects'
                ? { projects: [{ projectId: 'p1', name: 'Shop', issued: 2, sum: 9 }] }
                : year(thisYear),
        }),
      },
      permissions,
    );
    const ui = renderApp('/');
    await ui.user.click(await screen.findByRole('link', { name: 'Usage of all projects' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Usage of all projects' })).toBeInTheDocument();
    const top = await screen.findByRole('table', { name: 'Projects with the most events' });
    expect(within(top).getByRole('link', { name: 'Shop' })).toHaveAttribute('href', '/project/p1/dashboard');
    expect(within(top).getByRole('row', { name: /Shop/ })).toHaveTextContent('29');
    await waitFor(() =>
      expect(api.callsTo('GET /usage').map((c) => c.query.get('type'))).toEqual(expect.arrayContaining([null, 'locations', 'projects'])),
    );
  });

  it('is neither linked nor shown to an account without it', async () => {
    const api = server({});
    const first = renderApp('/');
    await screen.findByRole('link', { name: /Acme/ });
    expect(screen.queryByRole('link', { name: 'Usage of all projects' })).not.toBeInTheDocument();
    first.unmount();

    renderApp('/usage');
    expect(await screen.findByText(FORBIDDEN)).toBeInTheDocument();
    expect(api.callsTo('GET /usage')).toHaveLength(0);
  });
});
