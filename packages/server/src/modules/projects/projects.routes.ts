import type { FastifyInstance } from 'fastify';
import { projectsApi } from '@latchkey/domain';
import { ifMatchVersion, setVersionTag } from '../../http/etag.ts';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { ProjectsService } from './projects.service.ts';

/** spec §7 "Projects". Reads send the version as ETag; writes honour If-Match. */
export function registerProjectRoutes(app: FastifyInstance, projects: ProjectsService): void {
  registerEndpoint(app, projectsApi.listAccountProjects, async ({ params, actor }) =>
    projects.listAccountProjects(actor(), params.accountId),
  );

  registerEndpoint(app, projectsApi.createProject, async ({ body, actor }) => projects.createProject(actor(), body));

  registerEndpoint(app, projectsApi.getProject, async ({ params, reply }) => {
    const { value, version } = await projects.getProject(params.project);
    setVersionTag(reply, version);
    return value;
  });

  registerEndpoint(app, projectsApi.updateProject, async ({ params, body, actor, request, reply }) => {
    const { value, version } = await projects.updateProject(actor(), params.project, body, ifMatchVersion(request));
    setVersionTag(reply, version);
    return value;
  });

  registerEndpoint(app, projectsApi.updateProjectMeta, async ({ params, body, actor, request, reply }) => {
    const { value, version } = await projects.updateMeta(actor(), params.project, body, ifMatchVersion(request));
    setVersionTag(reply, version);
    return value;
  });

  registerEndpoint(app, projectsApi.getIssuer, async ({ params, reply }) => {
    const { value, version } = await projects.getIssuer(params.project);
    setVersionTag(reply, version);
    return value;
  });

  registerEndpoint(app, projectsApi.updateIssuer, async ({ params, body, actor, request, reply }) => {
    const { value, version } = await projects.updateIssuer(actor(), params.project, body, ifMatchVersion(request));
    setVersionTag(reply, version);
    return value;
  });
}
