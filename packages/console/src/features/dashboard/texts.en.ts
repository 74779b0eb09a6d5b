/**
 * Texts of the dashboards (namespace `dashboard`), loaded with them; the titles stay in the main
 * catalogue (`pages.projectDashboard`, `pages.globalUsage`).
 */
export const dashboardTexts = {
  intro: 'Device registrations and events of this project, as they happen, by period and by country (UTC).',
  globalIntro: 'Device registrations and events of every project together, by period, by country and by project (UTC).',
  filters: {
    scope: 'Scope',
  },
  totals: {
    label: 'Totals',
    issued: 'Device registrations',
    sum: 'Events',
  },
  chart: {
    title: 'Usage',
    label: 'Column chart of registrations and events by {{period}}, {{from}} to {{to}}; the same data is in the table below it.',
    periods: { hour: 'hour', day: 'day', month: 'month' },
    failed: 'Failed to load usage',
    clickHint: 'Select a column to open its events in the audit log.',
    keyboard: "Arrow keys move between the periods and, up and down, between a period's columns.",
    keyboardOpens:
      "Arrow keys move between the periods and, up and down, between a period's columns; Enter opens the chosen one's events in the audit log.",
    downloadCsv: 'Download CSV',
  },
  keys: {
    issued: 'Registrations (issued)',
    oidc: 'Sign-ins (oidc)',
    jwt: 'ID tokens (jwt)',
    'dvs-auth': 'DVS auth',
    'dvs-verify': 'DVS verify',
    'reg-code': 'QuickCodes (reg-code)',
  },
  table: {
    show: 'Show the data as a table',
    hide: 'Hide the table',
    periodsLabel: 'Usage by {{period}}',
    period: 'Period',
    countriesLabel: 'Events by country',
    country: 'Country',
    events: 'Events',
    openAudit: 'Open the events of {{what}} in the audit log',
  },
  map: {
    title: 'Events by country',
    label: 'World map of events by country, {{from}} to {{to}}; the same data is in the table below it.',
    none: 'No events with a known location in this period.',
    failed: 'Failed to load the locations',
    unknown: 'Unknown location',
    keyboard: 'Arrow keys go through the countries with events, busiest first.',
    keyboardOpens: "Arrow keys go through the countries with events, busiest first; Enter opens the chosen country's events in the audit log.",
  },
  enrollment: {
    title: 'Passkey enrollment',
    intro: 'Passkeys offered after a sign-in by code, link or QuickCode, and how many of your users hold one (whole UTC days).',
    failed: 'Failed to load the enrollment figures',
    offers: 'Offers after a fallback sign-in',
    shown: 'Shown',
    created: 'Passkey created',
    declined: 'Not now',
    signIns: 'Sign-ins',
    passkeySignIns: 'With a passkey',
    fallbackSignIns: 'By code, link or QuickCode',
    activeUsers: 'Users signed in in this period',
    withPasskey: 'Holding a passkey',
    ceremonies: 'Passkey ceremonies',
    completed: 'Completed of started',
    ofTotal: '{{part}} of {{whole}}',
    percent: '{{n}}%',
    openAudit: '{{what}}: {{n}}, open these events in the audit log',
  },
  projects: {
    title: 'Top projects',
    label: 'Projects with the most events',
    project: 'Project',
    none: 'No project had usage in this period.',
  },
} as const;

declare module '../../lib/i18n/namespaces' {
  interface TextNamespaces {
    dashboard: typeof dashboardTexts;
  }
}
