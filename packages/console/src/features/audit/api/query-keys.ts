/** The server state of the audit feature cached by react-query: its keys, so invalidations match reads. */
export const auditKeys = {
  auditList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'audit', query] as const,
};
