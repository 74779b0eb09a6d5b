import { describe, expect, it } from 'vitest';
import { parseListHash, serializeListHash, toListQuery, withFilter, withPage, withSize, withSort, type ListDefaults } from './list-state.ts';
import { isPaginationShown, pageCount, paginationItems } from './pagination.ts';

const defaults: ListDefaults = {
  sort: 'name',
  direction: 'asc',
  sortFields: ['name', 'enabled'],
  filterKeys: ['name', 'enabled'],
};

describe('list state in the URL hash', () => {
  it('an empty hash is the default view', () => {
    expect(parseListHash('', defaults)).toEqual({ filters: {}, sort: 'name', direction: 'asc', page: 0, size: 10 });
    expect(serializeListHash(parseListHash('', defaults), defaults)).toBe('');
  });

  it('round-trips filters, sort, page and size', () => {
    const state = { filters: { name: 'shop app', enabled: 'true' }, sort: 'enabled', direction: 'desc' as const, page: 3, size: 50 };
    const hash = serializeListHash(state, defaults);
    expect(hash).toBe('#name=shop+app&enabled=true&sort=enabled&direction=desc&page=3&size=50');
    expect(parseListHash(hash, defaults)).toEqual(state);
  });

  it('ignores unknown keys, unknown sort fields, odd sizes and bad numbers', () => {
    expect(parseListHash('#secret=1&sort=password&size=13&page=-2&direction=sideways', defaults)).toEqual({
      filters: {},
      sort: 'name',
      direction: 'asc',
      page: 0,
      size: 10,
    });
  });

  it('changing a filter resets to page 0, and an empty value removes it', () => {
    const onPage4 = { ...parseListHash('#page=4&name=a', defaults) };
    const next = withFilter(onPage4, 'name', 'b');
    expect(next.page).toBe(0);
    expect(next.filters).toEqual({ name: 'b' });
    expect(withFilter(next, 'name', '').filters).toEqual({});
  });

  it('sorting a new column goes ascending, the same column flips, both back to page 0', () => {
    const s = withPage(parseListHash('', defaults), 2);
    const byEnabled = withSort(s, 'enabled');
    expect(byEnabled).toMatchObject({ sort: 'enabled', direction: 'asc', page: 0 });
    expect(withSort(byEnabled, 'enabled').direction).toBe('desc');
    expect(withSort(withSort(byEnabled, 'enabled'), 'enabled').direction).toBe('asc');
  });

  it('a new page size starts at page 0', () => {
    expect(withSize(withPage(parseListHash('', defaults), 5), 20)).toMatchObject({ size: 20, page: 0 });
  });

  it('default filters are left out of the hash and restored from it', () => {
    const withRange: ListDefaults = { ...defaults, filterKeys: ['from'], filters: { from: '2026-11-01' } };
    const state = parseListHash('', withRange);
    expect(state.filters).toEqual({ from: '2026-11-01' });
    expect(serializeListHash(state, withRange)).toBe('');
    expect(serializeListHash(withFilter(state, 'from', '2026-10-01'), withRange)).toBe('#from=2026-10-01');
  });

  it('offset = page × size, limit = size (spec §7)', () => {
    const state = { filters: { name: 'x' }, sort: 'name', direction: 'asc' as const, page: 3, size: 20 };
    expect(toListQuery(state)).toEqual({ name: 'x', sort: 'name', direction: 'asc', offset: 60, limit: 20 });
  });
});

describe('pagination links (spec §9)', () => {
  const show = (current: number, count: number) =>
    paginationItems(current, count)
      .map((i) => (typeof i === 'number' ? String(i + 1) : '…'))
      .join(' ');

  it('is shown only when the total exceeds 10', () => {
    expect(isPaginationShown(10)).toBe(false);
    expect(isPaginationShown(11)).toBe(true);
  });
  it('counts pages', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(100, 20)).toBe(5);
  });
  it.each([
    [0, 1, '1'],
    [0, 2, '1 2'],
    [0, 5, '1 2 3 4 5'],
    [0, 10, '1 2 3 … 10'],
    [4, 10, '1 2 3 4 5 6 7 … 10'],
    [5, 10, '1 … 4 5 6 7 8 9 10'],
    [5, 20, '1 … 4 5 6 7 8 … 20'],
    [19, 20, '1 … 18 19 20'],
    [3, 7, '1 2 3 4 5 6 7'],
    [50, 100000, '1 … 49 50 51 52 53 … 100000'],
  ])('page %i of %i: %s', (current, count, expected) => {
    expect(show(current, count)).toBe(expected);
  });
});
