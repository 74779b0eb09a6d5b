import { z } from 'zod';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../errors.ts';
import type { FieldIssue } from '../validation/issues.ts';
import { API_ERROR_STATUSES, type ApiErrorStatus, type Endpoint } from './endpoint.ts';

const fieldIssueSchema = z.object({
  field: z.string().meta({ description: 'Dotted path of the field, e.g. `name` or `loginOptions.primary`; empty for the whole body' }),
  code: z.string().meta({ description: 'Message key, e.g. `validation.required`' }),
  message: z.string().meta({ description: 'English text of the message' }),
});

/**
 * The body of every error answer, as a schema: `ErrorBody` in the OpenAPI document (the id names
 * the component; zod's registry is global, so the server's document finds it there).
 */
export const errorBodySchema = z
  .object({
    error: z.enum(ERROR_CODES).meta({ description: 'Stable error code' }),
    message: z.string().meta({ description: 'English text for a person' }),
    issues: z.array(fieldIssueSchema).optional().meta({ description: 'One entry per rejected field' }),
  })
  .meta({ id: 'ErrorBody', description: 'The body of every error answer' });

// The schema and the `ErrorBody` type the error handler builds must stay the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.output<typeof errorBodySchema>, ErrorBody> & Same<z.output<typeof fieldIssueSchema>, FieldIssue> = true;
void sameShape;

/** What each error status means to a caller, with the codes it carries (the OpenAPI response descriptions). */
export const errorStatusMeaning: Record<ApiErrorStatus, string> = {
  400:
    '`validation_failed`: the request is invalid (a control character or lone surrogate in the path, query or a header included); ' +
    '`issues` names each rejected field. `login_failed`: the sign-in cannot be completed; start again.',
  401: '`unauthorized`: no session or bearer token, or it has ended; sign in again.',
  403:
    '`forbidden`: the caller lacks the permission this needs, the account is inactive, or another site made the browser send the request; ' +
    '`xsrf_failed`: an unsafe call on a cookie session without the matching X-XSRF-TOKEN header; ' +
    '`registration_disabled`: this server accepts no new accounts.',
  404: '`not_found`: no such project, application or keys, or a project the caller holds no permission on (ids do not leak).',
  409: '`project_closed`: the project is closed and refuses changes; `conflict`: the change clashes with the current state (e.g. an id in use, keys that exist already, a disabled application).',
  412: '`conflict`: the `If-Match` header names a version that is no longer current; read the resource again and retry.',
  413: '`validation_failed`: the body is larger than the server takes (1 MiB; a file to import: 1 GiB).',
  415: '`validation_failed`: the body is not `application/json` (a file to import: not one of its media types).',
  429: 'Too many attempts from this client or for this address; wait, then try again.',
};

/**
 * The codes each error status carries (the `code`s `errorStatusMeaning` names). 412, 413 and 415
 * carry a code whose usual status is another: a stale If-Match is a `conflict`, a body too large or
 * not JSON a `validation_failed`. No call is rate limited today, so 429 carries none yet: the code
 * of the first that is goes here, and the console's catalogue test then asks for its messages.
 */
export const errorCodesOfStatus: Readonly<Record<ApiErrorStatus, readonly ErrorCode[]>> = {
  400: ['validation_failed', 'login_failed'],
  401: ['unauthorized'],
  403: ['forbidden', 'xsrf_failed', 'registration_disabled'],
  404: ['not_found'],
  409: ['project_closed', 'conflict'],
  412: ['conflict'],
  413: ['validation_failed'],
  415: ['validation_failed'],
  429: [],
};

/**
 * The error codes a call can answer: those of its error statuses (`errorStatusesOf`), and
 * `internal` (500), which every call answers when the server fails.
 */
export function errorCodesOf(endpoint: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>(errorStatusesOf(endpoint).flatMap((status) => errorCodesOfStatus[status]));
  codes.add('internal');
  return ERROR_CODES.filter((code) => codes.has(code));
}

/**
 * The error statuses a call can answer, derived from its contract entry (each also answers 500
 * `internal` when the server fails):
 * - 400 always: every request's path, query and headers are checked before any route, then the
 *   entry's params, query and body;
 * - 401 and 403 when it needs a signed-in caller (no session; XSRF or a missing permission);
 * - 404 when it has a required permission and names something (a path parameter, or a project in the body): the guard answers 404 about a project or application the
 *   caller may not see or that does not exist (docs/decisions/0004);
 * - 409 when a signed-in caller writes: a closed project refuses changes, and conflicts with the
 *   stored state;
 * - 412 on PUT: whole-document writes honour If-Match (docs/decisions/0007);
 * - 413 and 415 when it takes a body: too large, or not JSON;
 * - and whatever the entry lists in `alsoAnswers` (403 on a public call that can refuse, 412 on a
 *   POST that honours If-Match, 429 on a call that is rate limited — none in the API today: the
 *   sign-in limits answer on the provider's own pages under /idp).
 */
export function errorStatusesOf(endpoint: Endpoint): ApiErrorStatus[] {
  const statuses = new Set<ApiErrorStatus>([400, ...(endpoint.alsoAnswers ?? [])]);
  if (endpoint.auth === 'session') {
    statuses.add(401).add(403);
    if (endpoint.method !== 'GET') statuses.add(409);
  }
  // Something named that may not be there (or not be shown): a path parameter, or a project in the body.
  if (endpoint.permission && (/\/:[A-Za-z]/.test(endpoint.path) || endpoint.projectFrom === 'body.projectId')) statuses.add(404);
  if (endpoint.method === 'PUT') statuses.add(412);
  if (endpoint.body) statuses.add(413).add(415);
  // A file body is read as it comes, up to its bound (413); another media type is refused.
  if (endpoint.consumes) statuses.add(413).add(415);
  return API_ERROR_STATUSES.filter((status) => statuses.has(status));
}
