/** Keys of the server state cached by react-query, in one place so invalidations match reads. */
export const queryKeys = {
  account: ['account'] as const,
  /** The command palette's answers (issue 13), by the query and the project it ranks first. */
  search: (q: string, projectId: string | null) => ['search', q, projectId] as const,
  consoleConfig: ['console-config'] as const,
  accountProjects: (accountId: string) => ['accounts', accountId, 'projects'] as const,
  project: (projectId: string) => ['projects', projectId] as const,
  /** The project as the settings pages read it: with its ETag. */
  projectDocument: (projectId: string) => ['projects', projectId, 'document'] as const,
  issuer: (projectId: string) => ['projects', projectId, 'issuer'] as const,
  /** The settings changes of a project (the settings pages' history). */
  settingsHistory: (projectId: string) => ['projects', projectId, 'settings-history'] as const,
  /** Every list of a project's applications, whatever its filters and page. */
  apps: (projectId: string) => ['projects', projectId, 'apps'] as const,
  appList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'apps', query] as const,
  app: (applicationId: string) => ['apps', applicationId] as const,
  appKeys: (applicationId: string) => ['apps', applicationId, 'keys'] as const,
  /** Every page of a project's devices list, whatever its filters. */
  devices: (projectId: string) => ['projects', projectId, 'devices'] as const,
  deviceList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'devices', query] as const,
  /** Every page of a project's audit log, whatever its filters. */
  auditEvents: (projectId: string) => ['projects', projectId, 'audit'] as const,
  auditList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'audit', query] as const,
  /** Every list of a project's accounts, whatever its filters. */
  accounts: (projectId: string) => ['projects', projectId, 'accounts'] as const,
  accountList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'accounts', query] as const,
  /** One account of a project (not the signed-in account: that is `account`). */
  projectAccount: (projectId: string, accountId: string) => ['projects', projectId, 'accounts', 'one', accountId] as const,
  /** A project's usage (the dashboard), whatever its range. */
  usage: (projectId: string) => ['projects', projectId, 'usage'] as const,
  usageQuery: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'usage', query] as const,
  /** Usage of every project (the global dashboard). */
  globalUsage: (query: Record<string, unknown>) => ['usage', query] as const,
};
