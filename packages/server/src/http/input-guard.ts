import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, isCleanText, validationText, XSRF_COOKIE, type FieldIssue } from '@latchkey/domain';

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
      if (typeof v === 'string' && !isCleanLine(v)) return `header.${name}`;
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

/**
 * One guard for the path, query string and headers of every request — the API, the provider and
 * the console alike: a NUL byte, another control character or a lone UTF-16 surrogate is a 400
 * that names where it was, before any route or database sees it. Bodies are checked by the
 * domain's text rule (`cleanString`, `text`) in each contract schema.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const field = findUncleanInput(request.raw.url ?? '/', request.headers);
    if (field !== null) throw new DomainError('validation_failed', 'Invalid request', [issue(field)]);
  });
}

/**
 * Fastify's own refusals before any hook runs (a path that is not valid percent-encoded UTF-8):
 * the same 400 body as the guard's, instead of the framework's default shape.
 */
export function answerFrameworkError(error: Error & { statusCode?: number }, _request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(
      status === 400
        ? { error: 'validation_failed', message: 'Invalid request', issues: [issue('path')] }
        : { error: 'not_found', message: 'Not found' },
    );
}
