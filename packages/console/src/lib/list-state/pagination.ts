import { DEFAULT_PAGE_SIZE, PAGINATION_SIBLINGS } from '@latchkey/domain';

export type PaginationItem = number | 'ellipsis-start' | 'ellipsis-end';

/** spec §9: pagination is shown only when the total exceeds one default page (10). */
export function isPaginationShown(total: number): boolean {
  return total > DEFAULT_PAGE_SIZE;
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/**
 * spec §9: numbered links — the first, the last, and two around the current page, with ellipses
 * for the gaps. Pages are 0-based. A gap of a single page shows that page instead of an ellipsis.
 */
export function paginationItems(current: number, count: number, siblings = PAGINATION_SIBLINGS): PaginationItem[] {
  if (count <= 0) return [];
  const last = count - 1;
  const page = Math.min(Math.max(current, 0), last);
  const from = Math.max(0, page - siblings);
  const to = Math.min(last, page + siblings);
  const items: PaginationItem[] = [];
  if (from > 0) {
    items.push(0);
    if (from === 2) items.push(1);
    else if (from > 2) items.push('ellipsis-start');
  }
  for (let p = from; p <= to; p += 1) items.push(p);
  if (to < last) {
    if (to === last - 2) items.push(last - 1);
    else if (to < last - 2) items.push('ellipsis-end');
    items.push(last);
  }
  return items;
}
