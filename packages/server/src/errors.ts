import { DomainError, type ErrorCode } from '@latchkey/domain';

/**
 * A DomainError answered with a status other than its code's usual one — a stale If-Match is 412
 * with the stable code `conflict`, so clients keep one code per situation.
 */
export class HttpDomainError extends DomainError {
  readonly #status: number;
  constructor(code: ErrorCode, message: string, status: number) {
    super(code, message);
    this.#status = status;
  }
  override get status(): number {
    return this.#status;
  }
}

/** The answer about anything the caller may not see or that does not exist (docs/decisions/0004). */
export function notFound(message = 'Not found'): DomainError {
  return new DomainError('not_found', message);
}

/** spec §4: changes to a closed project's settings, apps and accounts are blocked. */
export function projectClosed(): DomainError {
  return new DomainError('project_closed', 'The project is closed; changes cannot be made while it is disabled');
}

/** No session or bearer token, or it has ended. */
export function signInToContinue(): DomainError {
  return new DomainError('unauthorized', 'Sign in to continue');
}

/** The body of a 404 answered outside the error handler (unknown paths, refused files). */
export const NOT_FOUND_BODY = { error: 'not_found', message: 'Not found' } as const;
