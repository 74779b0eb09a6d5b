/** Keys of the server state cached by react-query, in one place so invalidations match reads. */
export const queryKeys = {
  account: ['account'] as const,
  consoleConfig: ['console-config'] as const,
  accountProjects: (accountId: string) => ['accounts', accountId, 'projects'] as const,
  project: (projectId: string) => ['projects', projectId] as const,
};
