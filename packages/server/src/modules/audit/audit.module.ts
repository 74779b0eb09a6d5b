import { auditApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { createAuditListService } from './audit-list.ts';

/** spec §7 "Audit": read from the replica when there is one (docs/decisions/0035). */
export default apiModule(auditApi, {
  services: ({ readDb, clock, secretBox }) => createAuditListService({ db: readDb, clock, secretBox }),
  endpoints: (auditList) => ({
    listAuditEvents: async ({ params, query }) => auditList.list(params.project, query),
    exportAuditEvents: async ({ params, query }) => auditList.export(params.project, query),
  }),
});
