import type { FastifyRequest } from 'fastify';
import { DomainError } from '@latchkey/domain';

/**
 * Refuses (403 forbidden) a request another site made the browser send: Fetch Metadata says
 * `cross-site` or `same-site` (a sibling subdomain is another site to us), or the Origin header
 * names an origin other than PUBLIC_URL's. A request without either (an old browser, curl) passes:
 * browsers that send neither cannot be told apart from a person typing the address.
 */
export function assertNotCrossSite(request: FastifyRequest, publicUrl: string): void {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    throw new DomainError('forbidden', 'This request came from another site');
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== new URL(publicUrl).origin) {
    throw new DomainError('forbidden', 'This request came from another site');
  }
}
