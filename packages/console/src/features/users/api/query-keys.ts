/** The server state of the users feature cached by react-query: its keys, so invalidations match reads. */
export const usersKeys = {
  /** Every page of a project's users list, whatever its filters, and every user's page. */
  users: (projectId: string) => ['projects', projectId, 'users'] as const,
  userList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'users', 'list', query] as const,
  user: (projectId: string, userId: string) => ['projects', projectId, 'users', 'one', userId] as const,
  /** Their recent events (the audit log's, filtered by their identity). */
  events: (projectId: string, identity: string) => ['projects', projectId, 'audit', 'user', identity] as const,
};
