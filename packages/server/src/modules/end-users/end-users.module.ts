import { endUsersApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { createEndUserListService } from './end-user-list.ts';
import { createEndUsersService } from './end-users.service.ts';

/** Issue 24 "Users in the console". */
export default apiModule(endUsersApi, {
  services: ({ db, clock, audit, secretBox, logoutNoticesQueued, issuerAddress }) => ({
    users: createEndUsersService({ db, clock, audit, secretBox, logoutNoticesQueued, issuerAddress }),
    list: createEndUserListService({ db, clock }),
  }),
  endpoints: ({ users, list }) => ({
    listEndUsers: async ({ params, query }) => list.list(params.project, query),
    exportEndUsers: async ({ params, query }) => list.export(params.project, query),
    getEndUser: async ({ params }) => users.get(params.project, params.user),
    exportEndUserData: async ({ params }) => users.exportData(params.project, params.user),
    blockEndUser: async ({ params, actor }) => users.block(actor(), params.project, params.user),
    unblockEndUser: async ({ params, actor }) => users.unblock(actor(), params.project, params.user),
    endEndUserSessions: async ({ params, actor }) => users.endSessions(actor(), params.project, params.user),
    endEndUserSession: async ({ params, actor }) => users.endSessions(actor(), params.project, params.user, params.session),
    createReenrollmentLink: async ({ params, actor }) => users.createReenrollmentLink(actor(), params.project, params.user),
    deleteEndUser: async ({ params, actor }) => users.erase(actor(), params.project, params.user),
  }),
});
