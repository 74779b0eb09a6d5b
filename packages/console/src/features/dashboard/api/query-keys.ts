/** The server state of the dashboard feature cached by react-query: its keys, so invalidations match reads. */
export const dashboardKeys = {
  /** A project's usage (the dashboard), whatever its range. */
  usage: (projectId: string) => ['projects', projectId, 'usage'] as const,
  usageQuery: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'usage', query] as const,
  /** Usage of every project (the global dashboard). */
  globalUsage: (query: Record<string, unknown>) => ['usage', query] as const,
};
