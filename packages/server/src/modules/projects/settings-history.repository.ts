import { SETTINGS_ACTIONS, SETTINGS_PAGE_FIELDS, type SettingsAction, type SettingsPage } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';

export interface SettingsEventRow {
  id: string;
  createdAt: Date;
  action: SettingsAction;
  account: string | null;
  changes: Record<string, unknown>;
}

/**
 * The settings actions as SQL literals (constants of the domain, never input): written out, so the
 * planner sees the partial index's predicate (migration 0017) in the query.
 */
const ACTIONS_SQL = SETTINGS_ACTIONS.map((a) => `'${a.replaceAll("'", "''")}'`).join(', ');

/**
 * A project's settings events that changed a field of `page`, newest first, before `before` (the
 * last event of the page before), `limit` of them: one walk of the settings index, the page's
 * fields checked in each event's changes.
 */
export async function listSettingsEvents(
  db: Db,
  projectId: string,
  page: SettingsPage,
  before: { at: Date; id: string } | null,
  limit: number,
): Promise<SettingsEventRow[]> {
  const fields = SETTINGS_PAGE_FIELDS[page];
  const params: unknown[] = [projectId, fields, fields.map((f) => `${f}.%`), limit];
  const seek = before ? `AND (created_at, id) < ($${params.push(before.at)}, $${params.push(before.id)}::uuid)` : '';
  const { rows } = await db.query<SettingsEventRow>(
    `SELECT id::text AS id, created_at AS "createdAt", details ->> 'action' AS action, user_id AS account, details -> 'changes' AS changes
       FROM audit_events
      WHERE project_id = $1 AND scope = 'console' AND (details ->> 'action') IN (${ACTIONS_SQL}) ${seek}
        AND EXISTS (SELECT 1 FROM jsonb_object_keys(CASE WHEN jsonb_typeof(details -> 'changes') = 'object' THEN details -> 'changes' END) AS k
                     WHERE k = ANY($2) OR k LIKE ANY($3))
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    params,
  );
  return rows;
}
