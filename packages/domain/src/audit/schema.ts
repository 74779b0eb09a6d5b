import { z } from 'zod';
import { AUDIT_RESULTS, SCOPES } from '../constants.ts';
import { declareRangedList } from '../list/declare.ts';
import { rangedListResponseSchema } from '../list/ranged-list.ts';

/**
 * The scopes an audit event can have: spec §9's scope options for end-user events, and `console`
 * for what accounts do in the console or the API (revocations, settings; docs/decisions/0014).
 */
export const AUDIT_SCOPES = [...SCOPES, 'console'] as const;
export type AuditScope = (typeof AUDIT_SCOPES)[number];

/**
 * spec §3 "Audit event": createdAt, userID, deviceName, scope, eventStatus (spec §4 result values),
 * and the rest shown raw in the details: the id (time-ordered), address and its country, the
 * application's client id, the browser's user agent and the event's details (`action` and what it
 * concerned; never a secret). Times are ISO 8601 in UTC.
 */
export const auditEventSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  userID: z.string().nullable(),
  deviceName: z.string().nullable(),
  scope: z.string(),
  eventStatus: z.enum(AUDIT_RESULTS),
  ip: z.string().nullable(),
  country: z.string().nullable(),
  clientId: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/**
 * spec §7: GET projects/{project}/audit with userId, deviceName, fromDate, toDate, scope, result,
 * sort, direction, offset, limit (docs/decisions/0019); spec §9: by createdAt descending, in the
 * current month. userId: the whole identity or account, any case; deviceName: starting with the
 * text, any case; scope and result: one value each. An empty text filters nothing. country (issue
 * 10: a country of the dashboard's map opens its events): an ISO 3166-1 alpha-2 code (ZZ: no known
 * location), any case. action: details.action whole (issue 37). Its export (issue 9): the same filter and range as a file, always in
 * created-at order (a sort by a column that can be empty cannot be read in batches by seek).
 */
export const auditList = declareRangedList({
  sorts: ['createdAt', 'userId', 'deviceName', 'scope', 'result'],
  defaultSort: { sort: 'createdAt', direction: 'desc' },
  filters: {
    userId: { kind: 'text', match: 'exact', caseless: true },
    deviceName: { kind: 'text', match: 'prefix', caseless: true },
    scope: { kind: 'oneOf', values: AUDIT_SCOPES },
    result: { kind: 'oneOf', values: AUDIT_RESULTS },
    // Issue 37 (docs/decisions/0050): the dashboard's enrollment funnel opens its events by action
    // (`passkey.offer.shown`, `sign_in`, …), the whole action as details.action holds it.
    action: { kind: 'text', match: 'exact', caseless: false },
    country: {
      kind: 'text',
      match: 'exact',
      caseless: false,
      param: z
        .string()
        .regex(/^[A-Za-z]{2}$/, { error: 'validation.invalid_value' })
        .transform((c) => c.toUpperCase()),
    },
  },
});
export const auditListQuerySchema = auditList.query;
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
export type AuditListParams = z.input<typeof auditListQuerySchema>;

export const auditListSchema = rangedListResponseSchema(auditEventSchema);
export type AuditList = z.infer<typeof auditListSchema>;

export const auditExportQuerySchema = auditList.exportQuery;
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;
export type AuditExportParams = z.input<typeof auditExportQuerySchema>;
