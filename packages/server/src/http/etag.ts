import type { FastifyReply, FastifyRequest } from 'fastify';

/** The version of a resource as a strong ETag. */
export function setVersionTag(reply: FastifyReply, version: number): void {
  reply.header('ETag', `"${version}"`);
}

/**
 * The version an If-Match header asks for: null when absent or `*` (no precondition); an
 * unreadable value never matches (-1).
 */
export function ifMatchVersion(request: FastifyRequest): number | null {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '*') return null;
  const m = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  return m ? Number(m[1]) : -1;
}
