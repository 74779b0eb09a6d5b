import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../../test/render-ui.tsx';
import type { Column } from './data-table.tsx';
import { StaticTable } from './static-table.tsx';

interface Passkey {
  id: string;
  name: string;
  revoked: boolean;
}

const columns: Column<Passkey>[] = [
  { key: 'name', header: 'Device name', render: (p) => p.name },
  { key: 'status', header: 'Status', shrink: true, render: (p) => (p.revoked ? 'Revoked' : 'Active') },
  {
    key: 'revoke',
    header: 'Revoke',
    hiddenHeader: true,
    shrink: true,
    align: 'right',
    render: (p) => (p.revoked ? null : <button type="button">Revoke</button>),
  },
];
const rows: Passkey[] = [
  { id: 'a', name: 'Laptop', revoked: false },
  { id: 'b', name: 'Old phone', revoked: true },
];

/** The simulated DOM lays nothing out: the table's width, its box's and whether the screen is a phone's. */
function layOut({ table, box, phone = false }: { table: number; box: number; phone?: boolean }) {
  vi.spyOn(HTMLTableElement.prototype, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ width: table, height: 100 }));
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(box);
  vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({
    matches: phone && query === '(max-width: 36em)',
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

const tableBox = () => screen.getByRole('table', { name: 'Passkeys' }).parentElement;

function renderPasskeys() {
  renderUi(<StaticTable label="Passkeys" columns={columns} rows={rows} rowKey={(p) => p.id} empty="No passkey." />);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('A table on a small screen keeps its status and actions in view (issue 35)', () => {
  it('names each cell by its column, for the stacked rows; the actions cell has no name, and one with nothing in it says so', () => {
    layOut({ table: 300, box: 400 });
    renderPasskeys();
    const [laptop, oldPhone] = screen.getAllByRole('row').slice(1);
    const laptopCells = within(laptop as HTMLElement).getAllByRole('cell');
    expect(laptopCells.map((cell) => cell.getAttribute('data-label'))).toEqual(['Device name', 'Status', null]);
    expect(laptopCells[2]).not.toHaveAttribute('data-empty');
    // The label is drawn by the style sheet: the cell's own name stays its value.
    expect(within(laptop as HTMLElement).getByRole('cell', { name: 'Laptop' })).toBeInTheDocument();
    expect(within(oldPhone as HTMLElement).getAllByRole('cell')[2]).toHaveAttribute('data-empty');
  });

  it('stays a table where it fits its box', () => {
    layOut({ table: 400, box: 400 });
    renderPasskeys();
    expect(tableBox()).not.toHaveAttribute('data-stacked');
  });

  it('stacks its rows where the table would be wider than its box, which would hide its last columns', () => {
    layOut({ table: 640, box: 400 });
    renderPasskeys();
    expect(tableBox()).toHaveAttribute('data-stacked');
  });

  it('stacks its rows on a phone even where it fits', () => {
    layOut({ table: 300, box: 360, phone: true });
    renderPasskeys();
    expect(tableBox()).toHaveAttribute('data-stacked');
  });
});
