import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate, type Path } from 'react-router';
import {
  parseListHash,
  serializeListHash,
  toListQuery,
  withFilter,
  withPage,
  withSize,
  withSort,
  type ListDefaults,
  type ListState,
} from './list-state.ts';

export interface ListStateControl {
  state: ListState;
  /** offset = page × size, limit = size, sort, direction and the filters (spec §7 "Paging"). */
  query: Record<string, string | number>;
  /** A filter changes (empty removes it): back to the first page. */
  setFilter: (key: string, value: string) => void;
  /** A column header is clicked: ascending for a new column, flipped for the same one. */
  setSort: (field: string) => void;
  setPage: (page: number) => void;
  setSize: (size: number) => void;
  /** Where a link to another state of the same list points (pagination links). */
  linkTo: (next: ListState) => Path;
}

/**
 * spec §2 "List pages (common)": the list state lives in the URL hash. Every change pushes a history
 * entry, so the back button walks back through filters, sorts and pages, and a reload shows the
 * same view. `defaults` should be a constant (it is a dependency of everything here).
 */
export function useListState(defaults: ListDefaults): ListStateControl {
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => parseListHash(location.hash, defaults), [location.hash, defaults]);
  const { pathname, search } = location;
  const currentHash = serializeListHash(state, defaults);

  const linkTo = useCallback(
    (next: ListState): Path => ({ pathname, search, hash: serializeListHash(next, defaults) }),
    [pathname, search, defaults],
  );

  const go = useCallback(
    (next: ListState) => {
      const to = linkTo(next);
      if (to.hash === currentHash) return;
      // A push, not a replace: back restores the previous view. A list is not scrolled by it.
      void navigate(to, { preventScrollReset: true });
    },
    [linkTo, currentHash, navigate],
  );

  return {
    state,
    query: useMemo(() => toListQuery(state), [state]),
    setFilter: useCallback((key, value) => go(withFilter(state, key, value)), [go, state]),
    setSort: useCallback((field) => go(withSort(state, field)), [go, state]),
    setPage: useCallback((page) => go(withPage(state, page)), [go, state]),
    setSize: useCallback((size) => go(withSize(state, size)), [go, state]),
    linkTo,
  };
}
