import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../../test/render-ui.tsx';
import type { ListDefaults } from './list-state.ts';
import { FILTER_TYPING_DEBOUNCE_MS, useFilterText } from './use-filter-text.ts';
import { useListState } from './use-list-state.ts';

const defaults: ListDefaults = {
  sort: 'name',
  direction: 'asc',
  sortFields: ['name', 'enabled'],
  filterKeys: ['name', 'enabled'],
};

/** A list as a page would drive it: the state shown, buttons for each change, a debounced name field. */
function Probe() {
  const list = useListState(defaults);
  const [name, setName] = useFilterText(list.state.filters['name'] ?? '', (value) => list.setFilter('name', value));
  return (
    <div>
      <output aria-label="query">{JSON.stringify(list.query)}</output>
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.currentTarget.value)} />
      </label>
      <button onClick={() => list.setFilter('enabled', 'true')}>enabled only</button>
      <button onClick={() => list.setFilter('enabled', '')}>any</button>
      <button onClick={() => list.setSort('enabled')}>sort by enabled</button>
      <button onClick={() => list.setPage(3)}>page 4</button>
      <button onClick={() => list.setSize(50)}>50 rows</button>
    </div>
  );
}

const query = () => JSON.parse(screen.getByRole('status', { name: 'query' }).textContent ?? '{}') as Record<string, unknown>;

afterEach(() => {
  vi.useRealTimers();
});

describe('useListState: the list state in the URL hash (spec §2 "List pages")', () => {
  it('starts from the defaults, and from the hash when there is one (a reload shows the same view)', () => {
    renderUi(<Probe />, { path: '/project/p1/apps#name=shop&enabled=false&sort=enabled&direction=desc&page=2&size=20' });
    expect(query()).toEqual({ name: 'shop', enabled: 'false', sort: 'enabled', direction: 'desc', offset: 40, limit: 20 });
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('shop');
  });

  it('puts filters, sort, page and size in the hash, one history entry each, and back walks through them', async () => {
    const ui = renderUi(<Probe />, { path: '/project/p1/apps' });
    expect(query()).toEqual({ sort: 'name', direction: 'asc', offset: 0, limit: 10 });

    await ui.user.click(screen.getByRole('button', { name: 'page 4' }));
    expect(ui.location()).toBe('/project/p1/apps#page=3');
    expect(query()).toMatchObject({ offset: 30, limit: 10 });

    await ui.user.click(screen.getByRole('button', { name: '50 rows' }));
    expect(ui.location()).toBe('/project/p1/apps#size=50');

    await ui.user.click(screen.getByRole('button', { name: 'page 4' }));
    expect(query()).toMatchObject({ offset: 150, limit: 50 });

    await ui.user.click(screen.getByRole('button', { name: 'sort by enabled' }));
    expect(ui.location()).toBe('/project/p1/apps#sort=enabled&size=50');

    await ui.user.click(screen.getByRole('button', { name: 'page 4' }));
    await ui.user.click(screen.getByRole('button', { name: 'enabled only' }));
    // Changing a filter goes back to the first page.
    expect(ui.location()).toBe('/project/p1/apps#enabled=true&sort=enabled&size=50');
    expect(query()).toMatchObject({ enabled: 'true', offset: 0 });

    await act(() => ui.router.navigate(-1));
    expect(ui.location()).toBe('/project/p1/apps#sort=enabled&page=3&size=50');
    await act(() => ui.router.navigate(-1));
    expect(ui.location()).toBe('/project/p1/apps#sort=enabled&size=50');
    await act(() => ui.router.navigate(-1));
    await act(() => ui.router.navigate(-1));
    await act(() => ui.router.navigate(-1));
    expect(ui.location()).toBe('/project/p1/apps#page=3');
  });

  it('does not push an entry when nothing changes', async () => {
    const ui = renderUi(<Probe />, { path: '/project/p1/apps#enabled=true', before: ['/project/p1/dashboard'] });
    await ui.user.click(screen.getByRole('button', { name: 'enabled only' }));
    await act(() => ui.router.navigate(-1));
    // Nothing was pushed: back leaves the list.
    expect(ui.location()).toBe('/project/p1/dashboard');
  });

  it('follows typing in a text filter only when it pauses: one history entry per search, on page 0', async () => {
    vi.useFakeTimers();
    const ui = renderUi(<Probe />, { path: '/project/p1/apps#page=2' });
    const field = screen.getByRole('textbox', { name: 'Name' });
    for (const text of ['s', 'sh', 'sho', 'shop']) {
      fireEvent.change(field, { target: { value: text } });
      act(() => vi.advanceTimersByTime(FILTER_TYPING_DEBOUNCE_MS - 50));
    }
    expect(ui.location()).toBe('/project/p1/apps#page=2');
    expect(field).toHaveValue('shop');

    act(() => vi.advanceTimersByTime(50));
    expect(ui.location()).toBe('/project/p1/apps#name=shop');
    expect(query()).toMatchObject({ name: 'shop', offset: 0 });

    fireEvent.change(field, { target: { value: 'shoes ' } });
    act(() => vi.advanceTimersByTime(FILTER_TYPING_DEBOUNCE_MS));
    // Trimmed, as the server reads it.
    expect(ui.location()).toBe('/project/p1/apps#name=shoes');

    // Back: the field shows what the list shows again.
    await act(() => ui.router.navigate(-1));
    expect(ui.location()).toBe('/project/p1/apps#name=shop');
    expect(field).toHaveValue('shop');
    await act(() => ui.router.navigate(-1));
    expect(field).toHaveValue('');
    expect(ui.location()).toBe('/project/p1/apps#page=2');
  });

  it('clearing the text filter removes it from the hash', () => {
    vi.useFakeTimers();
    const ui = renderUi(<Probe />, { path: '/project/p1/apps#name=shop' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: '' } });
    act(() => vi.advanceTimersByTime(FILTER_TYPING_DEBOUNCE_MS));
    expect(ui.location()).toBe('/project/p1/apps');
  });
});
