import {
  DomainError,
  isFieldOfPage,
  SETTINGS_HISTORY_PAGE_SIZE,
  type SettingsChange,
  type SettingsHistory,
  type SettingsHistoryQuery,
} from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { listSettingsEvents } from './settings-history.repository.ts';

const encodeCursor = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at = '', id = ''] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(at);
  if (Number.isNaN(date.getTime()) || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
    throw new DomainError('validation_failed', 'Invalid value', [{ field: 'cursor', code: 'validation.invalid_value', message: 'Invalid value' }]);
  }
  return { at: date, id };
}

/**
 * Issue 11 "Settings history", read from the audit log (docs/decisions/0021): the changes each save
 * of a settings page recorded, newest first, each limited to that page's fields. The guard has
 * checked `cst:<C>:*`; a closed project's history is read like any other.
 */
export function createSettingsHistory({ db }: { db: Db }) {
  return {
    async list(projectId: string, q: SettingsHistoryQuery): Promise<SettingsHistory> {
      const rows = await listSettingsEvents(db, projectId, q.page, q.cursor ? decodeCursor(q.cursor) : null, SETTINGS_HISTORY_PAGE_SIZE + 1);
      const shown = rows.slice(0, SETTINGS_HISTORY_PAGE_SIZE);
      const last = shown.at(-1);
      return {
        list: shown.map((row): SettingsChange => ({
          id: row.id,
          createdAt: row.createdAt.toISOString(),
          action: row.action,
          account: row.account,
          changes: Object.fromEntries(Object.entries(row.changes).filter(([field]) => isFieldOfPage(field, q.page))) as SettingsChange['changes'],
        })),
        nextCursor: rows.length > SETTINGS_HISTORY_PAGE_SIZE && last ? encodeCursor(last.createdAt, last.id) : null,
      };
    },
  };
}

export type SettingsHistoryService = ReturnType<typeof createSettingsHistory>;
