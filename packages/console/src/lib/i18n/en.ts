import { validationMessages, type ErrorCode, type ValidationMessageKey } from '@latchkey/domain';
import type { ApiErrorCode } from '../api/api-error.ts';

type ValidationLeaf<K> = K extends `validation.${infer Rest}` ? Rest : never;
type ValidationCatalogue = { [K in ValidationMessageKey as ValidationLeaf<K>]: (typeof validationMessages)[K] };

// spec §5: the validation messages are written once, in the domain package, keyed `validation.*`;
// they are merged in here under the same keys.
const validation = Object.fromEntries(
  Object.entries(validationMessages).map(([key, text]) => [key.slice('validation.'.length), text]),
) as ValidationCatalogue;

/** The English catalogue: every text the console shows. */
export const en = {
  app: {
    name: 'Latchkey',
    documentTitle: '{{page}} · Latchkey',
    home: 'Latchkey home',
  },
  common: {
    loading: 'Loading...',
    retry: 'Retry',
    dismiss: 'Dismiss',
  },
  layout: {
    /** The switcher's accessible name: its visible text first (WCAG 2.5.3 label in name). */
    switchProject: '{{project}} — Switch project',
    selectProject: 'Select project',
    projects: 'Projects',
    createProject: 'Create project',
    noProjects: 'No open projects yet',
    documentation: 'Documentation',
    support: 'Support',
    logOut: 'Log out',
    signedInAs: 'Signed in as',
    toggleColorScheme: 'Toggle color scheme',
    /** Read before the chosen language's own name on the language button: "Language: Français". */
    language: 'Language',
    languageNotSaved: 'The language could not be saved for your account; it applies in this browser.',
    /** The command palette's button in the top bar; the shortcut is shown beside it. */
    search: 'Search',
    skipToContent: 'Skip to content',
    menu: 'Menu',
    breadcrumb: 'Breadcrumb',
    projectNavigation: 'Project menu',
    copyright: '© {{year}} Latchkey',
  },
  nav: {
    overview: 'Overview',
    configuration: 'Configuration',
    dashboard: 'Dashboard',
    apps: 'Applications',
    users: 'Users',
    devices: 'Device Registrations',
    audit: 'Audit Log',
    settings: 'General',
    branding: 'Branding',
    userVerification: 'User Verification',
    oidc: 'OpenID Connect',
    mobileApps: 'Mobile Applications',
    webhooks: 'Webhooks',
    accounts: 'Accounts',
  },
  // Page titles: the h1, the breadcrumb and the document title of each route.
  pages: {
    unavailableHeading: 'Not available yet',
    unavailableText: 'This page is not part of this version of Latchkey yet. Its menu entry is here so you can see where it will be.',
    login: 'Signing in',
    loginError: 'Authentication Declined',
    forbidden: 'Access denied',
    notFound: 'Page not found',
    projectList: 'Projects',
    projectCreate: 'Create project',
    projectDashboard: 'Dashboard',
    globalUsage: 'Usage of all projects',
    projectApps: 'Applications',
    projectWebhooks: 'Webhooks',
    webhookDetail: 'Webhook',
    projectAccounts: 'Accounts',
    projectAudit: 'Audit Log',
    projectUsers: 'Users',
    userDetail: 'User',
    projectDevices: 'Device Registrations',
    projectSettings: 'General settings',
    projectOidc: 'OpenID Connect',
    projectMobileApps: 'Mobile Applications',
    projectDisabled: 'Project disabled',
    projectWelcome: 'Welcome',
    projectUserVerification: 'User Verification',
    projectBranding: 'Branding',
    appCreate: 'Create application',
    appSettings: 'Application settings',
    accountSettings: 'Edit account',
    accountCreate: 'Create staff account',
    serviceAccountCreate: 'Create service account',
  },
  session: {
    expiredTitle: 'Session expired',
    expiredText: 'Your session has ended. Log in again to continue where you were.',
    logIn: 'Log in',
    signInUnavailableTitle: 'Sign-in is unavailable',
    signInUnavailableText: 'The sign-in service could not be reached. Check your connection and try again.',
  },
  loginError: {
    consent_required: "You pressed 'Disagree' on the mobile authenticator",
    registration_disabled: 'Registration is disabled',
    auth_error: 'There was a problem with authentication',
    cancelled: 'The authentication was cancelled',
    tryAgain: 'Try again',
  },
  errors: {
    forbidden: "You don't have permissions to view this page",
    notFound: 'The requested page could not be found',
    backHome: 'Back to projects',
    loadFailed: 'This page could not be loaded',
    unexpectedTitle: 'Something went wrong',
    unexpectedText: 'The console could not show this page. Reloading usually helps.',
    reload: 'Reload',
  },
  banner: {
    closedTitle: 'This project is disabled',
    closedText: "Changes to the project's info, apps and accounts cannot be made while disabled.",
  },
  projects: {
    add: 'Add project',
    showClosed: 'Closed Projects',
    closed: 'Closed',
    loadFailed: 'The projects could not be loaded',
    noOpenProjects: 'All your projects are closed. Turn on Closed Projects to see them.',
    emptyTitle: 'Create your first project',
    emptyText:
      'A project holds the applications that sign users in with Latchkey, the people who manage them and the devices your users register. Start by creating one; you can add your first application right after.',
  },
  projectCreate: {
    intro: 'Give the project a name your team will recognise. You can change it later in the settings.',
    name: 'Name',
    submit: 'Create',
  },
  welcome: {
    heading: 'Welcome to Latchkey',
    intro: 'Your project is ready. Add an application to let your users sign in without passwords.',
    freeTier: 'Getting started costs nothing: under {{limit}} authentications per month is free.',
    freeForGood: 'Unlimited free use is offered to charities, academics and start-ups. Contact support to ask for it.',
    addApp: 'Add App',
  },
  disabled: {
    heading: 'This project is disabled',
    text: "Changes to the project's info, apps and accounts cannot be made while disabled.",
  },
  notifications: {
    error: {
      project_created: 'Failed to create new project',
      account_created: 'Failed to create new account',
      account_updated: 'Failed to update account',
      app_created: 'Failed to create new application',
      app_updated: 'Failed to update application',
      issuer_updated: 'Failed to update issuer',
      settings_updated: 'Failed to update settings',
      revocation_failed: 'Failed to revoke device',
    },
  },
  // issue 35: what a failed call says, by its code (lib/error-message.ts); a code of the API without
  // its text here is a compile error, and lib/error-message.test.ts asks for it in every language.
  apiErrors: {
    codes: {
      validation_failed: 'Some of the values sent were not accepted',
      login_failed: 'The sign-in could not be completed; start again',
      unauthorized: 'Your session has ended; log in again to continue',
      forbidden: 'You do not have the permission for this',
      not_found: 'This could not be found: it does not exist, or you have no access to it',
      project_closed: 'The project is disabled; changes cannot be made while it is disabled',
      conflict: 'This clashes with the current state of what you are changing',
      // spec §2 "Authentication declined", word for word.
      registration_disabled: 'Registration is disabled',
      xsrf_failed: 'The request could not be verified; reload the page and try again',
      internal: 'Something went wrong on our side; try again later',
      network_error: 'The server could not be reached; check your connection and try again',
      unexpected_response: 'The server gave an answer the console does not understand; try again later',
    } as const satisfies Record<ApiErrorCode, string>,
    /**
     * The same codes when the answer's issues name the fields they are about. (`validation_failed`
     * says its issues' own messages instead, from their `validation.*` keys.)
     */
    withFields: {
      forbidden: 'You may not change {{fields}}',
      conflict: 'The value of {{fields}} clashes with one that exists already',
    } as const satisfies Partial<Record<ErrorCode, string>>,
    /** Between the messages of a rejected input's issues. */
    issueSeparator: '; ',
    /** `conflict` answered 412: the version the change was made on is no longer current (docs/decisions/0007). */
    staleVersion: 'Someone else changed this in the meantime; reload and try again',
  },
  validation,
} as const;

export type Catalogue = typeof en;
