/** The server state of the session feature cached by react-query: its keys, so invalidations match reads. */
export const sessionKeys = {
  consoleConfig: ['console-config'] as const,
};
