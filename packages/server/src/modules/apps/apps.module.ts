import { appsApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { findIssuer } from '../projects/projects.repository.ts';
import { createAppsService } from './apps.service.ts';

/**
 * spec §7 "Applications". An application and its keys are versioned contract entries: read with
 * their version as the ETag, written under If-Match (docs/decisions/0007).
 */
export default apiModule(appsApi, {
  services: ({ db, clock, audit, secretBox, issuerAddress, refusedHost }) =>
    createAppsService({
      db,
      clock,
      audit,
      secretBox,
      issuerAddress: async (tx, projectId) =>
        issuerAddress(projectId, (await findIssuer(tx, projectId))?.hosts ?? { customOrigin: null, ownOrigin: null }),
      refusedHost,
    }),
  endpoints: (apps) => ({
    listApps: async ({ params, query }) => apps.listApps(params.project, query),
    createApp: async ({ body, actor }) => apps.createApp(actor(), body),
    getApp: async ({ params }) => apps.getApp(params.application),
    updateApp: async ({ params, body, actor, ifMatch }) => apps.updateApp(actor(), params.application, body, ifMatch),
    createAppKeys: async ({ params, body, actor }) => apps.createKeys(actor(), params.application, body),
    getAppKeys: async ({ params }) => apps.getKeys(params.application),
    updateAppKeys: async ({ params, body, actor, ifMatch }) => apps.updateKeys(actor(), params.application, body, ifMatch),
    generateAppKeys: async ({ params, body, actor, ifMatch }) => apps.generateKeys(actor(), params.application, body, ifMatch),
  }),
});
