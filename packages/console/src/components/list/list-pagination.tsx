import { PAGE_SIZES } from '@latchkey/domain';
import { Group, NativeSelect, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Link, type To } from 'react-router';
import { pageCount, paginationItems } from '../../lib/list-state/pagination.ts';
import { formatNumber } from '../../lib/format-number.ts';
import classes from './list.module.css';
import '../texts.ts';

interface ListPaginationProps {
  total: number;
  /** More rows match than `total` counted (docs/decisions/0019): the last page is not known. */
  totalCapped?: boolean;
  /** 0-based. */
  page: number;
  size: number;
  /** Where the link to a page (0-based) points: the same list, that page. */
  pageLink: (page: number) => To;
  onSize: (size: number) => void;
}

/**
 * spec §9: numbered links — first, last, two around the current page, ellipses for the gaps —
 * previous and next, the page size (10, 20, 50, 100) and the rows shown. The caller shows it only
 * when the total exceeds one default page.
 */
export function ListPagination({ total, totalCapped = false, page, size, pageLink, onSize }: ListPaginationProps) {
  const { t } = useTranslation('ui');
  // Beyond a capped total there is always a next page as far as anyone knows; the page the server
  // finds empty says "No records found" and links back.
  const count = totalCapped ? Math.max(pageCount(total, size), page + 2) : pageCount(total, size);
  const shownTotal = totalCapped ? Math.max(total, (page + 1) * size) : total;
  const from = Math.min(shownTotal, page * size + 1);
  const to = Math.min(shownTotal, (page + 1) * size);
  // Counts as people read them in the console's language: 10,000 · 10 000 · 10.000.
  const numbers = { from: formatNumber(from), to: formatNumber(to), total: formatNumber(total) };

  return (
    <div className={classes.pagination}>
      <Group gap="md" wrap="nowrap" className={classes.pageSize}>
        <NativeSelect
          label={t('list.rowsPerPage')}
          size="xs"
          value={String(size)}
          data={PAGE_SIZES.map(String)}
          onChange={(event) => onSize(Number(event.currentTarget.value))}
          classNames={{ root: classes.pageSizeSelect, label: classes.pageSizeLabel }}
        />
        <Text size="sm" c="dimmed" className={classes.range}>
          {totalCapped ? t('list.rangeCapped', numbers) : t('list.range', numbers)}
        </Text>
      </Group>
      <nav aria-label={t('list.pagination')}>
        <ul className={classes.pages}>
          <li>
            <PageLink to={page > 0 ? pageLink(page - 1) : null} label={t('list.previousPage')}>
              <IconChevronLeft size={16} aria-hidden="true" />
            </PageLink>
          </li>
          {paginationItems(page, count).map((item) =>
            typeof item === 'number' ? (
              <li key={item}>
                <PageLink to={pageLink(item)} current={item === page} label={t('list.page', { page: item + 1 })}>
                  {item + 1}
                </PageLink>
              </li>
            ) : (
              <li key={item} className={classes.ellipsis} aria-hidden="true">
                …
              </li>
            ),
          )}
          <li>
            <PageLink to={page < count - 1 ? pageLink(page + 1) : null} label={t('list.nextPage')}>
              <IconChevronRight size={16} aria-hidden="true" />
            </PageLink>
          </li>
        </ul>
      </nav>
    </div>
  );
}

interface PageLinkProps {
  /** Null: there is no such page (previous on the first, next on the last). */
  to: To | null;
  label: string;
  current?: boolean;
  children: ReactNode;
}

function PageLink({ to, label, current = false, children }: PageLinkProps) {
  // The visible content is a number or an arrow; the name says what it is ("Page 3", "Next page").
  const content = (
    <>
      <span aria-hidden="true" className={classes.pageLinkContent}>
        {children}
      </span>
      <VisuallyHidden>{label}</VisuallyHidden>
    </>
  );
  if (to === null) {
    return (
      <a role="link" aria-disabled="true" className={classes.pageLink} data-disabled>
        {content}
      </a>
    );
  }
  return (
    <Link to={to} preventScrollReset aria-current={current ? 'page' : undefined} className={classes.pageLink} data-current={current || undefined}>
      {content}
    </Link>
  );
}
