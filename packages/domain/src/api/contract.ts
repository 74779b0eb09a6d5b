import { z } from 'zod';
import { guards } from '../permissions/guards.ts';
import {
  projectCreateSchema,
  projectCreatedSchema,
  projectMetaSchema,
  projectSchema,
  projectSummarySchema,
  projectUpdateSchema,
} from '../project/schema.ts';
import { issuerMoveSchema, issuerSchema, signingKeysSchema } from '../issuer/schema.ts';
import { settingsHistoryQuerySchema, settingsHistorySchema } from '../project/history.ts';
import {
  accountCreatedSchema,
  accountListQuerySchema,
  accountListSchema,
  accountSchema,
  accountUpdateSchema,
  serviceAccountCreateSchema,
  serviceAccountTokenSchema,
  staffAccountCreateSchema,
  tokenRotateSchema,
} from '../account/schema.ts';
import {
  authUrlQuerySchema,
  authUrlResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  logoutResponseSchema,
  consoleConfigSchema,
  sessionAccountSchema,
  accountLanguageSchema,
} from '../session/schema.ts';
import { endpoint } from './endpoint.ts';
import { cleanString } from '../validation/fields.ts';
import { listResponseSchema } from '../list/schema.ts';
import {
  applicationCreateSchema,
  applicationCreatedSchema,
  applicationKeysSchema,
  applicationListQuerySchema,
  applicationSchema,
  applicationUpdateSchema,
  keysBodySchema,
} from '../app/schema.ts';
import {
  bulkRevocationBodySchema,
  bulkRevocationSchema,
  deviceExportQuerySchema,
  deviceListQuerySchema,
  deviceListSchema,
  revocationBodySchema,
  revocationSchema,
} from '../device/schema.ts';
import { auditExportQuerySchema, auditListQuerySchema, auditListSchema } from '../audit/schema.ts';
import {
  endUserDataSchema,
  endUserDetailSchema,
  endUserExportQuerySchema,
  endUserListQuerySchema,
  endUserListSchema,
  endUserErasedSchema,
  reenrollmentLinkSchema,
  endUserSchema,
  sessionsEndedSchema,
} from '../end-user/schema.ts';
import {
  webhookBodySchema,
  webhookCreatedSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookSchema,
} from '../webhook/schema.ts';
import { EXPORT_FORMATS, exportFileSchema } from '../list/export.ts';
import { IMPORT_FORMATS, userImportListSchema, userImportQuerySchema, userImportReportSchema, userImportSchema } from '../end-user/user-import.ts';
import { searchQuerySchema, searchResponseSchema } from '../search/schema.ts';
import {
  enrollmentFunnelSchema,
  enrollmentQuerySchema,
  globalUsageQuerySchema,
  globalUsageSchema,
  usageQuerySchema,
  usageSchema,
} from '../usage/schema.ts';

// Ids in paths: the one text rule (no control characters, no lone surrogates), at most 100 characters.
const id = () => cleanString(100).min(1, { error: 'validation.required' });
const projectParams = z.object({ project: id() });
// A passkey's credential id (the spec's mpinId), base64url: WebAuthn allows up to 1023 bytes, 1364 characters.
const mpinId = () => cleanString(1364).min(1, { error: 'validation.required' });
/** What every call that administers a project's settings shares (spec §6: settings pages need `cst:<C>:*`). */
const administerProject = { tag: 'projects', auth: 'session', permission: guards.projectAdmin, params: projectParams } as const;

// spec §7 "Session"
export const sessionApi = {
  getAuthUrl: endpoint({
    method: 'GET',
    path: '/authurl',
    tag: 'session',
    summary: 'Address of the identity provider to sign in at',
    auth: 'public',
    query: authUrlQuerySchema,
    response: authUrlResponseSchema,
  }),
  login: endpoint({
    method: 'POST',
    path: '/login',
    tag: 'session',
    summary: 'Exchange the authorization code for a console session',
    auth: 'public',
    body: loginBodySchema,
    response: loginResponseSchema,
    // 403: registration is closed or the account is inactive.
    alsoAnswers: [403],
  }),
  getAccount: endpoint({
    method: 'GET',
    path: '/account',
    tag: 'session',
    summary: 'The signed-in account',
    auth: 'session',
    response: sessionAccountSchema,
  }),
  setAccountLanguage: endpoint({
    method: 'PUT',
    path: '/account/language',
    tag: 'session',
    summary: 'Choose the console language of the signed-in account (null: the browser language)',
    auth: 'session',
    body: accountLanguageSchema,
    response: sessionAccountSchema,
  }),
  getConsoleConfig: endpoint({
    method: 'GET',
    path: '/config',
    tag: 'session',
    summary: 'Public settings the console needs before sign-in (documentation and support links)',
    auth: 'public',
    response: consoleConfigSchema,
  }),
  logout: endpoint({
    method: 'GET',
    path: '/logout',
    tag: 'session',
    summary: 'End the console session; answers where to send the browser',
    auth: 'public',
    response: logoutResponseSchema,
    // 403: a request another site made the browser send (Sec-Fetch-Site / Origin).
    alsoAnswers: [403],
  }),
};

// spec §7 "Projects"
export const projectsApi = {
  listAccountProjects: endpoint({
    method: 'GET',
    path: '/accounts/:accountId/projects',
    tag: 'projects',
    summary: 'Projects the account has a permission on (all of them for global accounts)',
    auth: 'session',
    params: z.object({ accountId: id() }),
    response: z.array(projectSummarySchema),
    // 404: a global accounts manager asked about an account that does not exist.
    alsoAnswers: [404],
  }),
  createProject: endpoint({
    method: 'POST',
    path: '/projects',
    tag: 'projects',
    summary: 'Create a project; the creator is granted cst:{project}:*',
    auth: 'session',
    body: projectCreateSchema,
    response: projectCreatedSchema,
    status: 201,
  }),
  getProject: endpoint({
    versioned: true,
    method: 'GET',
    path: '/projects/:project',
    tag: 'projects',
    summary: 'A project',
    auth: 'session',
    permission: guards.projectMember,
    params: projectParams,
    response: projectSchema,
  }),
  updateProject: endpoint({
    versioned: true,
    ...administerProject,
    method: 'PUT',
    path: '/projects/:project',
    summary: 'Replace the settings of a project',
    body: projectUpdateSchema,
    response: projectSchema,
  }),
  updateProjectMeta: endpoint({
    versioned: true,
    ...administerProject,
    method: 'PUT',
    path: '/projects/:project/meta',
    summary: 'Close (or, for global administrators, reopen) a project',
    body: projectMetaSchema,
    response: projectSchema,
  }),
  getIssuer: endpoint({
    versioned: true,
    ...administerProject,
    method: 'GET',
    path: '/projects/:project/issuer',
    summary: 'OpenID Connect issuer settings of a project',
    response: issuerSchema,
  }),
  updateIssuer: endpoint({
    versioned: true,
    ...administerProject,
    method: 'PUT',
    path: '/projects/:project/issuer',
    summary: 'Replace the OpenID Connect issuer settings of a project',
    body: issuerSchema,
    response: issuerSchema,
  }),
  getSigningKeys: endpoint({
    ...administerProject,
    method: 'GET',
    path: '/projects/:project/issuer/keys',
    summary: "The project issuer's signing keys: the one signing, and those still published",
    response: signingKeysSchema,
  }),
  rotateSigningKey: endpoint({
    ...administerProject,
    method: 'POST',
    path: '/projects/:project/issuer/keys/rotation',
    summary: 'Rotate the signing key: a new one signs at once, the previous stays published for a grace period',
    response: signingKeysSchema,
  }),
  moveIssuer: endpoint({
    ...administerProject,
    method: 'POST',
    path: '/projects/:project/issuer/move',
    summary:
      "Move the project's issuer to its own host ({project}.{ISSUER_DOMAIN}): a new issuer identifier and passkey relying party; the old address answers 307 to the new one",
    body: issuerMoveSchema,
    response: issuerSchema,
  }),
  listSettingsHistory: endpoint({
    method: 'GET',
    path: '/projects/:project/settings/history',
    ...administerProject,
    summary:
      "The changes of one settings page's fields, newest first, 20 at a time: who, when, and each field's value before and after (a secret only as changed); read from the project's audit log (issue 11)",
    query: settingsHistoryQuerySchema,
    response: settingsHistorySchema,
  }),
};

const appParams = z.object({ application: id() });
/** What every call about one application shares: its project is the application's; `apps` guards it. */
const aboutOneApplication = {
  tag: 'applications',
  auth: 'session',
  permission: guards.apps,
  projectFrom: 'params.application',
  params: appParams,
} as const;

// spec §7 "Applications"
export const appsApi = {
  listApps: endpoint({
    method: 'GET',
    path: '/projects/:project/apps',
    tag: 'applications',
    summary: 'Applications of a project: filter by name (contains), enabled, platformCode; sort and page',
    auth: 'session',
    permission: guards.apps,
    params: projectParams,
    query: applicationListQuerySchema,
    response: listResponseSchema(applicationSchema),
  }),
  createApp: endpoint({
    method: 'POST',
    path: '/apps',
    tag: 'applications',
    summary: 'Create an application; its keys are created next by POST {keysEndpoint}',
    auth: 'session',
    permission: guards.apps,
    projectFrom: 'body.projectId',
    body: applicationCreateSchema,
    response: applicationCreatedSchema,
    status: 201,
  }),
  getApp: endpoint({
    versioned: true,
    ...aboutOneApplication,
    method: 'GET',
    path: '/apps/:application',
    summary: 'An application',
    response: applicationSchema,
  }),
  updateApp: endpoint({
    versioned: true,
    ...aboutOneApplication,
    method: 'PUT',
    path: '/apps/:application',
    summary: 'Rename, change the logo of, disable or enable an application',
    body: applicationUpdateSchema,
    response: applicationSchema,
  }),
  createAppKeys: endpoint({
    versioned: true,
    ...aboutOneApplication,
    method: 'POST',
    path: '/apps/:application/keys',
    summary: 'Create the client credentials of a new application; the secret is answered this once',
    body: keysBodySchema,
    response: applicationKeysSchema,
    status: 201,
  }),
  getAppKeys: endpoint({
    versioned: true,
    ...aboutOneApplication,
    method: 'GET',
    path: '/apps/:application/keys',
    summary: 'Client id and redirect URIs of an application (never the secret)',
    response: applicationKeysSchema,
  }),
  updateAppKeys: endpoint({
    versioned: true,
    ...aboutOneApplication,
    method: 'PUT',
    path: '/apps/:application/keys',
    summary: 'Replace the redirect URIs of an application',
    body: keysBodySchema,
    response: applicationKeysSchema,
  }),
  generateAppKeys: endpoint({
    versioned: true,
    ...aboutOneApplication,
    method: 'POST',
    path: '/apps/:application/keys/generate',
    summary: 'Generate a new client secret; the old one stops working at once',
    body: keysBodySchema,
    response: applicationKeysSchema,
    // Honours If-Match like the PUTs (docs/decisions/0007).
    alsoAnswers: [412],
  }),
};

// spec §7 "Devices"
export const devicesApi = {
  listDevices: endpoint({
    method: 'GET',
    path: '/projects/:project/mpinids',
    tag: 'devices',
    summary:
      "A project's devices registered in a date range (default: the current month, UTC): filter by userId (whole identity), deviceName and ip (starting with), revoked; sort and page",
    auth: 'session',
    permission: guards.devices,
    params: projectParams,
    query: deviceListQuerySchema,
    response: deviceListSchema,
  }),
  revokeDevice: endpoint({
    method: 'POST',
    path: '/projects/:project/mpinids/:mpinId/revocation',
    tag: 'devices',
    summary: "Revoke an end user's passkey: it is refused from now on and the provider sessions started with it end",
    auth: 'session',
    permission: guards.devices,
    params: z.object({ project: id(), mpinId: mpinId() }),
    body: revocationBodySchema,
    response: revocationSchema,
  }),
  exportDevices: endpoint({
    method: 'GET',
    path: '/projects/:project/mpinids/export',
    tag: 'devices',
    summary:
      "The devices list's filter and range as a file, streamed in created-at order: format=csv (RFC 4180, formula-like cells prefixed with ') or jsonl (one device per line)",
    auth: 'session',
    permission: guards.devices,
    params: projectParams,
    query: deviceExportQuerySchema,
    response: exportFileSchema,
    produces: Object.values(EXPORT_FORMATS),
  }),
  revokeDevices: endpoint({
    method: 'POST',
    path: '/projects/:project/mpinids/revocations',
    tag: 'devices',
    summary:
      'Revoke up to `limit` active devices matching the filter, each as a single revocation (limit 0: count only); refused (409) when more match than `expectedCount`; repeat until remaining is 0',
    auth: 'session',
    permission: guards.devices,
    params: projectParams,
    body: bulkRevocationBodySchema,
    response: bulkRevocationSchema,
  }),
};

// Issue 24 "Users in the console"; the guards: docs/decisions/0038.
const userParams = z.object({ project: id(), user: id() });
const changeUser = { tag: 'users', auth: 'session', permission: guards.endUserChanges, params: userParams } as const;
export const endUsersApi = {
  listEndUsers: endpoint({
    method: 'GET',
    path: '/projects/:project/users',
    tag: 'users',
    summary:
      "A project's end users (every creation time unless fromDate or toDate): filter by identity (starting with, any case) and status; sort by createdAt, identity or lastSignInAt; page",
    auth: 'session',
    permission: guards.endUsers,
    params: projectParams,
    query: endUserListQuerySchema,
    response: endUserListSchema,
  }),
  exportEndUsers: endpoint({
    method: 'GET',
    path: '/projects/:project/users/export',
    tag: 'users',
    summary: "The users list's filter as a file, streamed in created-at order: format=csv or jsonl",
    auth: 'session',
    permission: guards.endUsers,
    params: projectParams,
    query: endUserExportQuerySchema,
    response: exportFileSchema,
    produces: Object.values(EXPORT_FORMATS),
  }),
  getEndUser: endpoint({
    method: 'GET',
    path: '/projects/:project/users/:user',
    tag: 'users',
    summary: 'One end user with every passkey of theirs and their open sessions at the issuer',
    auth: 'session',
    permission: guards.endUsers,
    params: userParams,
    response: endUserDetailSchema,
  }),
  exportEndUserData: endpoint({
    method: 'GET',
    path: '/projects/:project/users/:user/data',
    tag: 'users',
    summary: 'Everything held about the user as one JSON document (GDPR art. 15 and 20): the user, their passkeys, sessions and audit events',
    auth: 'session',
    permission: guards.endUsers,
    params: userParams,
    response: endUserDataSchema,
  }),
  blockEndUser: endpoint({
    ...changeUser,
    method: 'POST',
    path: '/projects/:project/users/:user/block',
    summary: 'Block the user: every session and token of theirs ends, and each sign-in is refused (result denied) until unblocked',
    response: endUserSchema,
  }),
  unblockEndUser: endpoint({
    ...changeUser,
    method: 'POST',
    path: '/projects/:project/users/:user/unblock',
    summary: 'Unblock the user: they may sign in again',
    response: endUserSchema,
  }),
  endEndUserSessions: endpoint({
    ...changeUser,
    method: 'POST',
    path: '/projects/:project/users/:user/sessions/end',
    summary: "End every session of the user at the issuer, with their grants and tokens (their applications' back-channel logouts are sent)",
    response: sessionsEndedSchema,
  }),
  endEndUserSession: endpoint({
    ...changeUser,
    method: 'POST',
    path: '/projects/:project/users/:user/sessions/:session/end',
    summary: 'End one session of the user at the issuer, with its grants and tokens',
    params: z.object({ project: id(), user: id(), session: id() }),
    response: sessionsEndedSchema,
  }),
  createReenrollmentLink: endpoint({
    ...changeUser,
    method: 'POST',
    path: '/projects/:project/users/:user/reenrollment-link',
    summary:
      'A one-time re-enrollment link for the user (help-desk recovery, issue 37): opened within 24 hours, it lets them create a passkey on that device with no other proof; single use, shown once (only its keyed hash is kept), audited',
    response: reenrollmentLinkSchema,
  }),
  deleteEndUser: endpoint({
    ...changeUser,
    method: 'DELETE',
    path: '/projects/:project/users/:user',
    summary:
      'Erase the user (GDPR art. 17): the user, their passkeys, sessions, grants, codes and tokens go; their audit events stay under a pseudonym, without address or user agent',
    response: endUserErasedSchema,
  }),
};

// Issue 37 "Migration" (docs/decisions/0052): users brought in from a file, and taken out with
// their passkeys' public data. Importing creates people: the permission that changes end users.
const importParams = z.object({ project: id(), import: id() });
export const userImportsApi = {
  importEndUsers: endpoint({
    method: 'POST',
    path: '/projects/:project/user-imports',
    tag: 'users',
    summary:
      "Import users from the body, a file (at most 1 GiB): JSON Lines (application/x-ndjson) or CSV (text/csv) with a header row. One person a line: email, verified, name, externalId, passwordHash (bcrypt, Argon2id, scrypt, PBKDF2-SHA256). The file is stored as it arrives and answered 202 with the queued import; a worker imports it in the background (its progress: listUserImports, getUserImport). A person the project has already is left as is; a refused line is reported with its number and stores nothing. An imported hash is kept the project's importedPasswordDays",
    auth: 'session',
    permission: guards.endUserChanges,
    params: projectParams,
    query: userImportQuerySchema,
    consumes: Object.values(IMPORT_FORMATS),
    response: userImportSchema,
    status: 202,
  }),
  listUserImports: endpoint({
    method: 'GET',
    path: '/projects/:project/user-imports',
    tag: 'users',
    summary: "The project's imports, newest first (the last 20), with their progress",
    auth: 'session',
    permission: guards.endUsers,
    params: projectParams,
    response: userImportListSchema,
  }),
  getUserImport: endpoint({
    method: 'GET',
    path: '/projects/:project/user-imports/:import',
    tag: 'users',
    summary: 'One import with its report: each refused line, its number and why',
    auth: 'session',
    permission: guards.endUsers,
    params: importParams,
    response: userImportReportSchema,
  }),
  exportEndUsersForMigration: endpoint({
    method: 'GET',
    path: '/projects/:project/users/migration-export',
    tag: 'users',
    summary:
      "Every user of the project as JSON Lines in the import's format, with each one's passkeys' public data (credential id, public key, counter, transports, rpId, createdAt): to move the users elsewhere",
    auth: 'session',
    permission: guards.endUserChanges,
    params: projectParams,
    response: exportFileSchema,
    produces: [IMPORT_FORMATS.jsonl],
  }),
};

// Issue 24 "Webhooks": guarded like the project's settings (docs/decisions/0039).
const webhookParams = z.object({ project: id(), webhook: id() });
const administerWebhooks = { tag: 'webhooks', auth: 'session', permission: guards.projectAdmin } as const;
export const webhooksApi = {
  listWebhooks: endpoint({
    ...administerWebhooks,
    method: 'GET',
    path: '/projects/:project/webhooks',
    summary: "The project's webhook endpoints",
    params: projectParams,
    response: webhookListSchema,
  }),
  createWebhook: endpoint({
    ...administerWebhooks,
    method: 'POST',
    path: '/projects/:project/webhooks',
    summary:
      'Add an endpoint that receives the chosen events as they happen, signed per Standard Webhooks; its secret (whsec_…) is in this answer only. An address that is not public is refused',
    params: projectParams,
    body: webhookBodySchema,
    response: webhookCreatedSchema,
    status: 201,
  }),
  getWebhook: endpoint({
    ...administerWebhooks,
    method: 'GET',
    path: '/projects/:project/webhooks/:webhook',
    summary: 'One webhook endpoint (never its secret), with its version as the ETag',
    params: webhookParams,
    response: webhookSchema,
    versioned: true,
  }),
  updateWebhook: endpoint({
    ...administerWebhooks,
    method: 'PUT',
    path: '/projects/:project/webhooks/:webhook',
    summary: 'Change an endpoint: its URL, events, description; enabling it again clears why it was disabled (If-Match: its ETag)',
    params: webhookParams,
    body: webhookBodySchema,
    response: webhookSchema,
    versioned: true,
  }),
  deleteWebhook: endpoint({
    ...administerWebhooks,
    method: 'DELETE',
    path: '/projects/:project/webhooks/:webhook',
    summary: 'Remove an endpoint and its delivery log',
    params: webhookParams,
    response: z.object({ id: z.string(), deleted: z.literal(true) }),
  }),
  testWebhook: endpoint({
    ...administerWebhooks,
    method: 'POST',
    path: '/projects/:project/webhooks/:webhook/test',
    summary: 'Send the endpoint a webhook.test event (after what it already waits to receive)',
    params: webhookParams,
    response: webhookDeliverySchema,
  }),
  listWebhookDeliveries: endpoint({
    ...administerWebhooks,
    method: 'GET',
    path: '/projects/:project/webhooks/:webhook/deliveries',
    summary: "The endpoint's deliveries, newest first (kept a week): status, attempts, the last answer's status and time",
    params: webhookParams,
    query: webhookDeliveriesQuerySchema,
    response: webhookDeliveriesSchema,
  }),
  resendWebhookDelivery: endpoint({
    ...administerWebhooks,
    method: 'POST',
    path: '/projects/:project/webhooks/:webhook/deliveries/:delivery/resend',
    summary: 'Send a delivered or given-up message again, as it was (same webhook-id)',
    params: z.object({ project: id(), webhook: id(), delivery: id() }),
    response: webhookDeliverySchema,
  }),
};

// spec §7 "Audit"
export const auditApi = {
  listAuditEvents: endpoint({
    method: 'GET',
    path: '/projects/:project/audit',
    tag: 'audit',
    summary:
      "A project's audit events in a date range (default: the current month, UTC): filter by userId (whole identity), deviceName (starting with), scope, result; sort and page",
    auth: 'session',
    permission: guards.audit,
    params: projectParams,
    query: auditListQuerySchema,
    response: auditListSchema,
  }),
  exportAuditEvents: endpoint({
    method: 'GET',
    path: '/projects/:project/audit/export',
    tag: 'audit',
    summary:
      "The audit log's filter and range as a file, streamed in created-at order: format=csv (RFC 4180, formula-like cells prefixed with ') or jsonl (one event per line)",
    auth: 'session',
    permission: guards.audit,
    params: projectParams,
    query: auditExportQuerySchema,
    response: exportFileSchema,
    produces: Object.values(EXPORT_FORMATS),
  }),
};

// spec §7 "Accounts" (issue 12, docs/decisions/0022)
const accountParams = z.object({ project: id(), account: id() });
const manageAccounts = { tag: 'accounts', auth: 'session', permission: guards.accounts } as const;
export const accountsApi = {
  listAccounts: endpoint({
    method: 'GET',
    path: '/projects/:project/accounts',
    ...manageAccounts,
    summary: 'The staff and service accounts holding a permission on the project: filter by email (starting with, any case) and active; by email',
    params: projectParams,
    query: accountListQuerySchema,
    response: accountListSchema,
  }),
  getProjectAccount: endpoint({
    versioned: true,
    method: 'GET',
    path: '/projects/:project/accounts/:account',
    ...manageAccounts,
    summary:
      "An account of the project: its permissions on the project and its global ones, its status, a service account's token (never the token itself)",
    params: accountParams,
    response: accountSchema,
  }),
  createAccount: endpoint({
    method: 'POST',
    path: '/projects/:project/accounts',
    ...manageAccounts,
    summary:
      'Add a staff account by email with permissions you hold yourself; an address that never signed in is invited by mail and finds its permissions at its first sign-in',
    params: projectParams,
    body: staffAccountCreateSchema,
    response: accountCreatedSchema,
    status: 201,
  }),
  updateAccount: endpoint({
    versioned: true,
    method: 'PUT',
    path: '/projects/:project/accounts/:account',
    ...manageAccounts,
    summary:
      "Change an account's permissions (only ones you hold) and status; deactivating ends its sessions and token at once; the project keeps an active administrator",
    params: accountParams,
    body: accountUpdateSchema,
    response: accountSchema,
  }),
  createServiceAccount: endpoint({
    method: 'POST',
    path: '/projects/:project/serviceaccounts',
    ...manageAccounts,
    summary: 'Create a service account; its token is in the answer, once (send it as Authorization: Bearer <token>)',
    params: projectParams,
    body: serviceAccountCreateSchema,
    response: serviceAccountTokenSchema,
    status: 201,
  }),
  rotateServiceToken: endpoint({
    method: 'POST',
    path: '/projects/:project/serviceaccounts/:account/token',
    ...manageAccounts,
    summary: "Replace a service account's token: the new one is in the answer, once; the old one stops working at once",
    params: accountParams,
    body: tokenRotateSchema,
    response: serviceAccountTokenSchema,
  }),
  revokeServiceToken: endpoint({
    method: 'POST',
    path: '/projects/:project/serviceaccounts/:account/token/revocation',
    ...manageAccounts,
    summary: "Revoke a service account's token: it stops working at once (a new one can be made)",
    params: accountParams,
    response: z.object({ revoked: z.literal(true) }),
  }),
};

// spec §7 "Usage" (issue 10, docs/decisions/0020)
export const usageApi = {
  getUsage: endpoint({
    method: 'GET',
    path: '/projects/:project/usage',
    tag: 'usage',
    summary:
      "A project's usage from its rollups: totals and every period of the range (default: the current year, UTC; periodType by spec §4's rule), or with type=locations its events by country",
    auth: 'session',
    permission: guards.dashboard,
    params: projectParams,
    query: usageQuerySchema,
    response: usageSchema,
  }),
  getEnrollmentFunnel: endpoint({
    method: 'GET',
    path: '/projects/:project/usage/enrollment',
    tag: 'usage',
    summary:
      "A project's passkey enrollment funnel over whole UTC days (issue 37, docs/decisions/0050): offers shown, created, declined; passkey against fallback sign-ins; active people holding a passkey; passkey ceremonies started against completed",
    auth: 'session',
    permission: guards.dashboard,
    params: projectParams,
    query: enrollmentQuerySchema,
    response: enrollmentFunnelSchema,
  }),
  getGlobalUsage: endpoint({
    method: 'GET',
    path: '/usage',
    tag: 'usage',
    summary: "Every project's usage together (glb::usage): totals and periods, type=locations by country, type=projects the top projects",
    auth: 'session',
    permission: guards.globalUsage,
    query: globalUsageQuerySchema,
    response: globalUsageSchema,
  }),
};

// Issue 13 "Find anything" (docs/decisions/0023): the console's command palette.
export const searchApi = {
  search: endpoint({
    method: 'GET',
    path: '/search',
    tag: 'search',
    summary:
      'Find by id or name, in every project the caller can see: projects (id, name starting with q), applications (id, client id, name starting with q), accounts (id, email or service-account name starting with q), devices (mpinId, owner identity starting with q), audit events (id); each kind only where the caller holds the permission its page needs; the current `project` first',
    // No permission of its own: each kind of result is filtered by its page's guard (SEARCH_GUARDS).
    auth: 'session',
    query: searchQuerySchema,
    response: searchResponseSchema,
  }),
};

// The order of the entries is the order of the routes and of the OpenAPI document (modules/api-module.ts).
export const api = {
  ...sessionApi,
  ...projectsApi,
  ...appsApi,
  ...devicesApi,
  ...endUsersApi,
  ...userImportsApi,
  ...webhooksApi,
  ...auditApi,
  ...usageApi,
  ...accountsApi,
  ...searchApi,
};
export type Api = typeof api;
