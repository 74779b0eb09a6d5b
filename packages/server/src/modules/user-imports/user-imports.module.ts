import { userImportsApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { migrationExport } from './user-export.ts';
import { createUserImports } from './user-import.service.ts';

/** Issue 37 "Migration": users imported from a file, and exported with their passkeys (docs/decisions/0052). */
export default apiModule(userImportsApi, {
  services: ({ db, clock, audit, config, userImportQueued }) => ({
    imports: createUserImports({ db, clock, audit, maxBytes: config.importMaxBytes, queued: userImportQueued }),
    db,
  }),
  endpoints: ({ imports, db }) => ({
    importEndUsers: async ({ params, query, upload, actor }) => imports.start(actor(), params.project, upload(), query),
    listUserImports: async ({ params }) => imports.list(params.project),
    getUserImport: async ({ params }) => imports.get(params.project, params.import),
    exportEndUsersForMigration: async ({ params }) => migrationExport(db, params.project),
  }),
});
