import type { FastifyError, FastifyInstance } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { DomainError, type ErrorBody, type ErrorCode } from '@latchkey/domain';
import { RequestValidationError } from './validation.ts';

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}

const codeForStatus: Record<number, ErrorCode> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict' };

/**
 * The one error handler (DESIGN "How a feature flows"): typed domain errors keep their status and
 * stable code; contract validation failures are 400 validation_failed with the spec's messages per
 * field; framework 4xx (bad JSON, wrong media type, too large) keep their status; anything else is
 * a logged 500 that reveals nothing.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    let status: number;
    let body: ErrorBody;
    if (error instanceof DomainError) {
      status = error.status;
      body = { error: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) };
    } else if (error instanceof RequestValidationError) {
      status = 400;
      body = { error: 'validation_failed', message: 'Invalid request', issues: error.issues };
    } else if (!isResponseSerializationError(error) && (statusOf(error) ?? 500) >= 400 && (statusOf(error) ?? 500) < 500) {
      status = statusOf(error) as number;
      body = { error: codeForStatus[status] ?? 'validation_failed', message: error.message || 'Invalid request' };
    } else {
      request.log.error({ err: error }, 'request failed');
      status = 500;
      body = { error: 'internal', message: 'Something went wrong on our side' };
    }
    if (status >= 500 && error instanceof DomainError) request.log.error({ err: error }, 'request failed');
    void reply.status(status).type('application/json; charset=utf-8').send(body);
  });
}
