import { globalScopeLabels, projectScopeLabels } from '@latchkey/domain';

/** Texts of the accounts pages (namespace `accounts`); page titles and spec §8's notifications stay in the main catalogue. */
export const accountsTexts = {
  // spec §6's permission labels, written once in the domain package and translated here.
  scopes: { project: projectScopeLabels, global: globalScopeLabels },
  list: {
    intro: 'The people and the service accounts that can work on this project, and what each may do.',
    label: 'Accounts',
    type: 'Type',
    user: 'User',
    serviceAccount: 'Service account',
    email: 'Email',
    permissions: 'Permissions',
    all: 'all',
    global: 'global',
    active: 'Active',
    manage: 'Manage',
    manageOf: 'Manage {{name}}',
    invited: 'Invited',
    addUser: 'Add user',
    addServiceAccount: 'Add service account',
  },
  form: {
    email: 'Email',
    emailHelp: 'Someone who has never signed in is sent an invitation to this address.',
    name: 'Name',
    nameHelp: 'What the account is for, e.g. "CI deploy".',
    permissions: 'Permissions',
    permissionsHelp: 'You can give only permissions you hold yourself. "select all" gives every permission of the project.',
    projectPermissions: 'This project',
    globalPermissions: 'Every project (global)',
    status: 'Status',
    active: 'Active',
    inactive: 'Inactive',
    create: 'Create',
    expiry: 'Token expiry',
    expiryHelp: 'Optional: the day after which the token stops working (UTC). Empty: it never expires.',
    createdInactive: 'Service account created. It is inactive, so it has no token yet: activate it, then generate its token here.',
    invitedNote: 'Invited: this person has not signed in yet.',
    loadFailed: 'Failed to load the account',
  },
  token: {
    title: 'Service account token',
    intro: 'Send it with every call to the API as Authorization: Bearer <token>.',
    label: 'Token',
    section: 'Token',
    prefix: 'Token',
    created: 'Created',
    expires: 'Expires',
    never: 'Never',
    lastUsed: 'Last used',
    notUsed: 'Not used yet',
    from: 'from {{ip}}',
    none: 'This service account has no token: generate one.',
    rotate: 'Generate a new token',
    rotateTitle: 'Generate a new token?',
    rotateText: 'The current token stops working at once.',
    revoke: 'Revoke token',
    revokeTitle: 'Revoke the token?',
    revokeText: 'Calls with it are refused from now on. You can generate a new one later.',
  },
} as const;

declare module '../../lib/i18n/namespaces' {
  interface TextNamespaces {
    accounts: typeof accountsTexts;
  }
}
