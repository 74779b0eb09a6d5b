/** Texts of the audit log page (namespace `audit`), loaded with it; its title stays in the main catalogue (`pages.projectAudit`). */
export const auditTexts = {
  list: {
    intro: 'What happened in this project: sign-ins, registrations and codes of your users, and what accounts changed in the console.',
    label: 'Audit events',
    date: 'Date',
    account: 'Account',
    deviceName: 'Device name',
    scope: 'Scope',
    result: 'Result',
    action: 'Action',
    actionHint: 'e.g. sign_in',
    country: 'Country',
    countryHint: 'Two letters, e.g. NL',
    details: 'Details',
    detailsOf: 'Details of the event of {{date}}',
    none: '—',
  },
  details: {
    title: 'Event details',
  },
} as const;

declare module '../../lib/i18n/namespaces' {
  interface TextNamespaces {
    audit: typeof auditTexts;
  }
}
