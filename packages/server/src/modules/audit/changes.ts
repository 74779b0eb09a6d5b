/**
 * What a console or API write changed, for its audit event's `details.changes` (docs/decisions/0014
 * "Management actions"): `{ field: { before, after } }` for exactly the fields that differ, nested
 * objects as dotted paths (`loginOptions.primary`), arrays of objects by position
 * (`pushOptions.platforms.0.projectId`), other arrays and values whole. A secret is never written:
 * its entry is `"(changed)"` in place of the pair.
 */
import { SECRET_CHANGED } from '@latchkey/domain';

export { SECRET_CHANGED };

export type FieldChange = { before: unknown; after: unknown } | typeof SECRET_CHANGED;
export type Changes = Record<string, FieldChange>;

type Doc = Record<string, unknown>;

function isRecord(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

const isAbsent = (value: unknown): boolean => value === undefined || value === null;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** A path pattern's segments; `*` stands for any one segment (an array position, a key). */
function matches(pattern: string[], path: string[]): boolean {
  return pattern.length === path.length && pattern.every((segment, i) => segment === '*' || segment === path[i]);
}

/**
 * The changes from `before` to `after`; `before` null for what a write created (every field of
 * `after`, before null). `secrets`: dotted path patterns (`pushOptions.platforms.*.config`) whose
 * values are secrets, compared but never recorded.
 */
export function changesBetween(before: Doc | null, after: Doc, secrets: readonly string[] = []): Changes {
  const secretPatterns = secrets.map((s) => s.split('.'));
  const changes: Changes = {};

  const walk = (b: unknown, a: unknown, path: string[]): void => {
    const key = path.join('.');
    if (secretPatterns.some((pattern) => matches(pattern, path))) {
      if (!same(b, a)) changes[key] = SECRET_CHANGED;
      return;
    }
    if ((isRecord(a) || isAbsent(a)) && (isRecord(b) || isAbsent(b)) && (isRecord(a) || isRecord(b))) {
      const from = isRecord(b) ? b : {};
      const to = isRecord(a) ? a : {};
      for (const field of new Set([...Object.keys(from), ...Object.keys(to)])) walk(from[field], to[field], [...path, field]);
      return;
    }
    const listOfRecords = (v: unknown) => Array.isArray(v) && v.some(isRecord);
    if ((listOfRecords(a) || listOfRecords(b)) && (Array.isArray(a) || isAbsent(a)) && (Array.isArray(b) || isAbsent(b))) {
      const from = Array.isArray(b) ? b : [];
      const to = Array.isArray(a) ? a : [];
      for (let i = 0; i < Math.max(from.length, to.length); i++) walk(from[i], to[i], [...path, String(i)]);
      return;
    }
    if (!same(b, a)) changes[key] = { before: b ?? null, after: a ?? null };
  };

  walk(before, after, []);
  return changes;
}
