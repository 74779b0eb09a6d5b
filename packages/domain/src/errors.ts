import type { FieldIssue } from './validation/issues.ts';

/** Stable error codes of the API; one handler turns them into HTTP statuses. */
export const errorStatus = {
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
} as const;

export type ErrorCode = keyof typeof errorStatus;

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
