/**
 * The keys of server state that more than one feature reads or invalidates: the signed-in account,
 * a project (everything of it sits under its key), its audit log (a revocation writes to it). A
 * feature's own keys live in its folder (its api/query-keys.ts), so invalidations match reads there.
 */
export const queryKeys = {
  account: ['account'] as const,
  project: (projectId: string) => ['projects', projectId] as const,
  /** Every page of a project's audit log, whatever its filters. */
  auditEvents: (projectId: string) => ['projects', projectId, 'audit'] as const,
};
