import { DataTable, type Column } from './data-table.tsx';

const noSort = () => undefined;

/**
 * A table of a few rows a page holds whole (a user's passkeys, a webhook's deliveries): no sorting
 * and no paging, the columns in their order; `empty` says so in place of a table with no rows.
 */
export function StaticTable<T>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  loading = false,
  error,
  onRetry,
}: {
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  empty: string;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
}) {
  if (rows && rows.length === 0 && !error) return <p>{empty}</p>;
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={rows}
      rowKey={rowKey}
      sort=""
      direction="asc"
      onSort={noSort}
      loading={loading}
      error={error}
      {...(onRetry ? { onRetry } : {})}
      skeletonRows={2}
    />
  );
}
