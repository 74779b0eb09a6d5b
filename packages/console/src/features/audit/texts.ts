import { addTexts } from '../../lib/i18n/index.ts';

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

addTexts('audit', auditTexts, {
  fr: async () => (await import('./texts.fr.ts')).auditTextsFr,
  ro: async () => (await import('./texts.ro.ts')).auditTextsRo,
});
