import { z } from 'zod';
import { REVOCATION_REASON } from '../constants.ts';
import { declareRangedList } from '../list/declare.ts';
import { rangedListResponseSchema } from '../list/ranged-list.ts';

/** spec §7 "Devices": POST projects/{project}/mpinids/{mpinId}/revocation; spec §9: the one reason is PORTAL_REVOKE. */
export const revocationBodySchema = z.object({
  reason: z.literal(REVOCATION_REASON, { error: 'validation.invalid_value' }),
});
export type RevocationBody = z.input<typeof revocationBodySchema>;

/** spec §4 "Device": Active -> Revoked, one way; the answer says which device is now revoked. */
export const revocationSchema = z.object({
  mpinId: z.string(),
  revoked: z.literal(true),
});
export type Revocation = z.infer<typeof revocationSchema>;

/**
 * spec §3 "Device identity (registration)": mpinId, userId (the owner's identity: their email
 * address or user id), deviceName, ip, createdAt, revoked (shown Active / Revoked); and what the
 * details show beyond it: the country of the registration address, the last use, when it was revoked.
 * Times are ISO 8601 in UTC.
 */
export const deviceIdentitySchema = z.object({
  mpinId: z.string(),
  userId: z.string(),
  deviceName: z.string(),
  ip: z.string().nullable(),
  /** ISO 3166-1 alpha-2 of `ip` at registration, ZZ unknown; null for devices registered before countries were kept. */
  country: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revoked: z.boolean(),
  revokedAt: z.string().nullable(),
});
export type DeviceIdentity = z.infer<typeof deviceIdentitySchema>;

/**
 * spec §7: GET projects/{project}/mpinids with userId, revoked, deviceName, ip, fromDate, toDate,
 * sort, direction, offset, limit (docs/decisions/0019 for the matching rules); spec §9: by createdAt
 * descending, in the current month. userId: the whole identity, any case; deviceName and ip:
 * starting with the text (deviceName in any case). An empty text filters nothing. Its export (issue
 * 9): the same filter and range as a file, in created-at order (newest first unless direction=asc).
 */
export const deviceList = declareRangedList({
  sorts: ['createdAt', 'userId', 'deviceName', 'ip', 'revoked'],
  defaultSort: { sort: 'createdAt', direction: 'desc' },
  filters: {
    userId: { kind: 'text', match: 'exact', caseless: true },
    deviceName: { kind: 'text', match: 'prefix', caseless: true },
    ip: { kind: 'text', match: 'prefix', caseless: false },
    revoked: { kind: 'yesNo' },
  },
});
export const deviceListQuerySchema = deviceList.query;
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;
export type DeviceListParams = z.input<typeof deviceListQuerySchema>;

export const deviceListSchema = rangedListResponseSchema(deviceIdentitySchema);
export type DeviceList = z.infer<typeof deviceListSchema>;

export const deviceExportQuerySchema = deviceList.exportQuery;
export type DeviceExportQuery = z.infer<typeof deviceExportQuerySchema>;
export type DeviceExportParams = z.input<typeof deviceExportQuerySchema>;

/** The most devices one call of the bulk revocation revokes (one transaction each call). */
export const BULK_REVOCATION_MAX_LIMIT = 500;

/**
 * The devices a bulk revocation is about: the devices list's filter (userId, deviceName, ip and
 * the creation range, default the current month), active devices only. No other key is taken: a
 * filter the server would not honour (e.g. `revoked`, `sort`) is refused rather than ignored, since
 * ignoring it would revoke more than the caller saw.
 */
export const deviceFilterSchema = deviceList.filterOnly(['userId', 'deviceName', 'ip']);
export type DeviceFilter = z.infer<typeof deviceFilterSchema>;

/**
 * POST projects/{project}/mpinids/revocations (issue 9 "Beyond the spec", docs/decisions/0019
 * "Bulk revocation"): revoke up to `limit` active devices matching `filter`, each as the single
 * revocation does it. `limit: 0` revokes nothing and answers the count (the confirm's number).
 * `expectedCount`, required when `limit` > 0, is the count the person confirmed: when more devices
 * match now, nothing is revoked (409). The caller repeats with the same body until `remaining` is 0.
 */
export const bulkRevocationBodySchema = z
  .object({
    reason: z.literal(REVOCATION_REASON, { error: 'validation.invalid_value' }),
    filter: deviceFilterSchema,
    limit: z
      .number({ error: 'validation.not_a_number' })
      .int({ error: 'validation.not_a_number' })
      .min(0, { error: 'validation.out_of_range' })
      .max(BULK_REVOCATION_MAX_LIMIT, { error: 'validation.out_of_range' }),
    expectedCount: z
      .number({ error: 'validation.not_a_number' })
      .int({ error: 'validation.not_a_number' })
      .min(0, { error: 'validation.out_of_range' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'validation.out_of_range' })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.limit > 0 && body.expectedCount === undefined) ctx.addIssue({ code: 'custom', path: ['expectedCount'], message: 'validation.required' });
  });
export type BulkRevocationBody = z.input<typeof bulkRevocationBodySchema>;

/** What one call of the bulk revocation did: devices revoked by it, and active devices still matching after it. */
export const bulkRevocationSchema = z.object({
  revoked: z.number().int().describe('Devices this call revoked'),
  remaining: z.number().int().describe('Active devices that still match the filter; call again until 0'),
});
export type BulkRevocation = z.infer<typeof bulkRevocationSchema>;

/** The longest name a person may give their passkey (their account page, issue 24). */
export const PASSKEY_NAME_MAX = 64;

/**
 * A passkey's name as its owner typed it, trimmed; null when it is empty, longer than
 * PASSKEY_NAME_MAX characters, or holds a control or format character (a bidi override would show
 * the name reversed).
 */
export function passkeyNameOf(typed: string): string | null {
  const name = typed.trim();
  if (name.length === 0 || [...name].length > PASSKEY_NAME_MAX || /[\p{Cc}\p{Cf}]/u.test(name)) return null;
  return name;
}
