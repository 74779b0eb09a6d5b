/** Texts of the command palette (namespace `search`, issue 13 "Find anything"), loaded when it opens. */
export const searchTexts = {
  title: 'Find anything',
  label: 'Search by name or id, or go to a page',
  placeholder: 'Project, application, client id, account, user, mpinId, event id…',
  help: 'Type to search. ↑ and ↓ move, Enter opens, Esc closes.',
  pages: 'Pages',
  kinds: {
    project: 'Projects',
    app: 'Applications',
    account: 'Accounts',
    user: 'Users',
    device: 'Devices',
    audit: 'Audit events',
  },
  searching: 'Searching…',
  noResults: 'Nothing found',
  failed: 'The search failed. Try again.',
  resultCount_one: '{{count}} result',
  resultCount_other: '{{count}} results',
  closed: 'Closed',
  disabled: 'Disabled',
  inactive: 'Inactive',
  revoked: 'Revoked',
  blocked: 'Blocked',
  serviceAccount: 'Service account',
  inProject: 'in {{project}}',
  shortcut: 'Ctrl K',
  close: 'Close',
} as const;

declare module '../../lib/i18n/namespaces' {
  interface TextNamespaces {
    search: typeof searchTexts;
  }
}
