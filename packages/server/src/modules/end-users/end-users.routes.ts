import type { FastifyInstance } from 'fastify';
import { endUsersApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { EndUserListService } from './end-user-list.ts';
import type { EndUsersService } from './end-users.service.ts';

/** Issue 24 "Users in the console". */
export function registerEndUserRoutes(app: FastifyInstance, users: EndUsersService, list: EndUserListService): void {
  registerEndpoint(app, endUsersApi.listEndUsers, async ({ params, query }) => list.list(params.project, query));
  registerEndpoint(app, endUsersApi.exportEndUsers, async ({ params, query }) => list.export(params.project, query));
  registerEndpoint(app, endUsersApi.getEndUser, async ({ params }) => users.get(params.project, params.user));
  registerEndpoint(app, endUsersApi.exportEndUserData, async ({ params }) => users.exportData(params.project, params.user));
  registerEndpoint(app, endUsersApi.blockEndUser, async ({ params, actor }) => users.block(actor(), params.project, params.user));
  registerEndpoint(app, endUsersApi.unblockEndUser, async ({ params, actor }) => users.unblock(actor(), params.project, params.user));
  registerEndpoint(app, endUsersApi.endEndUserSessions, async ({ params, actor }) => users.endSessions(actor(), params.project, params.user));
  registerEndpoint(app, endUsersApi.endEndUserSession, async ({ params, actor }) =>
    users.endSessions(actor(), params.project, params.user, params.session),
  );
  registerEndpoint(app, endUsersApi.deleteEndUser, async ({ params, actor }) => users.erase(actor(), params.project, params.user));
}
