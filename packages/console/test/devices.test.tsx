import type { DeviceIdentity, DeviceList } from '@latchkey/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

function server(routes: Routes, { enabled = true, identityType = 'email' as 'email' | 'alphanumeric' } = {}) {
  return fakeApi({
    'GET /account': { body: ACCOUNT },
    'GET /config': { body: consoleConfig() },
    'GET /accounts/acc-1/projects': { body: [projectSummary({ enabled })] },
    'GET /projects/p1': { body: project({ enabled, identityType }) },
    ...routes,
  });
}

function device(overrides: Partial<DeviceIdentity> = {}): DeviceIdentity {
  return {
    mpinId: 'm1',
    userId: 'ada@example.com',
    deviceName: 'Chrome on Linux',
    ip: '203.0.113.7',
    country: 'NL',
    createdAt: '2025-03-05T09:05:07.123Z',
    lastUsedAt: null,
    revoked: false,
    revokedAt: null,
    ...overrides,
  };
}

function page(list: DeviceIdentity[], overrides: Partial<DeviceList> = {}): DeviceList {
  return { total: list.length, totalCapped: false, list, nextCursor: null, ...overrides };
}

const LIST = 'GET /projects/p1/mpinids';
// The issue the server gives a list or export asked for over more than 366 days (domain requireDateRange).
const TOO_LONG = { field: 'fromDate', code: 'validation.date_range_too_long', message: 'The date range cannot be longer than 366 days' };

/** The current month's first and last day (UTC), as the default range is sent (spec §7, §9). */
function thisMonth(): { from: string; to: string } {
  const now = new Date();
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const mm = String(m + 1).padStart(2, '0');
  return { from: `${y}-${mm}-01`, to: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}

describe('devices list (spec §2, §7, §9)', () => {
  it('shows email, device name, ip, created at (UTC) and status, newest first in the current month, with revoke on active rows only', async () => {
    const api = server({
      [LIST]: {
        body: page([device(), device({ mpinId: 'm2', userId: 'bob@example.com', deviceName: 'Safari on iPhone', ip: null, revoked: true })]),
      },
    });
    renderApp('/project/p1/devices');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('ada@example.com');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Email', 'Device name', 'IP address', 'Created at', 'Status', 'Actions']);
    expect(within(table).getByRole('columnheader', { name: 'Created at' })).toHaveAttribute('aria-sort', 'descending');

    const active = within(table).getByRole('row', { name: /ada@example.com/ });
    expect(within(active).getByText('Chrome on Linux')).toBeInTheDocument();
    expect(within(active).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(active).getByRole('cell', { name: '5 Mar 2025 09:05:07' })).toBeInTheDocument();
    expect(within(active).getByText('Active')).toBeInTheDocument();
    expect(within(active).getByRole('button', { name: 'Revoke Chrome on Linux of ada@example.com' })).toBeInTheDocument();

    const revoked = within(table).getByRole('row', { name: /bob@example.com/ });
    expect(within(revoked).getByText('Revoked')).toBeInTheDocument();
    expect(within(revoked).getByText('Unknown')).toBeInTheDocument();
    expect(within(revoked).queryByRole('button')).not.toBeInTheDocument();

    const { from, to } = thisMonth();
    expect(Object.fromEntries(api.callsTo(LIST)[0]?.query ?? [])).toEqual({
      sort: 'createdAt',
      direction: 'desc',
      offset: '0',
      limit: '10',
      fromDate: `${from}T00:00:00Z`,
      toDate: `${to}T23:59:59Z`,
    });
    expect(screen.getByLabelText('From')).toHaveValue(from);
    expect(screen.getByLabelText('To')).toHaveValue(to);
  });

  it("names the user column after the project's identity type", async () => {
    server({ [LIST]: { body: page([device({ userId: 'ada-77' })]) } }, { identityType: 'alphanumeric' });
    renderApp('/project/p1/devices');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('ada-77');
    expect(within(table).getByRole('columnheader', { name: 'User ID' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'User ID' })).toBeInTheDocument();
  });

  it('asks for the filters, sort and page the address names, and shows them as tags', async () => {
    const api = server({ [LIST]: { body: page([device()], { total: 35 }) } });
    renderApp(
      '/project/p1/devices#userId=ada%40example.com&deviceName=chrome&ip=203.0&revoked=false&fromDate=2025-01-01&toDate=2025-03-31&sort=ip&direction=asc&page=1',
    );
    await screen.findByText('ada@example.com');
    expect(Object.fromEntries(api.callsTo(LIST)[0]?.query ?? [])).toEqual({
      sort: 'ip',
      direction: 'asc',
      offset: '10',
      limit: '10',
      userId: 'ada@example.com',
      deviceName: 'chrome',
      ip: '203.0',
      revoked: 'false',
      fromDate: '2025-01-01T00:00:00Z',
      toDate: '2025-03-31T23:59:59Z',
    });
    const filters = screen.getByRole('search', { name: 'Filters' });
    expect(within(filters).getByText('Email: ada@example.com')).toBeInTheDocument();
    expect(within(filters).getByText('Device name: chrome')).toBeInTheDocument();
    expect(within(filters).getByText('IP address: 203.0')).toBeInTheDocument();
    expect(within(filters).getByText('Status: Active')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'IP address' })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('filters by user once typing pauses (one request, from page 0), and sorts by a column', async () => {
    const api = server({ [LIST]: { body: page([device()]) } });
    const ui = renderApp('/project/p1/devices#page=2');
    await screen.findByText('ada@example.com');
    await ui.user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await waitFor(() => expect(ui.router.state.location.hash).toBe('#userId=ada%40example.com'));
    await waitFor(() => expect(api.callsTo(LIST).at(-1)?.query.get('userId')).toBe('ada@example.com'));
    expect(api.callsTo(LIST).filter((c) => c.query.has('userId'))).toHaveLength(1);

    await ui.user.click(screen.getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(api.callsTo(LIST).at(-1)?.query.get('sort')).toBe('revoked'));
    expect(api.callsTo(LIST).at(-1)?.query.get('direction')).toBe('asc');
  });

  it('takes a date only when the range is one the API answers, and says why otherwise', async () => {
    const api = server({ [LIST]: { body: page([device()]) } });
    const ui = renderApp('/project/p1/devices#fromDate=2025-03-01&toDate=2025-03-31');
    await screen.findByText('ada@example.com');
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-02-01' } });
    expect(await screen.findByText('The end date must not be before the start date')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2023-01-01' } });
    expect(await screen.findByText('The date range cannot be longer than 366 days')).toBeInTheDocument();
    expect(api.callsTo(LIST).every((c) => c.query.get('toDate') === '2025-03-31T23:59:59Z')).toBe(true);

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-02-15' } });
    await waitFor(() => expect(ui.router.state.location.hash).toBe('#fromDate=2025-02-15&toDate=2025-03-31'));
    await waitFor(() => expect(api.callsTo(LIST).at(-1)?.query.get('fromDate')).toBe('2025-02-15T00:00:00Z'));
  });

  it('shows "10,000+" for a capped total and seeks the next page with the cursor it was given', async () => {
    const api = server({
      [LIST]: (call) =>
        call.query.get('offset') === '0'
          ? { body: page([device()], { total: 10_000, totalCapped: true, nextCursor: 'cursor-after-page-1' }) }
          : { body: page([device({ mpinId: 'm11', userId: 'eve@example.com' })], { total: 10_000, totalCapped: true, nextCursor: 'cursor-2' }) },
    });
    const ui = renderApp('/project/p1/devices');
    await screen.findByText('ada@example.com');
    expect(screen.getByText('1–10 of 10,000+')).toBeInTheDocument();
    await ui.user.click(screen.getByRole('link', { name: 'Next page' }));
    await screen.findByText('eve@example.com');
    const second = api.callsTo(LIST).at(-1);
    expect(second?.query.get('offset')).toBe('10');
    expect(second?.query.get('cursor')).toBe('cursor-after-page-1');
    expect(screen.getByText('11–20 of 10,000+')).toBeInTheDocument();
  });

  it('shows the message of a failed load, and "No records found" for an empty list', async () => {
    server({
      [LIST]: { status: 400, body: { error: 'validation_failed', message: 'The date range cannot be longer than 366 days', issues: [TOO_LONG] } },
    });
    const ui = renderApp('/project/p1/devices#fromDate=2020-01-01');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The list could not be loaded');
    expect(alert).toHaveTextContent('The date range cannot be longer than 366 days');
    ui.unmount();
    vi.unstubAllGlobals();
    server({ [LIST]: { body: page([]) } });
    renderApp('/project/p1/devices');
    expect(await screen.findByText('No records found')).toBeInTheDocument();
  });
});

describe('revoking a device (spec §2, §4, §8)', () => {
  it('asks first, revokes with PORTAL_REVOKE, and shows the row Revoked', async () => {
    let revoked = false;
    const api = server({
      [LIST]: () => ({ body: page([device({ revoked })]) }),
      'POST /projects/p1/mpinids/m1/revocation': () => {
        revoked = true;
        return { body: { mpinId: 'm1', revoked: true } };
      },
    });
    const ui = renderApp('/project/p1/devices');
    const row = await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(within(row).getByRole('button', { name: 'Revoke Chrome on Linux of ada@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke device' });
    expect(dialog).toHaveTextContent('Do you want to revoke the device “Chrome on Linux” of ada@example.com?');
    // Cancel first: nothing is sent.
    await ui.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST /projects/p1/mpinids/m1/revocation')).toHaveLength(0);

    await ui.user.click(within(row).getByRole('button', { name: /^Revoke/ }));
    await ui.user.click(within(await screen.findByRole('dialog', { name: 'Revoke device' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const after = screen.getByRole('row', { name: /ada@example.com/ });
    expect(within(after).getByText('Revoked')).toBeInTheDocument();
    expect(within(after).queryByRole('button')).not.toBeInTheDocument();
    expect(api.callsTo('POST /projects/p1/mpinids/m1/revocation').map((c) => c.body)).toEqual([{ reason: 'PORTAL_REVOKE' }]);
  });

  it("closes the dialog and says 'Failed to revoke device' on the row's button, with the reason", async () => {
    server({
      [LIST]: { body: page([device()]) },
      'POST /projects/p1/mpinids/m1/revocation': { status: 500, body: { error: 'internal', message: 'Database unavailable' } },
    });
    const ui = renderApp('/project/p1/devices');
    const row = await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(within(row).getByRole('button', { name: /^Revoke/ }));
    await ui.user.click(within(await screen.findByRole('dialog', { name: 'Revoke device' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const failed = await within(row).findByRole('button', { name: 'Failed to revoke device' });
    expect(failed).toHaveAccessibleDescription('Something went wrong on our side; try again later');
    expect(within(row).getByText('Active')).toBeInTheDocument();
    // Asking again is one click away.
    await ui.user.click(failed);
    expect(await screen.findByRole('dialog', { name: 'Revoke device' })).toBeInTheDocument();
  });

  it('offers no revocation in a closed project, whose devices are still listed', async () => {
    server({ [LIST]: { body: page([device()]) } }, { enabled: false });
    renderApp('/project/p1/devices');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('ada@example.com');
    expect(within(table).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
  });
});

describe('devices export (docs/decisions/0019 "Export")', () => {
  it("downloads the list's filter as CSV, counting the rows as they arrive", async () => {
    const save = vi.spyOn(browser, 'save').mockImplementation(() => undefined);
    const api = server({
      [LIST]: { body: page([device(), device({ mpinId: 'm2' })]) },
      'GET /projects/p1/mpinids/export': {
        text: ['mpinId,userId\r\nm1,ada@example.com\r\n', 'm2,ada@example.com\r\n'],
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="devices-p1-2025-03-01-2025-03-31.csv"' },
      },
    });
    const ui = renderApp('/project/p1/devices#userId=ada%40example.com');
    await screen.findAllByRole('row', { name: /ada@example.com/ });
    await ui.user.click(screen.getByRole('button', { name: 'Export' }));
    await ui.user.click(await screen.findByRole('menuitem', { name: 'CSV (spreadsheet)' }));
    expect(await screen.findByText('2 rows exported to devices-p1-2025-03-01-2025-03-31.csv')).toBeInTheDocument();

    const [call] = api.callsTo('GET /projects/p1/mpinids/export');
    const { from, to } = thisMonth();
    expect(Object.fromEntries(call?.query ?? [])).toEqual({
      format: 'csv',
      direction: 'desc',
      userId: 'ada@example.com',
      fromDate: `${from}T00:00:00Z`,
      toDate: `${to}T23:59:59Z`,
    });
    expect(save).toHaveBeenCalledTimes(1);
    const [blob, filename] = save.mock.calls[0] ?? [];
    expect(filename).toBe('devices-p1-2025-03-01-2025-03-31.csv');
    expect(await (blob as Blob).text()).toBe('mpinId,userId\r\nm1,ada@example.com\r\nm2,ada@example.com\r\n');
    // The export is done: the menu is back.
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
  });

  it('shows the rows received against the rows counted while the file streams, and can be cancelled', async () => {
    const save = vi.spyOn(browser, 'save').mockImplementation(() => undefined);
    let writer: ReadableStreamDefaultController<Uint8Array> | undefined;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        writer = controller;
        controller.enqueue(new TextEncoder().encode('mpinId,userId\r\nm1,ada@example.com\r\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    server({
      [LIST]: { body: page([device(), device({ mpinId: 'm2', userId: 'bob@example.com' })]) },
      'GET /projects/p1/mpinids/export': { stream, headers: { 'Content-Type': 'text/csv' } },
    });
    const ui = renderApp('/project/p1/devices');
    await screen.findByRole('row', { name: /bob@example.com/ });
    await ui.user.click(screen.getByRole('button', { name: 'Export' }));
    await ui.user.click(await screen.findByRole('menuitem', { name: 'CSV (spreadsheet)' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Exporting CSV: 1 of 2 rows');
    expect(screen.getByRole('progressbar', { name: 'Exporting CSV: 1 of 2 rows' })).toHaveAttribute('aria-valuenow', '50');
    expect(writer).toBeDefined();

    await ui.user.click(screen.getByRole('button', { name: 'Cancel export' }));
    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
    await waitFor(() => expect(cancelled).toBe(true));
    expect(save).not.toHaveBeenCalled();
    expect(screen.queryByText(/rows exported/)).not.toBeInTheDocument();
  });

  it('says why an export was refused, and saves nothing', async () => {
    const save = vi.spyOn(browser, 'save').mockImplementation(() => undefined);
    server({
      [LIST]: { body: page([device()]) },
      'GET /projects/p1/mpinids/export': {
        status: 400,
        body: { error: 'validation_failed', message: 'The date range cannot be longer than 366 days', issues: [TOO_LONG] },
      },
    });
    const ui = renderApp('/project/p1/devices');
    await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(screen.getByRole('button', { name: 'Export' }));
    await ui.user.click(await screen.findByRole('menuitem', { name: 'JSON Lines' }));
    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(screen.getByText('The date range cannot be longer than 366 days')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
  });
});

describe('revoking every device of the filter (docs/decisions/0019 "Bulk revocation")', () => {
  const BULK = 'POST /projects/p1/mpinids/revocations';

  it('counts first, asks with the count, then revokes in batches until none is left', async () => {
    let left = 3;
    const api = server({
      [LIST]: () => ({ body: page([device({ revoked: left === 0 })]) }),
      [BULK]: (call) => {
        const { limit } = call.body as { limit: number };
        const revoked = Math.min(limit, left, 2);
        left -= revoked;
        return { body: { revoked, remaining: left } };
      },
    });
    const ui = renderApp('/project/p1/devices#deviceName=Chrome');
    await screen.findByRole('row', { name: /ada@example.com/ });
    const before = Date.now();
    await ui.user.click(screen.getByRole('button', { name: 'Revoke all matching' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke 3 devices' });
    expect(dialog).toHaveTextContent(
      /All 3 active devices matching the current filter, registered up to \d+ \w{3} \d{4} \d\d:\d\d:\d\d UTC, will be revoked/,
    );
    const [count] = api.callsTo(BULK);
    const filter = (count?.body as { filter: { toDate: string } }).filter;
    expect(count?.body).toMatchObject({
      reason: 'PORTAL_REVOKE',
      limit: 0,
      filter: { deviceName: 'Chrome', fromDate: `${thisMonth().from}T00:00:00Z` },
    });
    // The range ends when the devices were counted, not at the end of the month.
    expect(Date.parse(filter.toDate)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(filter.toDate)).toBeLessThanOrEqual(Date.now());

    await ui.user.click(within(dialog).getByRole('button', { name: 'Revoke 3 devices' }));
    expect(await screen.findByText('3 devices revoked')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo(BULK).map((c) => c.body)).toEqual([
      { reason: 'PORTAL_REVOKE', filter, limit: 0 },
      { reason: 'PORTAL_REVOKE', filter, limit: 200, expectedCount: 3 },
      { reason: 'PORTAL_REVOKE', filter, limit: 200, expectedCount: 1 },
    ]);
    // The list is read again and shows the device revoked.
    expect(await within(screen.getByRole('row', { name: /ada@example.com/ })).findByText('Revoked')).toBeInTheDocument();
  });

  it('asks nothing when no active device matches, and says so', async () => {
    const api = server({ [LIST]: { body: page([device()]) }, [BULK]: { body: { revoked: 0, remaining: 0 } } });
    const ui = renderApp('/project/p1/devices');
    await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(screen.getByRole('button', { name: 'Revoke all matching' }));
    expect(await screen.findByText('No active device matches the filter: nothing to revoke.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo(BULK)).toHaveLength(1);
  });

  it('stops at a refusal, saying how many were revoked and why', async () => {
    let calls = 0;
    server({
      [LIST]: { body: page([device()]) },
      [BULK]: () => {
        calls += 1;
        if (calls === 1) return { body: { revoked: 0, remaining: 250 } };
        if (calls === 2) return { body: { revoked: 200, remaining: 50 } };
        return { status: 409, body: { error: 'conflict', message: 'More devices match the filter than were confirmed' } };
      },
    });
    const ui = renderApp('/project/p1/devices');
    await screen.findByRole('row', { name: /ada@example.com/ });
    await ui.user.click(screen.getByRole('button', { name: 'Revoke all matching' }));
    await ui.user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke 250 devices' })).getByRole('button', { name: 'Revoke 250 devices' }),
    );
    expect(await screen.findByText('Revoked 200 of 250 devices, then failed')).toBeInTheDocument();
    expect(screen.getByText('More devices match the filter than were confirmed')).toBeInTheDocument();
  });

  it('is not offered for revoked devices, nor in a closed project', async () => {
    server({ [LIST]: { body: page([device({ revoked: true })]) } });
    const first = renderApp('/project/p1/devices#revoked=true');
    await screen.findByRole('row', { name: /ada@example.com/ });
    expect(screen.queryByRole('button', { name: 'Revoke all matching' })).not.toBeInTheDocument();
    first.unmount();

    server({ [LIST]: { body: page([device()]) } }, { enabled: false });
    renderApp('/project/p1/devices');
    await screen.findByRole('row', { name: /ada@example.com/ });
    expect(screen.queryByRole('button', { name: 'Revoke all matching' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
  });
});
