import { z } from 'zod';
import { REVOCATION_REASON } from '../constants.ts';

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
