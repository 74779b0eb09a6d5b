import type { BodyOf, Endpoint, ParamsOf, QueryOf, ResponseOf } from '@latchkey/domain';
import {
  skipToken,
  useMutation,
  useQuery,
  useQueryClient,
  type InvalidateQueryFilters,
  type QueryKey,
  type SkipToken,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { isApiError } from './api/api-error.ts';
import { send, type RequestOptions, type Tagged } from './api/client.ts';
import type { ApiRoute } from './api/contract.ts';
import { paramsOf, readKey, resourceKey } from './api/query-key.ts';

// The contract's calls as react-query hooks (issue 35): a page reads and writes through a contract
// entry — `useApiQuery(api.getWebhook, { params })`, `useApiMutation(api.createWebhook, { invalidates })`
// — typed by it end to end, its cache key derived from the entry's path (api/query-key.ts). A
// feature keeps a hook of its own only for what this does not do: an optimistic change, state of
// its own, calls chained. A save under If-Match that reads again on a 412 is `useTaggedSave`.

type ParamsPart<E> = unknown extends ParamsOf<E> ? { params?: never } : { params: ParamsOf<E> };
type QueryPart<E> = unknown extends QueryOf<E> ? { query?: never } : { query: QueryOf<E> };
type BodyPart<E> = unknown extends BodyOf<E> ? { body?: never } : { body: BodyOf<E> };

/** A read: its path parameters and query, as its contract entry types them. */
export type ReadCall<E> = ParamsPart<E> &
  QueryPart<E> & {
    /** A 401 is this read's answer when signed out (public settings): no session-expired event. */
    expectSignedOut?: boolean;
  };

/** A write: its path parameters, query and body, as its contract entry types them. */
export type WriteCall<E> = ParamsPart<E> & QueryPart<E> & BodyPart<E> & { ifMatch?: string | null };

/** What a write's `mutate` takes: nothing for an entry without parameters, query or body. */
export type WriteVariables<E> = unknown extends ParamsOf<E> & QueryOf<E> & BodyOf<E> ? WriteCall<E> | void : WriteCall<E>;

/** react-query's options of a read, but its key and function, which come from the contract entry. */
export type ReadOptions<T> = Omit<UseQueryOptions<T, Error, T>, 'queryKey' | 'queryFn'>;

function readFn<E extends Endpoint>(route: ApiRoute<E>, call: ReadCall<E>) {
  return ({ signal }: { signal: AbortSignal }) => send(route, { ...call, signal } as Partial<RequestOptions<E>>);
}

/**
 * A read of the contract: `useApiQuery(api.getEndUser, { params: { project, user } })`. Its key is
 * the entry's path with the call's values (then its query), so a write that invalidates the
 * resource's prefix reaches it. `skipToken` instead of the call: nothing to read yet.
 */
export function useApiQuery<E extends Endpoint>(route: ApiRoute<E>, call: ReadCall<E> | SkipToken, options: ReadOptions<ResponseOf<E>> = {}) {
  return useQuery<ResponseOf<E>, Error, ResponseOf<E>>({
    ...options,
    queryKey: call === skipToken ? resourceKey(route) : readKey(route, call),
    queryFn: call === skipToken ? skipToken : async (context) => (await readFn(route, call)(context)).data,
  });
}

/**
 * A read kept with its ETag (`{ data, etag }`), for a page that writes it back with `ifMatch`. It
 * is a cache entry of its own beside the plain read of the same resource, under the same prefix.
 */
export function useTaggedQuery<E extends Endpoint>(route: ApiRoute<E>, call: ReadCall<E>, options: ReadOptions<Tagged<ResponseOf<E>>> = {}) {
  return useQuery<Tagged<ResponseOf<E>>, Error, Tagged<ResponseOf<E>>>({
    ...options,
    queryKey: readKey(route, call, true),
    queryFn: readFn(route, call),
  });
}

function isRoute(target: ApiRoute | QueryKey): target is ApiRoute {
  return 'path' in target;
}

export interface WriteOptions {
  /**
   * The reads this write changes, read again once it is answered — or has failed, since it may have
   * been done meanwhile (a device revoked by someone else). Each is a contract entry, standing for
   * its resource's key with this call's parameters as far as they name them (`api.listWebhooks`
   * from a webhook's delete: every read of the project's webhooks), or a key of its own.
   */
  invalidates?: readonly (ApiRoute | QueryKey)[];
}

/**
 * A write of the contract: `useApiMutation(api.createWebhook, { invalidates: [api.listWebhooks] })`,
 * then `mutate({ params, body })`. A DELETE also drops the cached reads of what it deleted (its own
 * path), which nothing can read again.
 */
export function useApiMutation<E extends Endpoint>(route: ApiRoute<E>, options: WriteOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation<ResponseOf<E>, Error, WriteVariables<E>>({
    mutationFn: async (call) => (await send(route, (call ?? {}) as Partial<RequestOptions<E>>)).data,
    onSuccess: (_answer, call) => {
      if (route.method === 'DELETE') queryClient.removeQueries({ queryKey: resourceKey(route, paramsOf(call)) });
    },
    onSettled: (_answer, _error, call) => {
      for (const target of options.invalidates ?? []) {
        void queryClient.invalidateQueries({ queryKey: isRoute(target) ? resourceKey(target, paramsOf(call)) : target });
      }
    },
  });
}

/**
 * A save under If-Match of what a tagged read holds (`useTaggedQuery(read, { params })`):
 * `mutate({ current, body })` writes `body` with `current`'s ETag. The answer replaces the tagged
 * read and `invalidates` are read again; a stale version (412, saved meanwhile elsewhere) reads the
 * tagged read again, so the page shows what is there now.
 */
export function useTaggedSave<R extends Endpoint, W extends Endpoint>(
  read: ApiRoute<R>,
  write: ApiRoute<W>,
  params: ParamsOf<W>,
  invalidates: readonly InvalidateQueryFilters[] = [],
) {
  const queryClient = useQueryClient();
  const tagged = readKey(read, { params }, true);
  return useMutation<Tagged<ResponseOf<W>>, Error, { current: Tagged<ResponseOf<R>>; body: BodyOf<W> }>({
    mutationFn: ({ current, body }) => send(write, { params, body, ifMatch: current.etag } as Partial<RequestOptions<W>>),
    onSuccess: (saved) => {
      queryClient.setQueryData(tagged, saved);
      for (const filters of invalidates) void queryClient.invalidateQueries(filters);
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: tagged });
    },
  });
}
