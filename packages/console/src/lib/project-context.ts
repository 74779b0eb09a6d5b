import type { Project } from '@latchkey/domain';
import { createContext, useContext } from 'react';
import { useMatches } from 'react-router';

/** The project of the current `/project/{project}/…` route, once loaded (spec §3: the current project). */
export const CurrentProjectContext = createContext<Project | null>(null);

/** The loaded current project; only inside a project route. */
export function useCurrentProject(): Project {
  const project = useContext(CurrentProjectContext);
  if (!project) throw new Error('useCurrentProject is used outside a project route');
  return project;
}

/** The `project` parameter of the current route, from anywhere under the router (layouts included). */
export function useCurrentProjectId(): string | null {
  const matches = useMatches();
  const last = matches[matches.length - 1];
  return last?.params['project'] ?? null;
}
