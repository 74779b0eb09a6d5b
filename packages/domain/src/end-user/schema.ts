import { z } from 'zod';
import { declareRangedList } from '../list/declare.ts';
import { ALL_TIME_RANGE, rangedListResponseSchema } from '../list/ranged-list.ts';
import { deviceIdentitySchema } from '../device/schema.ts';

/** Issue 24: a person known to a project's issuer is active, or blocked (refused at sign-in) until unblocked. */
export const END_USER_STATUSES = ['active', 'blocked'] as const;
export type EndUserStatus = (typeof END_USER_STATUSES)[number];

/**
 * One of a project's end users (issue 24 "Users in the console"): `id` is their stable subject (the
 * `sub` of their ID tokens), `identity` their email address or user ID (spec §3 identityType), as the
 * devices list and the audit log name them. Times are ISO 8601 in UTC.
 */
export const endUserSchema = z.object({
  id: z.string(),
  identity: z.string(),
  identityType: z.enum(['email', 'alphanumeric']),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  activeDevices: z.number().int(),
  status: z.enum(END_USER_STATUSES),
  blockedAt: z.string().nullable(),
});
export type EndUser = z.infer<typeof endUserSchema>;

/**
 * GET projects/{project}/users: every user by default (no creation range unless asked: ALL_TIME_RANGE,
 * docs/decisions/0038), newest first; identity: starting with the text, any case; status. Seek
 * paging and capped totals as every ranged list, and its export.
 */
export const endUserList = declareRangedList({
  sorts: ['createdAt', 'identity', 'lastSignInAt'],
  defaultSort: { sort: 'createdAt', direction: 'desc' },
  filters: {
    identity: { kind: 'text', match: 'prefix', caseless: true },
    status: { kind: 'oneOf', values: END_USER_STATUSES },
  },
  range: ALL_TIME_RANGE,
});
export const endUserListQuerySchema = endUserList.query;
export type EndUserListQuery = z.infer<typeof endUserListQuerySchema>;
export type EndUserListParams = z.input<typeof endUserListQuerySchema>;
export const endUserListSchema = rangedListResponseSchema(endUserSchema);
export type EndUserList = z.infer<typeof endUserListSchema>;
export const endUserExportQuerySchema = endUserList.exportQuery;

/** An open session of the user at the project's issuer: `id` names it for ending it (not its cookie). */
export const endUserSessionSchema = z.object({
  id: z.string(),
  startedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** The passkey the session was started with, when one was (its name and id). */
  deviceName: z.string().nullable(),
  mpinId: z.string().nullable(),
  /**
   * The applications signed in through it: client id and the application's name (null: none of the
   * project's now, or the end user's account page, ACCOUNT_CLIENT_ID).
   */
  applications: z.array(z.object({ clientId: z.string(), name: z.string().nullable() })),
});
export type EndUserSession = z.infer<typeof endUserSessionSchema>;

/**
 * Issue 37, docs/decisions/0051: how the person can get back in. `passkeys`: their active passkeys
 * and `syncedPasskeys` how many of them their authenticator backs up (docs/decisions/0050);
 * `recoveryCodesLeft`: unused codes of their set (null: they never made one); `emailRecoveryUntil`:
 * an email recovery under way waits until then (null: none).
 */
export const endUserRecoverySchema = z.object({
  passkeys: z.number().int(),
  /** Of those, the ones their authenticator backs up (synced, docs/decisions/0050's backup flags); unknown for passkeys made before the flags were stored. */
  syncedPasskeys: z.number().int(),
  recoveryCodesLeft: z.number().int().nullable(),
  recoveryCodesCreatedAt: z.string().nullable(),
  emailRecoveryUntil: z.string().nullable(),
});
export type EndUserRecovery = z.infer<typeof endUserRecoverySchema>;

/** What an import brought of a person (issue 37, docs/decisions/0052): a display name and the team's own id for them. */
export const endUserProfileSchema = z.object({ name: z.string().nullable(), externalId: z.string().nullable() });

/** The user's page: the user, every passkey of theirs (newest first), their open sessions, their recovery state. */
export const endUserDetailSchema = endUserSchema.extend({
  devices: z.array(deviceIdentitySchema),
  sessions: z.array(endUserSessionSchema),
  recovery: endUserRecoverySchema,
  profile: endUserProfileSchema,
});

/**
 * POST …/users/{user}/reenrollment-link (issue 37): a one-time link that lets the person create a
 * passkey on the device that opens it, with no other proof; shown once (only its keyed hash is kept).
 */
export const reenrollmentLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type ReenrollmentLink = z.infer<typeof reenrollmentLinkSchema>;
export type EndUserDetail = z.infer<typeof endUserDetailSchema>;

/** What ending sessions did: how many ended (each with its applications' back-channel logout notices). */
export const sessionsEndedSchema = z.object({ ended: z.number().int() });
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;

/**
 * Art. 15/20 GDPR: everything held about the user as one JSON document — the user, their passkeys,
 * open sessions and every audit event that names them (oldest first).
 */
export const endUserDataSchema = z.object({
  exportedAt: z.string(),
  projectId: z.string(),
  user: endUserSchema,
  profile: endUserProfileSchema,
  devices: z.array(deviceIdentitySchema),
  sessions: z.array(endUserSessionSchema),
  events: z.array(z.record(z.string(), z.unknown())),
});
export type EndUserData = z.infer<typeof endUserDataSchema>;

/** What an erasure answers: the user is gone; their audit events now name them by `pseudonym`. */
export const endUserErasedSchema = z.object({ id: z.string(), deleted: z.literal(true), pseudonym: z.string() });
export type EndUserErased = z.infer<typeof endUserErasedSchema>;
