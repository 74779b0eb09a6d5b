import type { ApiRoute } from './contract.ts';

/** The path parameters a key is built with (the call's own, or a mutation's for the reads it invalidates). */
export type KeyParams = Readonly<Record<string, string | number | undefined>>;

/**
 * The marker of a read kept with its ETag (`useTaggedQuery`): the same resource read without it is
 * another cache entry, since the two hold different shapes. An object, so no path segment equals it.
 */
const TAGGED = { etag: true } as const;

/**
 * The one rule of the console's cache keys (issue 35): a contract entry's path, its segments in
 * order with each `:name` replaced by that parameter's value — `projects/:project/webhooks/:webhook`
 * with { project: 'p1', webhook: 'w1' } is ['projects', 'p1', 'webhooks', 'w1']. A parameter not
 * given ends the key there, so the key then names every resource of that kind: the webhooks
 * list's key (['projects', 'p1', 'webhooks']) is a prefix of each webhook's, and invalidating it
 * reaches every read under it, whatever their query.
 */
export function resourceKey(route: ApiRoute, params: KeyParams = {}): string[] {
  const key: string[] = [];
  for (const segment of route.path.split('/')) {
    if (segment === '') continue;
    if (!segment.startsWith(':')) {
      key.push(segment);
      continue;
    }
    const value = params[segment.slice(1)];
    if (value === undefined) break;
    key.push(String(value));
  }
  return key;
}

/** The path parameters of a call's options (`{ params, query, body }`), none when it has none. */
export function paramsOf(call: unknown): KeyParams {
  if (call === null || typeof call !== 'object' || !('params' in call)) return {};
  return (call.params ?? {}) as KeyParams;
}

/** The key of one read: its resource's key, then its query (when it has one), then the ETag marker. */
export function readKey(route: ApiRoute, call: { params?: unknown; query?: unknown }, tagged = false): readonly unknown[] {
  return [...resourceKey(route, paramsOf(call)), ...(call.query === undefined ? [] : [call.query]), ...(tagged ? [TAGGED] : [])];
}
