import type { FastifyInstance } from 'fastify';
import { usageApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { UsageService } from './usage.service.ts';

/** spec §7 "Usage", and the dashboard over every project (issue 10). */
export function registerUsageRoutes(app: FastifyInstance, usage: UsageService): void {
  registerEndpoint(app, usageApi.getUsage, async ({ params, query }) => usage.project(params.project, query));
  registerEndpoint(app, usageApi.getGlobalUsage, async ({ query }) => usage.global(query));
}
