import { usageApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { createUsageService } from './usage.service.ts';

/** spec §7 "Usage", and the dashboard over every project (issue 10); read from the replica when there is one (docs/decisions/0035). */
export default apiModule(usageApi, {
  services: ({ readDb, clock }) => createUsageService({ db: readDb, clock }),
  endpoints: (usage) => ({
    getUsage: async ({ params, query }) => usage.project(params.project, query),
    getEnrollmentFunnel: async ({ params, query }) => usage.enrollment(params.project, query),
    getGlobalUsage: async ({ query }) => usage.global(query),
  }),
});
