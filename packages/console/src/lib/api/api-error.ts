import type { ErrorCode, FieldIssue } from '@latchkey/domain';

/** The codes the client gives a call that got no usable answer from the API. */
export const CLIENT_ERROR_CODES = ['network_error', 'unexpected_response'] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** Codes of the API (domain `ERROR_CODES`) plus the client's own: each has its message in the catalogues (`apiErrors.codes`). */
export type ApiErrorCode = ErrorCode | ClientErrorCode;

/** An error answer of the API, or a call that got no usable answer at all. */
export class ApiError extends Error {
  readonly status: number;
  /**
   * The answer's code; one this console does not know (a server newer than the open tab) is kept as
   * the server sent it, with the server's message, which is then what the console shows.
   */
  readonly code: ApiErrorCode | (string & {});
  readonly issues: FieldIssue[];

  constructor(status: number, code: ApiErrorCode | (string & {}), message: string, issues: FieldIssue[] = []) {
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
