import { Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { isPaginationShown } from '../../lib/list-state/pagination.ts';
import type { ListStateControl } from '../../lib/list-state/use-list-state.ts';
import { withPage } from '../../lib/list-state/list-state.ts';
import { DataTable, type Column } from './data-table.tsx';
import { FilterBar, type ActiveFilter } from './filter-bar.tsx';
import { ListPagination } from './list-pagination.tsx';
import classes from './list.module.css';

/** What a list page's query gives (react-query's result has this shape). */
export interface ListResult<T> {
  /** `totalCapped`: more rows match than `total` counted ("10,000+", docs/decisions/0019). */
  data: { total: number; totalCapped?: boolean; list: T[] } | undefined;
  isPending: boolean;
  /** The rows shown are a previous answer while the new one loads. */
  isPlaceholderData: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface DataListProps<T> {
  /** The table's accessible name. */
  label: string;
  list: ListStateControl;
  result: ListResult<T>;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** The filter bar: its inputs and the filters in use (useDeclaredFilters gives both). */
  filters?: { inputs: ReactNode; active: readonly ActiveFilter[] };
}

/**
 * spec §2 "List pages (common)": filter bar, sortable table and pagination over a list state kept in
 * the URL hash (useListState). Pagination shows only when the total exceeds 10 (spec §9), or when
 * the address names a page past the first, so there is always a way back.
 */
export function DataList<T>({ label, list, result, columns, rowKey, filters }: DataListProps<T>) {
  const { state } = list;
  const total = result.data?.total ?? 0;
  const showPagination = result.data !== undefined && (isPaginationShown(total) || state.page > 0);

  return (
    <Paper withBorder className={classes.listPaper}>
      {filters ? (
        <FilterBar active={filters.active} onRemove={(key) => list.setFilter(key, '')}>
          {filters.inputs}
        </FilterBar>
      ) : null}
      <DataTable
        label={label}
        columns={columns}
        rows={result.data?.list}
        rowKey={rowKey}
        sort={state.sort}
        direction={state.direction}
        onSort={list.setSort}
        loading={result.isPending && !result.error}
        refreshing={result.isPlaceholderData}
        error={result.error}
        onRetry={() => void result.refetch()}
        skeletonRows={3}
      />
      {showPagination ? (
        <ListPagination
          total={total}
          totalCapped={result.data?.totalCapped ?? false}
          page={state.page}
          size={state.size}
          pageLink={(page) => list.linkTo(withPage(state, page))}
          onSize={list.setSize}
        />
      ) : null}
    </Paper>
  );
}
