import type { FastifyInstance } from 'fastify';
import { projectsApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { ProjectsService } from './projects.service.ts';
import type { SettingsHistoryService } from './settings-history.service.ts';

/** spec §7 "Projects". A project and its issuer are versioned contract entries (ETag, If-Match: docs/decisions/0007). */
export function registerProjectRoutes(app: FastifyInstance, projects: ProjectsService, history: SettingsHistoryService): void {
  registerEndpoint(app, projectsApi.listAccountProjects, async ({ params, actor }) => projects.listAccountProjects(actor(), params.accountId));

  registerEndpoint(app, projectsApi.createProject, async ({ body, actor }) => projects.createProject(actor(), body));

  registerEndpoint(app, projectsApi.getProject, async ({ params }) => projects.getProject(params.project));

  registerEndpoint(app, projectsApi.updateProject, async ({ params, body, actor, ifMatch }) =>
    projects.updateProject(actor(), params.project, body, ifMatch),
  );

  registerEndpoint(app, projectsApi.updateProjectMeta, async ({ params, body, actor, ifMatch }) =>
    projects.updateMeta(actor(), params.project, body, ifMatch),
  );

  registerEndpoint(app, projectsApi.getIssuer, async ({ params }) => projects.getIssuer(params.project));

  registerEndpoint(app, projectsApi.updateIssuer, async ({ params, body, actor, ifMatch }) =>
    projects.updateIssuer(actor(), params.project, body, ifMatch),
  );
  registerEndpoint(app, projectsApi.getSigningKeys, async ({ params }) => projects.getSigningKeys(params.project));
  registerEndpoint(app, projectsApi.rotateSigningKey, async ({ params, actor }) => projects.rotateSigningKey(actor(), params.project));

  registerEndpoint(app, projectsApi.listSettingsHistory, async ({ params, query }) => history.list(params.project, query));
}
