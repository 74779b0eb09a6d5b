/** The server state of the search feature cached by react-query: its keys, so invalidations match reads. */
export const searchKeys = {
  /** The command palette's answers (issue 13), by the query and the project it ranks first. */
  search: (q: string, projectId: string | null) => ['search', q, projectId] as const,
};
