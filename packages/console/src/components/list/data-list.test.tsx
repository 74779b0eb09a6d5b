import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../../../test/render-ui.tsx';
import type { ListDefaults } from '../../lib/list-state/list-state.ts';
import { useListState } from '../../lib/list-state/use-list-state.ts';
import { DataList, type ListResult } from './data-list.tsx';
import type { Column } from './data-table.tsx';

interface Row {
  id: string;
  name: string;
}

const defaults: ListDefaults = { sort: 'name', direction: 'asc', sortFields: ['name'], filterKeys: ['name'] };
const columns: Column<Row>[] = [
  { key: 'name', header: 'Name', sortField: 'name', render: (row) => row.name },
  { key: 'id', header: 'ID', render: (row) => row.id },
];

function result(total: number, overrides: Partial<ListResult<Row>> = {}): ListResult<Row> {
  return {
    data: { total, list: Array.from({ length: Math.min(total, 10) }, (_, i) => ({ id: `r${i}`, name: `Row ${i}` })) },
    isPending: false,
    isPlaceholderData: false,
    error: null,
    refetch: () => undefined,
    ...overrides,
  };
}

function List({ res }: { res: ListResult<Row> }) {
  const list = useListState(defaults);
  return (
    <DataList
      label="Things"
      list={list}
      result={res}
      columns={columns}
      rowKey={(row) => row.id}
      filters={{
        inputs: <span>inputs</span>,
        active: list.state.filters['name'] ? [{ key: 'name', label: 'Name', value: list.state.filters['name'] }] : [],
      }}
    />
  );
}

const pagination = () => screen.queryByRole('navigation', { name: 'Pagination' });
/** The page links as a person reads them: numbers, … for gaps, [n] for the current one. */
function pages(): string {
  const nav = pagination();
  if (!nav) return '';
  return Array.from(nav.querySelectorAll('li'))
    .map((item) => {
      // The ellipsis is hidden from assistive technology, so it is read off the page itself.
      if (item.getAttribute('aria-hidden') === 'true') return item.textContent?.trim() ?? '';
      const link = within(item).queryByRole('link', { name: /^Page \d+$/ });
      if (!link) return null;
      const n = (link.getAttribute('aria-label') ?? within(link).getByText(/^Page \d+$/).textContent ?? '').replace('Page ', '');
      return link.getAttribute('aria-current') === 'page' ? `[${n}]` : n;
    })
    .filter((text) => text !== null)
    .join(' ');
}

describe('DataList pagination (spec §9)', () => {
  it.each([0, 7, 10])('is hidden with %i rows in all (one default page)', (total) => {
    renderUi(<List res={result(total)} />, { path: '/list' });
    expect(screen.getByRole('table', { name: 'Things' })).toBeInTheDocument();
    expect(pagination()).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Rows per page' })).not.toBeInTheDocument();
  });

  it('shows numbered links past 10 rows, marks the current page, and Rows per page 10/20/50/100', () => {
    renderUi(<List res={result(11)} />, { path: '/list' });
    expect(pages()).toBe('[1] 2');
    expect(screen.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Page 2' })).toHaveAttribute('href', '/list#page=1');
    // No previous page on the first: the control is there but leads nowhere.
    expect(screen.getByRole('link', { name: 'Previous page' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('link', { name: 'Previous page' })).not.toHaveAttribute('href');
    expect(screen.getByRole('link', { name: 'Next page' })).toHaveAttribute('href', '/list#page=1');
    const size = screen.getByRole('combobox', { name: 'Rows per page' });
    expect(size).toHaveValue('10');
    expect(
      within(size)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['10', '20', '50', '100']);
    expect(screen.getByText('1–10 of 11')).toBeInTheDocument();
  });

  it('shows the first, the last and two around the current page, with ellipses for the gaps', () => {
    renderUi(<List res={result(200)} />, { path: '/list#page=9' });
    expect(pages()).toBe('1 … 8 9 [10] 11 12 … 20');
    expect(screen.getByText('91–100 of 200')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Previous page' })).toHaveAttribute('href', '/list#page=8');
  });

  it('near the start there is one ellipsis only', () => {
    renderUi(<List res={result(95)} />, { path: '/list#page=1' });
    expect(pages()).toBe('1 [2] 3 4 … 10');
  });

  it('goes to a page by its link and changes the page size from the select (back to page 1)', async () => {
    const ui = renderUi(<List res={result(200)} />, { path: '/list' });
    await ui.user.click(screen.getByRole('link', { name: 'Page 3' }));
    expect(ui.location()).toBe('/list#page=2');
    expect(pages()).toBe('1 2 [3] 4 5 … 20');
    await ui.user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '50');
    expect(ui.location()).toBe('/list#size=50');
    expect(pages()).toBe('[1] 2 3 4');
  });

  it('keeps a way back from a page past the end of a list that shrank', () => {
    renderUi(<List res={result(0)} />, { path: '/list#page=4' });
    expect(screen.getByText('No records found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Page 1' })).toHaveAttribute('href', '/list');
  });
});

describe('DataList table, filters and states (spec §2 "List pages")', () => {
  it('sorts by a header button, with aria-sort on its header cell', async () => {
    const ui = renderUi(<List res={result(3)} />, { path: '/list' });
    const header = screen.getByRole('columnheader', { name: 'Name' });
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: 'ID' })).not.toHaveAttribute('aria-sort');
    await ui.user.click(within(header).getByRole('button', { name: 'Name' }));
    expect(ui.location()).toBe('/list#direction=desc');
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
    expect(within(screen.getByRole('columnheader', { name: 'ID' })).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows an active filter as a tag whose button removes it', async () => {
    const ui = renderUi(<List res={result(3)} />, { path: '/list#name=shop&page=1' });
    const filters = screen.getByRole('search', { name: 'Filters' });
    expect(within(filters).getByText('Name: shop')).toBeInTheDocument();
    await ui.user.click(within(filters).getByRole('button', { name: 'Remove filter Name' }));
    expect(ui.location()).toBe('/list');
    expect(within(filters).queryByText('Name: shop')).not.toBeInTheDocument();
  });

  it('says so when there are no records', () => {
    renderUi(<List res={result(0)} />, { path: '/list' });
    expect(screen.getByText('No records found')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(2);
  });

  it('shows the error message of a failed load as an alert, in place of the rows', () => {
    renderUi(<List res={result(0, { data: undefined, error: new Error('The database is asleep') })} />, { path: '/list' });
    expect(screen.getByRole('alert')).toHaveTextContent('The database is asleep');
    expect(screen.queryByText('No records found')).not.toBeInTheDocument();
  });

  it('keeps the table and its header while loading, busy, with placeholder rows', () => {
    renderUi(<List res={result(0, { data: undefined, isPending: true })} />, { path: '/list' });
    const table = screen.getByRole('table', { name: 'Things' });
    expect(table).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(screen.queryByText('No records found')).not.toBeInTheDocument();
  });
});
