import type { EnrollmentFunnel, Project } from '@latchkey/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectApi } from './project-api.ts';
import { renderApp } from './render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const server = projectApi;

// Issue 37 (docs/decisions/0050): the General page's passkey enrollment setting, and the dashboard's funnel.
describe('passkey enrollment setting (General page)', () => {
  it('offers by default; Require enables the count, checks it (1 to 20) before saving, and saves the whole project with it', async () => {
    const api = server();
    const { user } = renderApp('/project/p1/settings');
    const section = await screen.findByRole('group', { name: 'Passkey enrollment' });
    expect(within(section).getByRole('radio', { name: 'Offer' })).toBeChecked();
    const count = within(section).getByRole('textbox', { name: 'Require after this many sign-ins without a passkey' });
    expect(count).toHaveValue('3');
    expect(count).toBeDisabled();

    await user.click(within(section).getByText('Require'));
    expect(within(section).getByText(/they must create one to continue/)).toBeInTheDocument();
    expect(count).toBeEnabled();
    await user.clear(count);
    await user.type(count, '21');
    expect(await within(section).findByText('Value not in the valid range')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.clear(count);
    await user.type(count, '5');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /projects/p1')).toHaveLength(1));
    const put = api.callsTo('PUT /projects/p1')[0];
    expect((put?.body as Project).passkeyEnrollment).toEqual({ mode: 'require', requireAfter: 5 });
    expect(put?.headers.get('If-Match')).toBe('"3"');
  }, 30_000);
});

const FUNNEL: EnrollmentFunnel = {
  offers: { shown: 40, created: 10, declined: 20 },
  signIns: { passkey: 30, fallback: 70 },
  activeUsers: { total: 200, withPasskey: 50 },
  ceremonies: { started: 80, completed: 40 },
};

describe('enrollment funnel (project dashboard)', () => {
  it("shows the range's offers, sign-ins, people holding a passkey and ceremonies; each count opens its events in the audit log", async () => {
    const year = new Date().getUTCFullYear();
    const api = server({
      'GET /projects/p1/usage': (call) => ({
        body: call.query.get('type') === 'locations' ? { locations: [] } : { totals: { issued: 0, sum: 0 }, periodType: 'month', periods: [] },
      }),
      'GET /projects/p1/usage/enrollment': { body: FUNNEL },
    });
    renderApp('/project/p1/dashboard');
    const card = await screen.findByRole('region', { name: 'Passkey enrollment' });
    await within(card).findByText('Shown');
    const [call] = api.callsTo('GET /projects/p1/usage/enrollment');
    expect(call?.query.get('fromDate')).toBe(`${year}-01-01T00:00:00Z`);
    expect(call?.query.get('toDate')).toBe(`${year}-12-31T23:59:59Z`);

    const created = within(card).getByRole('link', { name: 'Passkey created: 10, open these events in the audit log' });
    expect(created).toHaveTextContent('10');
    const href = created.getAttribute('href') ?? '';
    expect(href.split('#')[0]).toBe('/project/p1/audit');
    expect(Object.fromEntries(new URLSearchParams(href.split('#')[1]))).toEqual({
      fromDate: `${year}-01-01`,
      toDate: `${year}-12-31`,
      scope: 'oidc',
      result: 'created',
      action: 'device.register',
    });
    expect(within(card).getByRole('link', { name: 'Not now: 20, open these events in the audit log' })).toBeInTheDocument();
    // Shares: 10 of 40 offers created, 30 of 100 sign-ins by passkey, 50 of 200 people, 40 of 80 ceremonies.
    expect(within(card).getByText('25%')).toBeInTheDocument();
    expect(within(card).getByText('30%')).toBeInTheDocument();
    expect(within(card).getByText('50 of 200 · 25%')).toBeInTheDocument();
    expect(within(card).getByText('40 of 80 · 50%')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'Holding a passkey: 50 of 200' })).toBeInTheDocument();
  }, 30_000);
});
