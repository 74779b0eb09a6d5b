import { describe, expect, it } from 'vitest';
import {
  API_ERROR_STATUSES,
  api,
  DomainError,
  ERROR_CODES,
  errorBodySchema,
  errorCodesOf,
  errorCodesOfStatus,
  errorStatus,
  errorStatusMeaning,
  isErrorCode,
  type Endpoint,
} from '../src/index.ts';

// issue 35: one list of error codes; the contract says which of them each call answers.

const calls: [string, Endpoint][] = Object.entries(api);

describe('the error codes of the API', () => {
  it('are the codes an ErrorBody carries', () => {
    for (const code of ERROR_CODES) expect(errorBodySchema.shape.error.safeParse(code).success, code).toBe(true);
    expect(errorBodySchema.shape.error.safeParse('teapot').success).toBe(false);
    expect(errorBodySchema.shape.error.options).toEqual([...ERROR_CODES]);
  });

  it('each have the status a DomainError of theirs is answered with', () => {
    expect(Object.keys(errorStatus).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(new DomainError(code, 'x').status, code).toBe(errorStatus[code]);
  });

  it.each([
    ['conflict', true],
    ['internal', true],
    ['network_error', false],
    ['toString', false],
    [409, false],
  ])('isErrorCode(%j) is %s', (value, expected) => {
    expect(isErrorCode(value)).toBe(expected);
  });

  it('are each listed under their usual status (internal is the 500 no status list carries)', () => {
    for (const code of ERROR_CODES) {
      const status = errorStatus[code];
      if (code === 'internal') expect(status).toBe(500);
      else expect(errorCodesOfStatus[status as keyof typeof errorCodesOfStatus], code).toContain(code);
    }
  });

  it.each(API_ERROR_STATUSES)('%i: the description of the status names exactly the codes it carries', (status) => {
    const named = new Set([...errorStatusMeaning[status].matchAll(/`(\w+)`/g)].map((m) => m[1]).filter(isErrorCode));
    expect([...named].sort()).toEqual([...errorCodesOfStatus[status]].sort());
  });

  it('are each answered by some call of the contract, so none is listed that no caller can meet', () => {
    const answered = new Set(calls.flatMap(([, endpoint]) => errorCodesOf(endpoint)));
    expect([...answered].sort()).toEqual([...ERROR_CODES].sort());
  });
});

describe('errorCodesOf', () => {
  it('gives every call internal and validation_failed (its path, query and headers are always checked)', () => {
    for (const [name, endpoint] of calls) expect(errorCodesOf(endpoint), name).toEqual(expect.arrayContaining(['validation_failed', 'internal']));
  });

  it.each([
    ['getConsoleConfig', ['validation_failed', 'login_failed', 'internal']],
    [
      'getProject',
      ['validation_failed', 'login_failed', 'unauthorized', 'forbidden', 'not_found', 'xsrf_failed', 'registration_disabled', 'internal'],
    ],
    [
      'updateProject',
      [
        'validation_failed',
        'login_failed',
        'unauthorized',
        'forbidden',
        'not_found',
        'project_closed',
        'conflict',
        'registration_disabled',
        'xsrf_failed',
        'internal',
      ],
    ],
  ] as const)('%s answers %j', (name, codes) => {
    expect(errorCodesOf(api[name]).sort()).toEqual([...codes].sort());
  });

  it('gives a 412 (a stale If-Match) the code conflict even on a call that is not a signed-in write', () => {
    const stale: Endpoint = { ...api.getConsoleConfig, alsoAnswers: [412] };
    expect(errorCodesOf(stale)).toContain('conflict');
    expect(errorCodesOf(api.getConsoleConfig)).not.toContain('conflict');
  });
});
