import { z } from 'zod';
import { declareList } from '../list/declare.ts';
import { listResponseSchema } from '../list/schema.ts';
import { cleanString, requiredEmail, requiredText } from '../validation/fields.ts';
import { isGrantablePermission } from '../permissions/catalogue.ts';

// spec §3 "Account", "Service account"; §5 staff and service account rules; §7 Accounts; issue 12.

/** A service account's token as the console shows it (never the token itself: shown once). */
export const serviceTokenSchema = z.object({
  prefix: z.string().describe('The first characters of the token, to tell tokens apart (e.g. lks_a1b2c3)'),
  createdAt: z.string(),
  expiresAt: z.string().nullable().describe('When the token stops working; null: never'),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ServiceToken = z.infer<typeof serviceTokenSchema>;

export const accountSchema = z.object({
  id: z.string(),
  /** A staff account's address (null for a service account). */
  email: z.string().nullable(),
  /** A service account's name (empty for a staff account). */
  name: z.string(),
  active: z.boolean(),
  isServiceAccount: z.boolean(),
  /** The account's permissions on this project, and its global ones. */
  permissions: z.array(z.string()),
  /** A service account's current token (null: none, revoked); absent for staff. */
  token: serviceTokenSchema.nullable().optional(),
  /** A staff account invited by email that has not signed in yet. */
  invited: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

/** spec §7: GET projects/{project}/accounts with email (starting with, any case) and active; spec §9: email ascending. */
export const accountList = declareList({
  sorts: ['email'],
  defaultSort: { sort: 'email', direction: 'asc' },
  filters: {
    email: { kind: 'text', match: 'prefix', caseless: true },
    active: { kind: 'yesNo' },
  },
});
export const accountListQuerySchema = accountList.query;
export type AccountListQuery = z.infer<typeof accountListQuerySchema>;
export type AccountListParams = z.input<typeof accountListQuerySchema>;
export const accountListSchema = listResponseSchema(accountSchema);
export type AccountList = z.infer<typeof accountListSchema>;

/** spec §5: at least one permission, each from the catalogue (spec §6). */
const permissionList = () =>
  z
    .array(cleanString(120).refine(isGrantablePermission, { error: 'validation.invalid_value' }))
    .min(1, { error: 'validation.at_least_one_permission' })
    .max(50, { error: 'validation.invalid_value' });

/** spec §7 POST projects/{project}/accounts; spec §5: email required and valid, at least one permission. */
export const staffAccountCreateSchema = z.object({
  email: requiredEmail(),
  permissions: permissionList(),
  active: z.boolean({ error: 'validation.invalid_value' }).default(true),
});
export type StaffAccountCreate = z.infer<typeof staffAccountCreateSchema>;

/** spec §7 PUT projects/{project}/accounts/{id}: the permissions on this project (and global ones) and the status; the email is fixed. */
export const accountUpdateSchema = z.object({
  permissions: permissionList(),
  active: z.boolean({ error: 'validation.invalid_value' }),
});
export type AccountUpdate = z.infer<typeof accountUpdateSchema>;

/** spec §7 POST projects/{project}/serviceaccounts with name, active, permissions; issue 12: an optional expiry of the token. */
export const serviceAccountCreateSchema = z.object({
  name: requiredText(),
  permissions: permissionList(),
  active: z.boolean({ error: 'validation.invalid_value' }).default(true),
  expiresAt: z.iso.datetime({ offset: true, error: 'validation.invalid_date' }).nullable().optional(),
});
export type ServiceAccountCreate = z.infer<typeof serviceAccountCreateSchema>;

/** The new token, shown once (spec §4 "one-time secrets"). */
export const serviceAccountTokenSchema = z.object({
  id: z.string(),
  token: z
    .string()
    .nullable()
    .describe(
      'The token: send it as Authorization: Bearer <token>. Shown once, stored hashed. Null for an account created inactive: it gets its first token once activated.',
    ),
});
export type ServiceAccountToken = z.infer<typeof serviceAccountTokenSchema>;

/** Rotating a token: a new expiry (or none). */
export const tokenRotateSchema = z.object({
  expiresAt: z.iso.datetime({ offset: true, error: 'validation.invalid_date' }).nullable().optional(),
});

export const accountCreatedSchema = z.object({ id: z.string() });
