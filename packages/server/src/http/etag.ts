import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpDomainError } from '../errors.ts';

/** A value with the version it was read at (sent as the ETag; If-Match compares against it). */
export interface Versioned<T> {
  value: T;
  version: number;
}

/**
 * Optimistic concurrency (docs/decisions/0007): a write based on an older read must not silently
 * win. `what` names the resource in the message ("application", "project", …).
 */
export function checkVersion(current: number, ifMatch: number | null, what: string): void {
  if (ifMatch !== null && ifMatch !== current) {
    throw new HttpDomainError('conflict', `The ${what} was changed by someone else; reload and try again`, 412);
  }
}

/** The version of a resource as a strong ETag. */
export function setVersionTag(reply: FastifyReply, version: number): void {
  reply.header('ETag', `"${version}"`);
}

/** Answers a versioned value: its version as the ETag, the value as the body. */
export function sendVersioned<T>(reply: FastifyReply, versioned: Versioned<T>): T {
  setVersionTag(reply, versioned.version);
  return versioned.value;
}

/**
 * The version an If-Match header asks for: null when absent or `*` (no precondition). If-Match
 * compares strongly (RFC 9110 §13.1.1): a weak tag (`W/"3"`), a list or an unreadable value never
 * matches (-1), so the write is refused rather than made on a guess.
 */
export function ifMatchVersion(request: FastifyRequest): number | null {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '*') return null;
  const m = /^\s*"(\d{1,9})"\s*$/.exec(header);
  return m ? Number(m[1]) : -1;
}
