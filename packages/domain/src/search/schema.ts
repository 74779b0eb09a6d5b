import { z } from 'zod';
import { AUDIT_RESULTS } from '../constants.ts';
import { limitParam } from '../list/schema.ts';
import { cleanString, requiredText } from '../validation/fields.ts';

/** What the search finds (issue 13, docs/decisions/0023), in the order a tie between kinds is shown. */
export const SEARCH_KINDS = ['project', 'app', 'account', 'user', 'device', 'audit'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 50;

/**
 * GET /search (issue 13 "Find anything"). `q`: trimmed, 1–250 characters, any case (ids that are
 * case-sensitive — client ids, mpinIds — are also matched as typed). `project`: the current project
 * of the console, whose matches come first (it widens nothing: a project the caller cannot see is
 * simply not found). `limit`: results in all, 1–50, default 20.
 */
export const searchQuerySchema = z.object({
  q: requiredText(),
  project: cleanString(100).min(1, { error: 'validation.required' }).optional(),
  limit: limitParam(SEARCH_MAX_LIMIT, SEARCH_DEFAULT_LIMIT),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;
export type SearchParams = z.input<typeof searchQuerySchema>;

/** What every result carries: enough for one line of the palette and the link it opens. */
const resultBase = {
  /** The found thing's own id: project id, application id, account id, mpinId, or audit event id. */
  id: z.string(),
  /** The project the result belongs to (the page the console opens is in it). */
  projectId: z.string(),
  projectName: z.string(),
  /** false: the project is closed (read-only; spec §4), still found by those who can see it. */
  projectEnabled: z.boolean(),
  /** The line's main text: a name, an email, a device name, an audit event's action. */
  title: z.string(),
  /** The line's second text, a value as stored (never prose): a client id, the device's or event's user; null when there is none. */
  detail: z.string().nullable(),
  /** true when `q` is the whole id, client id, mpinId or identity (any case), not only its start. */
  exact: z.boolean(),
};

/** A project (by its id or the start of its name): the console opens its dashboard. */
export const projectResultSchema = z.object({ kind: z.literal('project'), ...resultBase });

/** An application (by its id, its client id, or the start of its name): the console opens its settings. */
export const appResultSchema = z.object({
  kind: z.literal('app'),
  ...resultBase,
  /** null before its keys are created. */
  clientId: z.string().nullable(),
  enabled: z.boolean(),
});

/**
 * A staff or service account (by its id, the start of its email or of a service account's name),
 * in a project where it holds a permission and the caller holds `accounts` — the current project
 * when it is one of them. The console opens the account's page in that project.
 */
export const accountResultSchema = z.object({
  kind: z.literal('account'),
  ...resultBase,
  /** null for a service account. */
  email: z.string().nullable(),
  serviceAccount: z.boolean(),
  active: z.boolean(),
});

/** An end user (issue 24: by their id, or their whole identity or its start): the console opens their page. */
export const userResultSchema = z.object({
  kind: z.literal('user'),
  ...resultBase,
  /** The email address or user id, lower-case. */
  identity: z.string(),
  blocked: z.boolean(),
});

/** A device (by its mpinId, or its owner's whole identity or its start): the console opens the devices list filtered by `userId`. */
export const deviceResultSchema = z.object({
  kind: z.literal('device'),
  ...resultBase,
  /** The owner's identity (email address or user id, lower-case): the devices list's userId filter. */
  userId: z.string(),
  deviceName: z.string(),
  revoked: z.boolean(),
  /** ISO 8601, UTC: when it was registered (the devices list's date range must include it). */
  createdAt: z.string(),
});

/** An audit event (by its id): the console opens the audit log filtered by `userId` on the day of `createdAt`. */
export const auditResultSchema = z.object({
  kind: z.literal('audit'),
  ...resultBase,
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  /** The end user's identity or the acting account; null for an event of nobody known. */
  userId: z.string().nullable(),
  scope: z.string(),
  eventStatus: z.enum(AUDIT_RESULTS),
  /** details.action (e.g. `sign_in`, `device.revoke`), when the event names one. */
  action: z.string().nullable(),
});

export const searchResultSchema = z.discriminatedUnion('kind', [
  projectResultSchema,
  appResultSchema,
  accountResultSchema,
  userResultSchema,
  deviceResultSchema,
  auditResultSchema,
]);
export type SearchResult = z.infer<typeof searchResultSchema>;

/** The answer: at most `limit` results, the current project's first, then whole-id matches, then by kind and title. */
export const searchResponseSchema = z.object({ results: z.array(searchResultSchema) });
export type SearchResponse = z.infer<typeof searchResponseSchema>;
