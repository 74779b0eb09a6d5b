import type { FieldIssue } from './validation/issues.ts';

/**
 * The stable error codes of the API, the one list of them (issue 35): the server's `DomainError`s,
 * the contract's `ErrorBody` and the console's messages all follow it. A code added here has no
 * HTTP status and no text in the console until both are written (a compile error), and the
 * console's catalogue test asks for its message in every language.
 */
export const ERROR_CODES = [
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
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The HTTP status each code is usually answered with; one handler turns them into answers. */
export const errorStatus: Readonly<Record<ErrorCode, number>> = {
  validation_failed: 400,
  login_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  project_closed: 409,
  conflict: 409,
  registration_disabled: 403,
  xsrf_failed: 403,
  internal: 500,
};

/** The body of every error answer. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  issues?: FieldIssue[];
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly issues: FieldIssue[] | undefined;
  constructor(code: ErrorCode, message: string, issues?: FieldIssue[]) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.issues = issues;
  }
  get status(): number {
    return errorStatus[this.code];
  }
}
