import { z } from 'zod';
import { AUDIT_RESULTS, SCOPES } from '../constants.ts';
import { listQuerySchema, SORT_DIRECTIONS } from '../list/schema.ts';
import { exportFormatParam } from '../list/export.ts';
import { cursorParam, dateParam, rangedListResponseSchema, refineDateRange } from '../list/ranged-list.ts';
import { text } from '../validation/fields.ts';

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

export const AUDIT_SORT_FIELDS = ['createdAt', 'userId', 'deviceName', 'scope', 'result'] as const;
export type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];
/** spec §9 "Default sorts": audit by createdAt descending. The server's default and the console's. */
export const AUDIT_LIST_DEFAULT_SORT = { sort: 'createdAt', direction: 'desc' } as const satisfies {
  sort: AuditSortField;
  direction: 'asc' | 'desc';
};

/**
 * spec §7: GET projects/{project}/audit with userId, deviceName, fromDate, toDate, scope, result,
 * sort, direction, offset, limit (docs/decisions/0019). userId: the whole identity or account,
 * any case; deviceName: starting with the text, any case; scope and result: one value each. An
 * empty text filters nothing. fromDate / toDate: see `resolveDateRange` (default: the current month).
 * country (issue 10: a country of the dashboard's map opens its events): an ISO 3166-1 alpha-2 code
 * (ZZ: no known location), any case.
 */
const auditFilter = () => ({
  userId: text().optional(),
  deviceName: text().optional(),
  fromDate: dateParam().optional(),
  toDate: dateParam().optional(),
  scope: z.enum(AUDIT_SCOPES, { error: 'validation.invalid_value' }).optional(),
  result: z.enum(AUDIT_RESULTS, { error: 'validation.invalid_value' }).optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, { error: 'validation.invalid_value' })
    .transform((c) => c.toUpperCase())
    .optional(),
});
export const auditListQuerySchema = listQuerySchema(AUDIT_SORT_FIELDS, AUDIT_LIST_DEFAULT_SORT)
  .extend({ ...auditFilter(), cursor: cursorParam().optional() })
  .superRefine(refineDateRange);
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
export type AuditListParams = z.input<typeof auditListQuerySchema>;

export const auditListSchema = rangedListResponseSchema(auditEventSchema);
export type AuditList = z.infer<typeof auditListSchema>;

/**
 * GET projects/{project}/audit/export (issue 9, docs/decisions/0019 "Export"): the list's filter and
 * range (same parameters, same rules, default the current month), no paging, in `format` (csv or
 * jsonl). Always in created-at order, newest first unless `direction=asc`; `sort` is not a
 * parameter (a sort by a column that can be empty cannot be read in batches by seek).
 */
export const auditExportQuerySchema = z
  .object({
    format: exportFormatParam(),
    direction: z.enum(SORT_DIRECTIONS, { error: 'validation.invalid_value' }).default(AUDIT_LIST_DEFAULT_SORT.direction),
    ...auditFilter(),
  })
  .superRefine(refineDateRange);
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;
export type AuditExportParams = z.input<typeof auditExportQuerySchema>;
