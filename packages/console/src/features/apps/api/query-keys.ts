/** The server state of the apps feature cached by react-query: its keys, so invalidations match reads. */
export const appsKeys = {
  /** Every list of a project's applications, whatever its filters and page. */
  apps: (projectId: string) => ['projects', projectId, 'apps'] as const,
  appList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'apps', query] as const,
  app: (applicationId: string) => ['apps', applicationId] as const,
  appKeys: (applicationId: string) => ['apps', applicationId, 'keys'] as const,
};
