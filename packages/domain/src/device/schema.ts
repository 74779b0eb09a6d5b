import { z } from 'zod';
import { REVOCATION_REASON } from '../constants.ts';
import { listQuerySchema, queryBoolean } from '../list/schema.ts';
import { cursorParam, dateParam, rangedListResponseSchema, refineDateRange } from '../list/ranged-list.ts';
import { text } from '../validation/fields.ts';

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

export const DEVICE_SORT_FIELDS = ['createdAt', 'userId', 'deviceName', 'ip', 'revoked'] as const;
export type DeviceSortField = (typeof DEVICE_SORT_FIELDS)[number];
/** spec §9 "Default sorts": devices by createdAt descending. The server's default and the console's. */
export const DEVICE_LIST_DEFAULT_SORT = { sort: 'createdAt', direction: 'desc' } as const satisfies {
  sort: DeviceSortField;
  direction: 'asc' | 'desc';
};

/**
 * spec §7: GET projects/{project}/mpinids with userId, revoked, deviceName, ip, fromDate, toDate,
 * sort, direction, offset, limit (docs/decisions/0019 for the matching rules). userId: the whole
 * identity, any case; deviceName and ip: starting with the text (deviceName in any case). An empty
 * text filters nothing. fromDate / toDate: see `resolveDateRange` (default: the current month).
 */
export const deviceListQuerySchema = listQuerySchema(DEVICE_SORT_FIELDS, DEVICE_LIST_DEFAULT_SORT)
  .extend({
    userId: text().optional(),
    revoked: queryBoolean().optional(),
    deviceName: text().optional(),
    ip: text().optional(),
    fromDate: dateParam().optional(),
    toDate: dateParam().optional(),
    cursor: cursorParam().optional(),
  })
  .superRefine(refineDateRange);
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;
export type DeviceListParams = z.input<typeof deviceListQuerySchema>;

export const deviceListSchema = rangedListResponseSchema(deviceIdentitySchema);
export type DeviceList = z.infer<typeof deviceListSchema>;
