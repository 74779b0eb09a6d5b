import { auditList, type AuditEvent } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { rangedListTable, type FilterCondition } from '../../db/list-kit.ts';
import { identityPseudonym } from '../../events/end-user-event.ts';
import { rangedListService } from '../../http/list-service.ts';
import { CREATED_AT_TEXT, type SeekColumn } from '../../db/ranged-list-page.ts';
import { iso } from '../../db/rows.ts';

// The audit log (spec §7 "Audit", docs/decisions/0019) on the list kit: the domain's declaration
// (auditList) read from the monthly partitions of audit_events.

// Every sort ends with the table's key order (migration 0010): created_at, then the time-ordered id.
const CREATED: SeekColumn = { column: 'created_at', text: CREATED_AT_TEXT, cast: 'timestamptz' };
const ID: SeekColumn = { column: 'id', text: 'id::text', cast: 'uuid' };
const KEY = 'project_id, created_at, id';

type AuditRow = Omit<AuditEvent, 'createdAt'> & { createdAt: Date };

/** An audit_events row as the domain's event. */
const auditEventFromRow = (r: AuditRow): AuditEvent => ({ ...r, createdAt: iso(r.createdAt) });

/**
 * The event's userID as the API shows it (docs/decisions/0046): an end user's event stores their id
 * (the sub), shown as their identity while they are a person of the project — one primary-key read
 * per row answered, never per row matched; anything else (a pseudonym, a console account) as stored.
 */
const USER_ID_SHOWN = `coalesce((SELECT u.identity_key COLLATE "default" FROM project_users u
    WHERE u.project_id = audit_events.project_id AND u.id = audit_events.user_id), audit_events.user_id)`;

/** The ids the userId filter asks for (one text[] value: text, lower case, pseudonym, project), the person's id read from the identity. */
const USER_IDS = `(($?::text[])[1:3] || ARRAY(SELECT u.id::text FROM project_users u
            WHERE u.project_id = ($?::text[])[4] AND u.identity_key = ($?::text[])[2]))`;

/**
 * The userId filter (spec §7: the whole identity or account, any case): the events of the person
 * with that identity (their id), those of it before it was a person's or of no person (its
 * pseudonym), a console account's (stored lower-case) and a sub or pseudonym typed as it is stored.
 * One `= ANY` of audit_events_user_idx; the person is read once (an InitPlan), not per event.
 */
const userFilter =
  (secretBox: SecretBox): FilterCondition =>
  (text, projectId) => ({
    sql: `user_id = ANY(${USER_IDS})`,
    value: [text, text.toLowerCase(), identityPseudonym(secretBox, projectId, text), projectId],
    // A page sorted by time reads each of these ids' events in order (audit_events_user_idx).
    oneOf: { column: 'user_id', values: USER_IDS },
  });

/**
 * Each sort is the column order of one index (the key, or migration 0014's (project_id, …,
 * created_at, id) on every partition), read forwards or backwards. userID and device name can be
 * null (console actions of no device), so those sorts page by offset only; userID sorts by what
 * is stored (a person's id groups their events; docs/decisions/0046). id is a uuid, read as its
 * text form by both drivers; not cast in the SELECT, so ORDER BY id stays the key's order.
 */
export const auditTableFor = (secretBox: SecretBox) =>
  rangedListTable(auditList, {
    table: 'audit_events',
    // Monthly partitions (docs/decisions/0019): a page's rows are read back from the range's months only.
    partitioned: true,
    key: KEY,
    select: `id, created_at AS "createdAt", ${USER_ID_SHOWN} AS "userID", device_name AS "deviceName", scope,
    event_status AS "eventStatus", ip, country, client_id AS "clientId", user_agent AS "userAgent", details`,
    fromRow: auditEventFromRow,
    filters: {
      userId: userFilter(secretBox),
      deviceName: 'device_key',
      scope: 'scope',
      result: 'event_status',
      action: "(details->>'action')",
      country: 'country',
    },
    sorts: {
      createdAt: { columns: [CREATED, ID], reads: KEY, seekable: true, alsoUnder: 'user_id' },
      userId: { columns: [{ column: 'user_id', text: 'user_id', cast: 'text' }, CREATED, ID], reads: `${KEY}, user_id`, seekable: false },
      deviceName: {
        columns: [{ column: 'device_key', text: 'device_key', cast: 'text' }, CREATED, ID],
        reads: `${KEY}, device_key`,
        seekable: false,
      },
      scope: { columns: [{ column: 'scope', text: 'scope', cast: 'text' }, CREATED, ID], reads: `${KEY}, scope`, seekable: true },
      result: {
        columns: [{ column: 'event_status', text: 'event_status', cast: 'text' }, CREATED, ID],
        reads: `${KEY}, event_status`,
        seekable: true,
      },
    },
  });

/** The CSV export's columns (docs/decisions/0019 "Export"): the list's, the rest of the event, details as JSON, the id last. */
export const AUDIT_CSV = [
  'createdAt',
  'userID',
  'deviceName',
  'scope',
  'eventStatus',
  'ip',
  'country',
  'clientId',
  'userAgent',
  'details',
  'id',
] as const;

export const createAuditListService = (deps: { db: Db; clock: Clock; secretBox: SecretBox }) =>
  rangedListService(auditTableFor(deps.secretBox), deps, { name: 'audit', csv: AUDIT_CSV });
export type AuditListService = ReturnType<typeof createAuditListService>;
