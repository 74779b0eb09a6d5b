import { createProjectCalls } from './project.ts';
import { createProjectIssuerCalls, type ProjectIssuerDeps } from './project-issuer.ts';
import { createProjectMetaCalls } from './project-meta.ts';
import { createProjectSettingsCalls } from './project-settings.ts';

export interface ProjectsServiceDeps extends ProjectIssuerDeps {
  /** PUBLIC_URL's host: the one host no project may claim. */
  serverHost: string;
  /** docs/decisions/0047: the domain of the projects' own hosts (no custom domain under it), or null. */
  issuerDomain: string | null;
  /** How many projects an account without a global permission may create (config PROJECTS_PER_ACCOUNT). */
  projectsPerAccount: number;
  /** Seals the push service-account private key before it is stored (issue 7: secrets at rest), and the issuer's signing keys (issue 22). */
  secretBox: ProjectIssuerDeps['secretBox'];
}

/**
 * spec §7 "Projects": the project itself (project.ts), its settings (project-settings.ts), its
 * closing and reopening (project-meta.ts), its issuer and signing keys (project-issuer.ts).
 */
export function createProjectsService(deps: ProjectsServiceDeps) {
  return {
    ...createProjectCalls(deps),
    ...createProjectSettingsCalls(deps),
    ...createProjectMetaCalls(deps),
    ...createProjectIssuerCalls(deps),
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
