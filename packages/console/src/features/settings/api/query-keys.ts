/** The server state of the settings feature cached by react-query: its keys, so invalidations match reads. */
export const settingsKeys = {
  /** The project as the settings pages read it: with its ETag. */
  projectDocument: (projectId: string) => ['projects', projectId, 'document'] as const,
  issuer: (projectId: string) => ['projects', projectId, 'issuer'] as const,
  signingKeys: (projectId: string) => ['projects', projectId, 'issuer', 'keys'] as const,
  /** The settings changes of a project (the settings pages' history). */
  settingsHistory: (projectId: string) => ['projects', projectId, 'settings-history'] as const,
};
