/** The server state of the accounts feature cached by react-query: its keys, so invalidations match reads. */
export const accountsKeys = {
  /** Every list of a project's accounts, whatever its filters. */
  accounts: (projectId: string) => ['projects', projectId, 'accounts'] as const,
  accountList: (projectId: string, query: Record<string, unknown>) => ['projects', projectId, 'accounts', query] as const,
  /** One account of a project (not the signed-in account: that is `account`). */
  projectAccount: (projectId: string, accountId: string) => ['projects', projectId, 'accounts', 'one', accountId] as const,
};
