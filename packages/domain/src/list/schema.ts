import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../constants.ts';

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Largest page a list call answers (spec §9: page sizes 10, 20, 50, 100). */
export const MAX_PAGE_SIZE = PAGE_SIZES[PAGE_SIZES.length - 1] as number;
/** Offsets past this are refused: deep pages are reached by narrowing filters, not by skipping rows. */
export const MAX_OFFSET = 1_000_000;

/** A query-string boolean: `true` or `false`, nothing else. */
export const queryBoolean = () => z.enum(['true', 'false'], { error: 'validation.invalid_value' }).transform((v) => v === 'true');

/**
 * The paging and sorting part of every list call (spec §7: sort, direction, offset, limit;
 * paging: offset = page × size, limit = size).
 */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(
  sortFields: S,
  defaults: { sort: S[number]; direction: SortDirection },
) {
  return z.object({
    sort: z.enum(sortFields, { error: 'validation.invalid_value' }).default(defaults.sort as never),
    direction: z.enum(SORT_DIRECTIONS, { error: 'validation.invalid_value' }).default(defaults.direction),
    offset: z.coerce
      .number({ error: 'validation.not_a_number' })
      .int({ error: 'validation.not_a_number' })
      .min(0, { error: 'validation.out_of_range' })
      .max(MAX_OFFSET, { error: 'validation.out_of_range' })
      .default(0),
    limit: limitParam(MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  });
}

/** A query-string count of rows to answer: a whole number from 1 to `max`, `fallback` when absent. */
export const limitParam = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'validation.not_a_number' })
    .int({ error: 'validation.not_a_number' })
    .min(1, { error: 'validation.out_of_range' })
    .max(max, { error: 'validation.out_of_range' })
    .default(fallback);

/** spec §3 "List responses: total and a list". */
export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ total: z.number().int(), list: z.array(item) });
}
