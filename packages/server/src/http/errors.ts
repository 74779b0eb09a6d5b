import type { FastifyInstance } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { DomainError, type ErrorBody, type ErrorCode } from '@latchkey/domain';
import { RequestValidationError } from './validation.ts';

const codeForStatus: Partial<Record<number, ErrorCode>> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict' };

/** A framework client error (bad JSON, wrong media type, body too large): its 4xx status, else null. */
function clientErrorStatus(error: Error): number | null {
  if (isResponseSerializationError(error)) return null;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

export function toErrorAnswer(error: Error): { status: number; body: ErrorBody } {
  if (error instanceof DomainError) {
    return { status: error.status, body: { error: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) } };
  }
  if (error instanceof RequestValidationError) {
    return { status: 400, body: { error: 'validation_failed', message: 'Invalid request', issues: error.issues } };
  }
  const status = clientErrorStatus(error);
  if (status !== null) {
    return { status, body: { error: codeForStatus[status] ?? 'validation_failed', message: error.message || 'Invalid request' } };
  }
  return { status: 500, body: { error: 'internal', message: 'Something went wrong on our side' } };
}

/**
 * The one error handler (DESIGN "How a feature flows"): typed domain errors keep their status and
 * stable code; contract validation failures are 400 validation_failed with the spec's messages per
 * field; framework 4xx keep their status; anything else is a logged 500 that reveals nothing.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: Error, request, reply) => {
    const { status, body } = toErrorAnswer(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    void reply.status(status).type('application/json; charset=utf-8').send(body);
  });
}
