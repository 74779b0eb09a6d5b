/**
 * Texts of the applications pages (namespace `apps`), loaded with them. Page titles stay in the
 * main catalogue (`pages.*`, for the breadcrumbs and the side menu), and so do the spec §8
 * notification titles (`notifications.error.app_created`, `app_updated`).
 */
export const appsTexts = {
  list: {
    intro: 'The OpenID Connect clients that sign your users in through this project.',
    add: 'Add application',
    label: 'Applications',
    name: 'Name',
    type: 'Type',
    enabled: 'Enabled',
    settings: 'Settings',
    settingsOf: 'Settings of {{name}}',
  },
  form: {
    name: 'Name',
    type: 'Type',
    applicationType: 'Application type',
    applicationTypes: {
      web: { label: 'Web app', help: 'Runs on a server that keeps the client secret (a confidential client).' },
      spa: { label: 'Single-page app', help: 'Runs in the browser without a secret; signs in with PKCE.' },
      native: {
        label: 'Native app',
        help: 'A mobile, desktop or command-line app; returns to its own scheme, a claimed https address or a loopback address.',
      },
    },
    projectId: 'Project ID',
    clientId: 'Client ID',
    issuer: 'Issuer',
    discoveryUrl: 'Discovery URL',
    accountPageUrl: 'Account page URL',
    accountPageUrlHelp: 'Link your users here: they manage their passkeys and where they are signed in.',
    redirectUrls: 'Redirect URLs',
    redirectUrlsHelp:
      'Where users are sent back after signing in, such as https://app.example.com/callback or com.example.app:/callback. A sign-in request must name one of them exactly.',
    redirectUrl: 'Redirect URL {{n}}',
    addRedirectUrl: 'Add redirect URL',
    removeRedirectUrl: 'Remove redirect URL {{n}}',
    postLogoutUrls: 'Post-logout redirect URLs',
    postLogoutUrlsHelp: 'Where your app may send users after signing them out at the issuer (post_logout_redirect_uri), matched exactly. Optional.',
    postLogoutUrl: 'Post-logout redirect URL {{n}}',
    addPostLogoutUrl: 'Add post-logout redirect URL',
    removePostLogoutUrl: 'Remove post-logout redirect URL {{n}}',
    backchannelLogoutUrl: 'Back-channel logout URL',
    backchannelLogoutUrlHelp:
      'Your server’s address that the issuer posts a signed logout token to when a user’s session ends (they sign out, or their passkey is revoked). Optional.',
  },
  create: {
    intro: 'An OpenID Connect client with its redirect URLs. Its client secret is shown once, right after it is created.',
    submit: 'Create',
    keysFailedTitle: 'The application was created without its keys',
    keysFailedText:
      '“{{name}}” exists, but its client ID and secret could not be made. Try again with Create, or open its settings to create them later.',
    openSettings: 'Open its settings',
  },
  secret: {
    title: 'Client secret',
    intro: 'Your application signs users in with this client ID and secret.',
    clientId: 'Client ID',
    clientSecret: 'Client secret',
  },
  settings: {
    status: 'Status',
    enabled: 'Enabled',
    disabled: 'Disabled',
    disabledNote: 'This application is disabled: users cannot sign in through it and its settings cannot be changed until it is enabled again.',
    noKeysTitle: 'This application has no keys yet',
    noKeysText: 'Check its redirect URLs and create its client ID and secret. The secret is shown once.',
    createKeys: 'Create keys',
    generateTitle: 'New client secret',
    generateText: 'Replaces the client secret. The current secret stops working at once.',
    generate: 'Generate new keys',
    generateConfirmTitle: 'Generate new keys',
    generateConfirmText:
      'The current client secret of “{{name}}” stops working at once; it must be replaced wherever it is used. The new secret is shown once.',
    generateConfirm: 'Generate',
    disableTitle: 'Disable',
    disableText: 'Users can no longer sign in through this application until it is enabled again.',
    disable: 'Disable application',
    disableConfirmTitle: 'Disable application',
    disableConfirmText: 'Users will no longer be able to sign in through “{{name}}”, and its settings cannot be changed while it is disabled.',
    disableConfirm: 'Disable',
    enableTitle: 'Enable',
    enableText: 'Users can sign in through this application again.',
    enable: 'Enable application',
    enableConfirmTitle: 'Enable application',
    enableConfirmText: 'Users will be able to sign in through “{{name}}” again.',
    enableConfirm: 'Enable',
    loadFailed: 'The application could not be loaded',
  },
} as const;

declare module '../../lib/i18n/namespaces' {
  interface TextNamespaces {
    apps: typeof appsTexts;
  }
}
