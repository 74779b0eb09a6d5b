import type { SortDirection } from '@latchkey/domain';
import { Skeleton, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { ErrorAlert } from '../error-alert.tsx';
import classes from './list.module.css';
import { useStackedRows } from './use-stacked-rows.ts';
import '../texts.ts';

export interface Column<T> {
  key: string;
  header: string;
  /** The list's sort field for this column; without one the column is not sortable. */
  sortField?: string;
  render: (row: T) => ReactNode;
  /** The header is for assistive technology only: an actions column, at a stacked row's end. */
  hiddenHeader?: boolean;
  /** Keep the column as narrow as its content (badges, actions). */
  shrink?: boolean;
  align?: 'left' | 'right';
  /** Left out on phone-sized screens, to give the others room (secondary information only). */
  hiddenOnPhone?: boolean;
}

function cellClass(column: { shrink?: boolean; hiddenOnPhone?: boolean; align?: 'left' | 'right' }): string | undefined {
  const names = [
    column.shrink ? classes.shrink : null,
    column.hiddenOnPhone ? classes.phoneHidden : null,
    column.align === 'right' ? classes.end : null,
  ].filter(Boolean);
  return names.length > 0 ? names.join(' ') : undefined;
}

/** A cell's column name, shown beside its value when the rows stack; an actions column has none. */
function cellLabel(column: { header: string; hiddenHeader?: boolean }): string | undefined {
  return column.hiddenHeader ? undefined : column.header;
}

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  sort: string;
  direction: SortDirection;
  onSort: (field: string) => void;
  /** Nothing to show yet: placeholder rows keep the table's shape. */
  loading: boolean;
  /** Newer rows are on their way; the ones shown are the previous answer. */
  refreshing?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Placeholder rows while loading. */
  skeletonRows?: number;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/**
 * spec §2 "List pages (common)": sortable column headers (a button in each header cell, aria-sort on
 * the sorted one), the rows, and in their place the no-records message or the load error. On a phone,
 * or wherever the table is wider than its box, the rows stack: each cell a line of its column's name
 * and its value, the actions at the row's end (useStackedRows).
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  sort,
  direction,
  onSort,
  loading,
  refreshing = false,
  error,
  onRetry,
  skeletonRows = 3,
}: DataTableProps<T>) {
  const { t } = useTranslation('ui');
  const stacking = useStackedRows();
  const span = columns.length;

  let body: ReactNode;
  if (error) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={span} className={classes.messageCell}>
          <ErrorAlert title={t('list.loadFailed')} error={error} onRetry={onRetry} />
        </Table.Td>
      </Table.Tr>
    );
  } else if (loading || !rows) {
    body = Array.from({ length: skeletonRows }, (_, i) => (
      <Table.Tr key={`skeleton-${i}`} aria-hidden="true">
        {columns.map((column) => (
          <Table.Td key={column.key} className={cellClass(column)} data-label={cellLabel(column)}>
            <Skeleton height={14} radius="sm" width={column.shrink ? 48 : '70%'} />
          </Table.Td>
        ))}
      </Table.Tr>
    ));
  } else if (rows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={span} className={classes.messageCell}>
          <div className={classes.empty}>
            <IconInbox size={28} stroke={1.5} aria-hidden="true" />
            <Text size="sm">{t('list.noRecords')}</Text>
          </div>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => (
      <Table.Tr key={rowKey(row)}>
        {columns.map((column) => {
          const content = column.render(row);
          return (
            <Table.Td
              key={column.key}
              className={cellClass(column)}
              data-label={cellLabel(column)}
              data-empty={content === null || content === undefined || content === false || undefined}
            >
              {/* One box for the value, whatever it is made of: stacked, it is the line's second column. */}
              <div className={classes.cellValue}>{content}</div>
            </Table.Td>
          );
        })}
      </Table.Tr>
    ));
  }

  return (
    <div ref={stacking.box} className={classes.tableScroll}>
      <div ref={stacking.probe} className={classes.widthProbe} aria-hidden="true" />
      <Table
        ref={stacking.table}
        aria-label={label}
        aria-busy={loading || refreshing}
        verticalSpacing="sm"
        horizontalSpacing="md"
        highlightOnHover={Boolean(rows?.length)}
        className={refreshing ? `${classes.table} ${classes.refreshing}` : classes.table}
      >
        {/* Stacked, the header row is only its sort buttons, above the rows; without one it is read, not seen. */}
        <Table.Thead data-sortable={columns.some((column) => column.sortField !== undefined) || undefined}>
          <Table.Tr>
            {columns.map((column) => {
              const field = column.sortField;
              const sorted = field !== undefined && field === sort;
              return (
                <Table.Th
                  key={column.key}
                  aria-sort={sorted ? ARIA_SORT[direction] : undefined}
                  className={cellClass(column)}
                  data-sortable={field !== undefined || undefined}
                >
                  {column.hiddenHeader ? (
                    <VisuallyHidden>{column.header}</VisuallyHidden>
                  ) : field ? (
                    <SortButton label={column.header} state={sorted ? direction : null} onClick={() => onSort(field)} />
                  ) : (
                    column.header
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </div>
  );
}

function SortButton({ label, state, onClick }: { label: string; state: SortDirection | null; onClick: () => void }) {
  const Icon = state === 'asc' ? IconArrowUp : state === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton className={classes.sortButton} data-sorted={state !== null || undefined} onClick={onClick}>
      <span>{label}</span>
      <Icon size={14} stroke={2} aria-hidden="true" className={classes.sortIcon} />
    </UnstyledButton>
  );
}
