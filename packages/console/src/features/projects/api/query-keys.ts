/** The server state of the projects feature cached by react-query: its keys, so invalidations match reads. */
export const projectsKeys = {
  accountProjects: (accountId: string) => ['accounts', accountId, 'projects'] as const,
};
