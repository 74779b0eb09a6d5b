import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, isCleanText, validationText, XSRF_COOKIE, type FieldIssue } from '@latchkey/domain';
import { toErrorAnswer } from './errors.ts';

/** Decodes one percent-encoded component; null when it is not valid percent-encoded UTF-8. */
function decodeComponent(raw: string, plusIsSpace: boolean): string | null {
  try {
    return decodeURIComponent(plusIsSpace ? raw.replaceAll('+', ' ') : raw);
  } catch {
    return null;
  }
}

/** Clean text on one line: the domain's text rule, and no tab or line break (never meaningful in a URL or header). */
function isCleanLine(value: string): boolean {
  return isCleanText(value) && !/[\t\n\r]/.test(value);
}

/** The console's and the built-in provider's cookies (`lk_…`) and the XSRF cookie. */
function isOurCookie(name: string): boolean {
  return name.startsWith('lk_') || name === XSRF_COOKIE;
}

function issue(field: string): FieldIssue {
  return { field, code: 'validation.invalid_characters', message: validationText('validation.invalid_characters') };
}

/**
 * The first place in the request line or headers that holds a control character (tab and line
 * breaks included) or a lone surrogate once decoded, or that is not valid percent-encoded UTF-8: `path`, `query.{name}` or
 * `header.{name}`. Null when everything is clean.
 */
export function findUncleanInput(url: string, headers: FastifyRequest['headers']): string | null {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const segment of path.split('/')) {
    const decoded = decodeComponent(segment, false);
    if (decoded === null || !isCleanLine(decoded)) return 'path';
  }
  if (queryAt !== -1) {
    for (const pair of url.slice(queryAt + 1).split('&')) {
      const equals = pair.indexOf('=');
      const name = decodeComponent(equals === -1 ? pair : pair.slice(0, equals), true);
      const value = equals === -1 ? '' : decodeComponent(pair.slice(equals + 1), true);
      if (name === null || !isCleanLine(name)) return 'query';
      if (value === null || !isCleanLine(value)) return `query.${name}`;
    }
  }
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      // A tab is legal inside a header value (RFC 9110 §5.5); line breaks and other controls are not.
      if (typeof v === 'string' && (!isCleanText(v) || /[\r\n]/.test(v))) return `header.${name}`;
    }
  }
  // Our cookies' values are percent-decoded before use: check them decoded too. Other cookies on
  // the same host (another app's) are not ours to judge.
  for (const part of (headers.cookie ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals === -1 || !isOurCookie(part.slice(0, equals).trim())) continue;
    const decoded = decodeComponent(part.slice(equals + 1).trim(), false);
    if (decoded === null || !isCleanLine(decoded)) return 'header.cookie';
  }
  return null;
}

/** `bytes` as UTF-8, or null when they are not valid UTF-8 (a decoder would put U+FFFD in silently). */
export function decodeUtf8Strictly(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The first field of a parsed form whose name or value is not clean text by the domain's rule (the
 * one the API's contract schemas apply to a JSON body's strings): `body.{name}`, or `body` for a
 * name. Null when every field is clean, or when the body is not an object.
 */
export function findUncleanField(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  for (const [name, value] of Object.entries(body)) {
    if (!isCleanText(name)) return 'body';
    if (typeof value === 'string' && !isCleanText(value)) return `body.${name}`;
  }
  return null;
}

/**
 * The guard of the pages that take forms (`scope`): a field holding a NUL byte, another control
 * character or a lone surrogate is the same 400 as the API's, before any route reads it. (A lone
 * surrogate's bytes are not UTF-8: the form parser refuses them before this, also with a 400.)
 */
export function guardFormFields(scope: FastifyInstance): void {
  scope.addHook('preValidation', async (request) => {
    const field = findUncleanField(request.body);
    if (field !== null) throw new DomainError('validation_failed', 'Invalid request', [issue(field)]);
  });
}

/** The 400 of a body that is not valid UTF-8. */
export function invalidBodyEncoding(): DomainError {
  return new DomainError('validation_failed', 'Invalid request', [issue('body')]);
}

/**
 * One guard for the path, query string and headers of every request — the API, the provider and
 * the console alike: a NUL byte, another control character or a lone UTF-16 surrogate is a 400
 * that names where it was, before any route or database sees it. JSON bodies are decoded as strict
 * UTF-8 (bytes that are not UTF-8 are a 400, never U+FFFD) and parsed by Fastify's own safe parser;
 * their strings are checked by the domain's text rule (`cleanString`, `text`) in each contract schema.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const field = findUncleanInput(request.raw.url ?? '/', request.headers);
    if (field !== null) throw new DomainError('validation_failed', 'Invalid request', [issue(field)]);
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = decodeUtf8Strictly(body as Buffer);
    if (text === null) done(invalidBodyEncoding(), undefined);
    else parseJson(request, text, done);
  });
}

/**
 * Fastify's own refusals before any hook runs — a path that is not valid percent-encoded UTF-8, or a
 * path segment longer than any id (414 by default): the same 400 as the guard's, naming the path,
 * instead of the framework's own shape (which echoes the URL). A failure of ours stays a 500.
 */
export function answerFrameworkError(error: Error & { statusCode?: number }, _request: FastifyRequest, reply: FastifyReply): void {
  const refused = typeof error.statusCode === 'number' && error.statusCode < 500;
  const { status, body } = refused
    ? { status: 400, body: { error: 'validation_failed' as const, message: 'Invalid request', issues: [issue('path')] } }
    : toErrorAnswer(error);
  void reply.status(status).type('application/json; charset=utf-8').send(body);
}
