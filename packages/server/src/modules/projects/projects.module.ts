import { projectsApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { createProjectsService } from './projects.service.ts';
import { createSettingsHistory } from './settings-history.service.ts';

/** spec §7 "Projects". A project and its issuer are versioned contract entries (ETag, If-Match: docs/decisions/0007). */
export default apiModule(projectsApi, {
  services: ({ db, clock, audit, secretBox, config, issuerAddress, ownHostOf }) => ({
    projects: createProjectsService({
      db,
      clock,
      audit,
      projectsPerAccount: config.projectsPerAccount,
      secretBox,
      issuerAddress,
      ownHostOf,
      publicUrl: config.publicUrl,
      serverHost: new URL(config.publicUrl).host,
      issuerDomain: config.issuerDomain,
    }),
    history: createSettingsHistory({ db }),
  }),
  endpoints: ({ projects, history }) => ({
    listAccountProjects: async ({ params, actor }) => projects.listAccountProjects(actor(), params.accountId),
    createProject: async ({ body, actor }) => projects.createProject(actor(), body),
    getProject: async ({ params }) => projects.getProject(params.project),
    updateProject: async ({ params, body, actor, ifMatch }) => projects.updateProject(actor(), params.project, body, ifMatch),
    updateProjectMeta: async ({ params, body, actor, ifMatch }) => projects.updateMeta(actor(), params.project, body, ifMatch),
    listSettingsHistory: async ({ params, query }) => history.list(params.project, query),
    getIssuer: async ({ params }) => projects.getIssuer(params.project),
    updateIssuer: async ({ params, body, actor, ifMatch }) => projects.updateIssuer(actor(), params.project, body, ifMatch),
    getSigningKeys: async ({ params }) => projects.getSigningKeys(params.project),
    rotateSigningKey: async ({ params, actor }) => projects.rotateSigningKey(actor(), params.project),
    moveIssuer: async ({ params, body, actor }) => projects.moveIssuer(actor(), params.project, body),
  }),
});
