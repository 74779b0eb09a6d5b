import {
  API_BASE_PATH,
  buildPath,
  isErrorCode,
  XSRF_COOKIE,
  XSRF_HEADER,
  type BodyOf,
  type Endpoint,
  type FieldIssue,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '@latchkey/domain';
import { browser } from '../browser.ts';
import { ApiError, type ApiErrorCode } from './api-error.ts';
import type { ApiRoute } from './contract.ts';
import { emitSessionExpired } from './session-events.ts';

export const API_BASE = API_BASE_PATH;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

// An endpoint without params, query or body has `unknown` there (the bare ZodType of its contract
// entry); with one, the options carry it, typed by the contract. Instead of params, a call may name
// the path the API itself answered for the resource (`at`, e.g. an application's keysEndpoint).
type ParamsOption<E> =
  unknown extends ParamsOf<E> ? { params?: never; at?: never } : { params: ParamsOf<E>; at?: never } | { at: string; params?: never };
type QueryOption<E> = unknown extends QueryOf<E> ? { query?: never } : { query: QueryOf<E> };
type BodyOption<E> = unknown extends BodyOf<E> ? { body?: never } : { body: BodyOf<E> };

export type RequestOptions<E> = ParamsOption<E> &
  QueryOption<E> &
  BodyOption<E> & {
    signal?: AbortSignal;
    /**
     * A 401 is the expected answer of this call when signed out (the session entry and the sign-in
     * flow): do not raise the session-expired event for it.
     */
    expectSignedOut?: boolean;
    /** The ETag the resource was read with (optimistic concurrency): sent as If-Match. */
    ifMatch?: string | null;
  };

type NeedsOptions<E> = unknown extends ParamsOf<E> & QueryOf<E> & BodyOf<E> ? false : true;
type RequestArgs<E> = NeedsOptions<E> extends true ? [options: RequestOptions<E>] : [options?: RequestOptions<E>];

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export function queryString(query: unknown): string {
  if (query === null || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function isFieldIssue(value: unknown): value is FieldIssue {
  if (value === null || typeof value !== 'object') return false;
  return 'field' in value && 'code' in value && 'message' in value;
}

export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The error of an answer that is not a success: an API error body keeps its code, message and field
 * issues — a code this console does not know too, when the body has a message to show for it;
 * anything else (a proxy's HTML page) is `unexpected_response`.
 */
export function toApiError(status: number, statusText: string, body: unknown): ApiError {
  if (body !== null && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
    const message = 'message' in body && typeof body.message === 'string' ? body.message : null;
    if (isErrorCode(body.error) || message !== null) {
      const issues = 'issues' in body && Array.isArray(body.issues) ? body.issues.filter(isFieldIssue) : [];
      return new ApiError(status, body.error, message ?? statusText, issues);
    }
  }
  const code: ApiErrorCode = status === 401 ? 'unauthorized' : 'unexpected_response';
  return new ApiError(status, code, statusText || `Request failed with status ${status}`);
}

/** Does `path` have the shape of the contract path `pattern` (each `:name` one segment)? */
export function matchesContractPath(pattern: string, path: string): boolean {
  const source = pattern
    .split(/(:[A-Za-z0-9_]+)/)
    .map((part) => (part.startsWith(':') ? '[^/?#]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`).test(path) && !path.split('/').some((segment) => segment === '..' || segment === '.');
}

/**
 * The path under the API base that a link the API answered points to (spec §7 "{keysEndpoint}").
 * The link is resolved as RFC 3986 says, against the API base `/api/`: `apps/a1/keys` is
 * `/api/apps/a1/keys`, an absolute `https://host/api/apps/a1/keys` stays as it is, and a link with
 * a leading slash resolves against the host, outside the API. Null when it is not under the API base
 * of this origin, or carries a query or fragment.
 */
export function resolveApiLink(link: string): string | null {
  let base: URL;
  let target: URL;
  try {
    base = new URL(`${API_BASE}/`, browser.origin());
    target = new URL(link, base);
  } catch {
    return null;
  }
  if (target.origin !== base.origin || !target.pathname.startsWith(base.pathname)) return null;
  if (target.search || target.hash) return null;
  return `/${target.pathname.slice(base.pathname.length)}`;
}

export function pathOf(endpoint: ApiRoute, options: { params?: unknown; at?: string }): string {
  if (options.at !== undefined) {
    // spec §7 "POST {keysEndpoint}": the server names the resource's path; it is trusted only when it
    // resolves under the API base to the path of the contract entry the call is typed by.
    const path = resolveApiLink(options.at);
    if (path === null || !matchesContractPath(endpoint.path, path)) {
      throw new ApiError(0, 'unexpected_response', `Unexpected API path ${options.at}`);
    }
    return path;
  }
  return buildPath(endpoint.path, (options.params ?? {}) as Record<string, string | number>);
}

/**
 * One call of the API contract: `request(api.createProject, { body })`. Sends the session cookie,
 * the XSRF header on unsafe methods (spec §9), and turns error answers into an `ApiError`.
 */
export async function request<E extends Endpoint>(endpoint: ApiRoute<E>, ...args: RequestArgs<E>): Promise<ResponseOf<E>> {
  return (await send(endpoint, args[0] ?? {})).data;
}

/** A resource and the version it was read at (its ETag, when the server sends one). */
export interface Tagged<T> {
  data: T;
  etag: string | null;
}

/** As `request`, also answering the ETag of the response (to send back as `ifMatch` when writing). */
export async function requestTagged<E extends Endpoint>(endpoint: ApiRoute<E>, ...args: RequestArgs<E>): Promise<Tagged<ResponseOf<E>>> {
  return send(endpoint, args[0] ?? {});
}

/**
 * As `requestTagged`, for generic code that holds a call's options as one value of a type it cannot
 * narrow (lib/use-api.ts): typed callers use `request` and `requestTagged`.
 */
export async function send<E extends Endpoint>(endpoint: ApiRoute<E>, options: Partial<RequestOptions<E>>): Promise<Tagged<ResponseOf<E>>> {
  const url = `${API_BASE}${pathOf(endpoint, options)}${queryString(options.query)}`;

  const headers = new Headers({ Accept: 'application/json' });
  const hasBody = options.body !== undefined;
  if (hasBody) headers.set('Content-Type', 'application/json');
  if (!SAFE_METHODS.has(endpoint.method)) {
    const token = readCookie(XSRF_COOKIE);
    if (token) headers.set(XSRF_HEADER, token);
  }
  if (options.ifMatch) headers.set('If-Match', options.ifMatch);

  let response: Response;
  try {
    response = await fetch(url, {
      method: endpoint.method,
      headers,
      credentials: 'include',
      body: hasBody ? JSON.stringify(options.body) : null,
      signal: options.signal ?? null,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'network_error', cause instanceof Error ? cause.message : 'Network error');
  }

  const body = await readJson(response);
  if (!response.ok) {
    if (response.status === 401 && !options.expectSignedOut) emitSessionExpired();
    throw toApiError(response.status, response.statusText, body);
  }
  // The server answers by the same contract entry's response schema; it is not parsed again here.
  return { data: body as ResponseOf<E>, etag: response.headers.get('ETag') };
}
