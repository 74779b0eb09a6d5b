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
