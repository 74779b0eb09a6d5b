import type { ErrorCode, FieldIssue } from '@latchkey/domain';

/** Codes of the API (domain `errorStatus`) plus the two the client gives when no API answer came. */
export type ApiErrorCode = ErrorCode | 'network_error' | 'unexpected_response';

/** An error answer of the API, or a call that got no usable answer at all. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly issues: FieldIssue[];

  constructor(status: number, code: ApiErrorCode, message: string, issues: FieldIssue[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
