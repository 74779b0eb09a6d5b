import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The error statuses a call of the API can answer, each with an `ErrorBody` (see `errorStatusesOf`). */
/** Where the API lives on the server: every contract path is under it (spec §7 "a configured API base URL"). */
export const API_BASE_PATH = '/api';

export const API_ERROR_STATUSES = [400, 401, 403, 404, 409, 412, 413, 415, 429] as const;
export type ApiErrorStatus = (typeof API_ERROR_STATUSES)[number];

/** The groups of calls, each with the description the OpenAPI document gives it. */
export const API_TAGS = {
  session: 'Signing in to the console and out of it, the signed-in account, public console settings',
  projects: 'Projects, their settings and their OpenID Connect issuer',
  applications: 'The applications of a project and their client credentials',
  devices: "The passkeys (devices, `mpinId`) of a project's end users",
  webhooks: "A project's webhook endpoints: events pushed as they happen, signed per Standard Webhooks, and their delivery log",
  users: "A project's end users: the people who sign in through its issuer, their sessions, blocking, erasure and their data",
  audit: "A project's audit log: its end users' sign-ins and what accounts changed",
  accounts: "A project's staff accounts (people, by email) and service accounts (tokens for the API)",
  usage: 'Usage counts of a project, or of every project, from the rollups the provider keeps',
  search: 'Finding projects, applications, accounts, devices and audit events by id or name, across the projects the caller can see',
} as const;
export type ApiTag = keyof typeof API_TAGS;

/**
 * One call of spec §7. The server registers its route from this entry (validation, response shape,
 * permission guard, OpenAPI); the console's API client is typed by it.
 */
export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Path under /api, with `:name` parameters. */
  path: string;
  summary: string;
  tag: ApiTag;
  /** `public`: no session; `session`: a signed-in account (cookie session or bearer token). */
  auth: 'public' | 'session';
  /** Any one of these passes (spec §6 check); `<C>` is the current project (see `projectFrom`). */
  permission?: readonly string[];
  /**
   * Where the current project comes from: the `project` path parameter (default), the project of
   * the application named by the `application` path parameter, or the body's `projectId`.
   */
  projectFrom?: 'params.project' | 'params.application' | 'body.projectId';
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /**
   * The media types of a successful answer that is a file rather than JSON (an export streamed as
   * `text/csv` or `application/x-ndjson`); `response` then describes the body as text. Error
   * answers stay JSON `ErrorBody`s.
   */
  produces?: readonly string[];
  /**
   * The media types of a request body that is a file, handed to the handler as a stream (an import,
   * read as it arrives, never held whole); `body` is then absent.
   */
  consumes?: readonly string[];
  /**
   * The answer is a versioned resource (docs/decisions/0007): its version goes out as a strong
   * ETag, and a write that updates it honours If-Match — a stale one is 412. The server's handler
   * answers the value with its version; no route sets the header or reads If-Match itself.
   */
  versioned?: boolean;
  /** Status of a successful answer; 200 unless said (202: taken, finished in the background). */
  status?: 200 | 201 | 202 | 204;
  /**
   * Error statuses this call answers that the rest of the entry does not tell (`errorStatusesOf`
   * derives the others), e.g. 429 on a rate-limited call.
   */
  alsoAnswers?: readonly ApiErrorStatus[];
}

export function endpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: Endpoint<P, Q, B, R>,
): Endpoint<P, Q, B, R> {
  return e;
}

export type ParamsOf<E> = E extends Endpoint<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.input<P> : never;
export type QueryOf<E> = E extends Endpoint<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type BodyOf<E> = E extends Endpoint<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type ResponseOf<E> = E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** `/projects/:project` with `{ project: 'p1' }` gives `/projects/p1` (each value URI-encoded). */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
