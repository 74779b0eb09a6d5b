import type { FastifyInstance } from 'fastify';
import { searchApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { SearchService } from './search.service.ts';

/** Issue 13: the console's command palette. */
export function registerSearchRoutes(app: FastifyInstance, search: SearchService): void {
  registerEndpoint(app, searchApi.search, async ({ query, actor }) => search.search(actor(), query));
}
