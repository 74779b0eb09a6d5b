import type { SearchKind, SearchReach, SearchResult } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { escapeLike } from '../../db/list-page.ts';

/** One search, as every kind's statement reads it (docs/decisions/0023). */
export interface SearchTerms {
  /** q as typed (trimmed): case-sensitive ids (client ids, mpinIds) are matched this way. */
  text: string;
  /** q lower-cased: names, emails and identities are stored lower-case in their key columns. */
  lower: string;
  /** The current project, searched first; null when the palette was opened outside a project. */
  current: string | null;
  /** Most rows each part of a statement answers (the service ranks and cuts them to the limit). */
  limit: number;
}

/** Client ids are 22 random characters: a start shorter than this is not an id being typed, and would match too many. */
export const CLIENT_ID_PREFIX_MIN = 8;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A statement with named parameters (`$lower`, `$projects`, …) bound to positional ones: only the
 * names the text uses are sent, so each kind's statement takes the values it needs from one set.
 */
function bound(sql: string, values: Record<string, unknown>): [string, unknown[]] {
  const names: string[] = [];
  const text = sql.replace(/\$([a-z]+)/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for $${name}`);
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return [text, names.map((n) => values[n])];
}

/** The row's project is one the kind may be found in: any (a global permission), or one of `$projects`. */
const reachOf = (reach: SearchReach, column: string) => (reach.everyProject ? 'true' : `${column} = ANY($projects::text[])`);

/**
 * A kind's "starts with" matches in the projects `reach` allows, at most `$limit` rows, by `order`
 * (columns of the result). A caller of listed projects: one seek of the project-led index per
 * project, in one statement (LATERAL), the current project's rows kept first. A caller reaching
 * every project: the current project's seek (so its matches are never crowded out) and one seek of
 * the table-wide index.
 */
function startsWith(reach: SearchReach, current: string | null, order: string, inProject: (project: string) => string, everywhere: string): string {
  if (!reach.everyProject) {
    return `(SELECT m.* FROM unnest($projects::text[]) AS r(project_id) CROSS JOIN LATERAL (${inProject('r.project_id')} LIMIT $limit) AS m
              ORDER BY ${current ? 'm."projectId" = $current DESC, ' : ''}${order} LIMIT $limit)`;
  }
  const all = `(${everywhere} LIMIT $limit)`;
  return current ? `(${inProject('$current')} LIMIT $limit) UNION ALL ${all}` : all;
}

/** Names are ordered lower-cased in byte order, as their indexes are. */
const BY_TITLE = 'lower(m.title) COLLATE "C", m.id';

/**
 * A kind's statement: its parts (each answering the result's own columns, so no part's rows are
 * joined again by key afterwards, which the planner may answer by reading the whole table), then
 * `more` columns (per row of the answer, after every part's limit) and the project's name and state.
 */
const withProject = (parts: string[], more = '') => `
  SELECT m.*, ${more} p.name AS "projectName", p.enabled AS "projectEnabled"
    FROM (${parts.join('\n UNION ALL ')}) AS m
    JOIN projects p ON p.id = m."projectId"`;

const PROJECT_COLUMNS = `'project' AS kind, p.id, p.id AS "projectId", p.name AS title, NULL AS detail`;
const APP_COLUMNS = `'app' AS kind, a.id, a.project_id AS "projectId", a.name AS title, a.enabled`;
// Read for the rows answered only, not for every match a project's seek passes.
const CLIENT_ID = '(SELECT k.client_id FROM application_keys k WHERE k.project_id = m."projectId" AND k.application_id = m.id)';
const ACCOUNT_COLUMNS = `'account' AS kind, a.id, coalesce(a.email, a.name) AS title, CASE WHEN a.email IS NOT NULL THEN nullif(a.name, '') END AS detail,
  (a.id IN ($text, $lower) OR a.sort_key = $lower) AS exact, a.email, a.is_service_account AS "serviceAccount", a.active`;
const USER_COLUMNS = `'user' AS kind, u.id, u.project_id AS "projectId", u.identity_key AS title, NULL AS detail,
  (u.id = $text OR u.identity_key = $lower) AS exact, u.identity_key AS identity, u.blocked_at IS NOT NULL AS blocked`;
// The owner's identity is the person's (docs/decisions/0046): a device is found by it through project_users.
const DEVICE_OWNER = '(SELECT o.identity_key FROM project_users o WHERE o.project_id = d.project_id AND o.id = d.user_id)';
const deviceColumns = (owner: string) => `'device' AS kind, d.id, d.project_id AS "projectId", d.name AS title, ${owner} AS detail,
  (d.id = $text OR ${owner} = $lower) AS exact, ${owner} AS "userId", d.name AS "deviceName", d.revoked, d.created_at AS "createdAt"`;
// An event's user as the audit log shows it: the person's identity while they exist (docs/decisions/0046).
const EVENT_USER = `coalesce((SELECT o.identity_key COLLATE "default" FROM project_users o WHERE o.project_id = e.project_id AND o.id = e.user_id), e.user_id)`;
const OWNED_DEVICES = `SELECT ${deviceColumns('u.identity_key')} FROM project_users u JOIN devices d ON d.project_id = u.project_id AND d.user_id = u.id`;

/** The statement of each kind, or null when `q` cannot be one (an audit event's id is a UUID). */
const STATEMENTS: Record<SearchKind, (t: SearchTerms, reach: SearchReach) => string | null> = {
  // Its id, or the start of its name.
  project: (t, reach) =>
    withProject([
      `SELECT ${PROJECT_COLUMNS}, true AS exact FROM projects p WHERE p.id IN ($text, $lower) AND ${reachOf(reach, 'p.id')}`,
      startsWith(
        reach,
        t.current,
        BY_TITLE,
        (project) => `SELECT ${PROJECT_COLUMNS}, false AS exact FROM projects p WHERE p.id = ${project} AND lower(p.name) COLLATE "C" LIKE $prefix`,
        `SELECT ${PROJECT_COLUMNS}, false AS exact FROM projects p WHERE lower(p.name) COLLATE "C" LIKE $prefix ORDER BY lower(p.name) COLLATE "C", p.id`,
      ),
    ]),
  // Its id, its client id (or, from CLIENT_ID_PREFIX_MIN characters, its start), or the start of its name.
  app: (t, reach) =>
    withProject(
      [
        `SELECT ${APP_COLUMNS}, true AS exact FROM applications a WHERE a.id IN ($text, $lower) AND ${reachOf(reach, 'a.project_id')}`,
        `(SELECT ${APP_COLUMNS}, k.client_id = $text AS exact FROM application_keys k JOIN applications a ON a.project_id = k.project_id AND a.id = k.application_id
         WHERE ${t.text.length >= CLIENT_ID_PREFIX_MIN ? `k.client_id COLLATE "C" LIKE $caseprefix` : 'k.client_id = $text'}
           AND ${reachOf(reach, 'a.project_id')} LIMIT $limit)`,
        startsWith(
          reach,
          t.current,
          BY_TITLE,
          (project) =>
            `SELECT ${APP_COLUMNS}, false AS exact FROM applications a
            WHERE a.project_id = ${project} AND a.name_key COLLATE "C" LIKE $prefix ORDER BY a.name_key COLLATE "C", a.id`,
          `SELECT ${APP_COLUMNS}, false AS exact FROM applications a
          WHERE a.name_key COLLATE "C" LIKE $prefix ORDER BY a.name_key COLLATE "C", a.id`,
        ),
      ],
      `${CLIENT_ID} AS detail, ${CLIENT_ID} AS "clientId",`,
    ),
  // Its id, or the start of its email (a service account: of its name), in a project where it holds
  // a permission (an account holding global permissions only has no page in any project).
  account: (t, reach) =>
    withProject([
      `SELECT DISTINCT ${ACCOUNT_COLUMNS}, ap.project_id AS "projectId" FROM accounts a JOIN account_permissions ap ON ap.account_id = a.id
        WHERE a.id IN ($text, $lower) AND ap.project_id IS NOT NULL AND ${reachOf(reach, 'ap.project_id')}`,
      startsWith(
        reach,
        t.current,
        BY_TITLE,
        (project) =>
          `SELECT ${ACCOUNT_COLUMNS}, ap.project_id AS "projectId"
             FROM (SELECT DISTINCT account_id, project_id FROM account_permissions WHERE project_id = ${project}) AS ap
             JOIN accounts a ON a.id = ap.account_id WHERE a.sort_key COLLATE "C" LIKE $prefix ORDER BY a.sort_key COLLATE "C", a.id`,
        `SELECT ${ACCOUNT_COLUMNS}, pick.project_id AS "projectId" FROM accounts a
           CROSS JOIN LATERAL (SELECT ap.project_id FROM account_permissions ap
                                WHERE ap.account_id = a.id AND ap.project_id IS NOT NULL ORDER BY ap.project_id LIMIT 1) AS pick
          WHERE a.sort_key COLLATE "C" LIKE $prefix ORDER BY a.sort_key COLLATE "C", a.id`,
      ),
    ]),
  // Its id (the subject), or their identity or the start of it (identity_key is byte-order, lower-case).
  user: (t, reach) =>
    withProject([
      `SELECT ${USER_COLUMNS} FROM project_users u WHERE u.id = $text AND ${reachOf(reach, 'u.project_id')}`,
      startsWith(
        reach,
        t.current,
        BY_TITLE,
        (project) =>
          `SELECT ${USER_COLUMNS} FROM project_users u WHERE u.project_id = ${project} AND u.identity_key LIKE $prefix ORDER BY u.identity_key, u.created_at, u.id`,
        `SELECT ${USER_COLUMNS} FROM project_users u WHERE u.identity_key LIKE $prefix ORDER BY u.identity_key, u.created_at, u.id`,
      ),
    ]),
  // Its mpinId, or its owner's identity or the start of it (identity_key is byte-order, lower-case):
  // the owners' index walked in order, each one's devices by devices_user_idx.
  device: (t, reach) =>
    withProject([
      `SELECT ${deviceColumns(DEVICE_OWNER)} FROM devices d WHERE d.id = $text AND ${reachOf(reach, 'd.project_id')}`,
      startsWith(
        reach,
        t.current,
        'm."userId", m."createdAt", m.id',
        (project) => `${OWNED_DEVICES} WHERE u.project_id = ${project} AND u.identity_key LIKE $prefix ORDER BY u.identity_key, d.created_at, d.id`,
        `${OWNED_DEVICES} WHERE u.identity_key LIKE $prefix ORDER BY u.identity_key, d.created_at, d.id`,
      ),
    ]),
  // Its id (a UUID): one seek of audit_events_id_idx per monthly partition.
  audit: (t, reach) =>
    UUID.test(t.lower)
      ? withProject([
          `SELECT 'audit' AS kind, e.id::text AS id, e.project_id AS "projectId", coalesce(e.details->>'action', e.scope) AS title,
                  ${EVENT_USER} AS detail, true AS exact, e.created_at AS "createdAt", ${EVENT_USER} AS "userId", e.scope,
                  e.event_status AS "eventStatus", e.details->>'action' AS action
             FROM audit_events e WHERE e.id = $lower::uuid AND ${reachOf(reach, 'e.project_id')}`,
        ])
      : null,
};

type Row = Omit<SearchResult, 'createdAt'> & { createdAt?: Date | string };

/** The statement and its values that find `kind` for `terms` within `reach` (null: q cannot be one); also what the bench EXPLAINs. */
export function searchStatement(kind: SearchKind, terms: SearchTerms, reach: SearchReach): [string, unknown[]] | null {
  const sql = STATEMENTS[kind](terms, reach);
  if (sql === null) return null;
  return bound(sql, {
    text: terms.text,
    lower: terms.lower,
    prefix: `${escapeLike(terms.lower)}%`,
    caseprefix: `${escapeLike(terms.text)}%`,
    current: terms.current,
    limit: terms.limit,
    projects: reach.projects,
  });
}

/** The matches of one kind, unranked (the service ranks every kind's together). */
export async function findMatches(db: Db, kind: SearchKind, terms: SearchTerms, reach: SearchReach): Promise<SearchResult[]> {
  const statement = searchStatement(kind, terms, reach);
  if (!statement) return [];
  const { rows } = await db.query<Row>(...statement);
  return rows.map(
    (r) => ('createdAt' in r && r.createdAt !== undefined ? { ...r, createdAt: new Date(r.createdAt).toISOString() } : r) as SearchResult,
  );
}
