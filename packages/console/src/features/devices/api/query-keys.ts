/** The server state of the devices feature cached by react-query: its keys, so invalidations match reads. */
export const devicesKeys = {
  /** Every page of a project's devices list, whatever its filters. */
  devices: (projectId: string) => ['projects', projectId, 'devices'] as const,
  deviceList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'devices', query] as const,
};
