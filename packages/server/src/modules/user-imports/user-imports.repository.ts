import type { ImportRefusal, UserImport } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { iso } from '../../db/rows.ts';

// user_imports' and user_import_refusals' one owner (issue 37, docs/decisions/0052).

/** At most this many refused lines are kept for the report; the count goes on. */
export const REFUSALS_KEPT = 10_000;
/** A running import not written for this long was cut off (a server stop): it is answered as failed. */
export const STALLED_AFTER_MS = 2 * 60 * 1000;

interface ImportRow {
  id: string;
  format: 'jsonl' | 'csv';
  status: UserImport['status'];
  lines: number;
  imported: number;
  unchanged: number;
  refused: number;
  failure: string | null;
  startedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = `id, format, status, lines, imported, unchanged, refused, failure, started_at AS "startedAt", updated_at AS "updatedAt", finished_at AS "finishedAt"`;

function fromRow(r: ImportRow, now: Date): UserImport {
  const stalled = r.status === 'running' && now.getTime() - new Date(r.updatedAt).getTime() > STALLED_AFTER_MS;
  return {
    id: r.id,
    format: r.format,
    status: stalled ? 'failed' : r.status,
    lines: r.lines,
    imported: r.imported,
    unchanged: r.unchanged,
    refused: r.refused,
    failure: stalled ? 'stopped: the server stopped while importing; the lines before were imported, import the file again' : r.failure,
    startedAt: iso(r.startedAt),
    finishedAt: r.finishedAt && iso(r.finishedAt),
  };
}

export async function insertImport(db: Db, p: { projectId: string; id: string; format: string; startedBy: string; now: Date }): Promise<void> {
  await db.query(
    `INSERT INTO user_imports (project_id, id, format, status, started_by, started_at, updated_at) VALUES ($1, $2, $3, 'running', $4, $5, $5)`,
    [p.projectId, p.id, p.format, p.startedBy, p.now],
  );
}

/** Adds a batch's counts and its refused lines (those beyond REFUSALS_KEPT counted only). */
export async function recordBatch(
  tx: Db,
  p: { projectId: string; id: string; lines: number; imported: number; unchanged: number; refusals: readonly ImportRefusal[]; now: Date },
): Promise<void> {
  const { rows } = await tx.query<{ refused: number }>(
    `UPDATE user_imports SET lines = lines + $3, imported = imported + $4, unchanged = unchanged + $5, refused = refused + $6, updated_at = $7
      WHERE project_id = $1 AND id = $2 RETURNING refused - $6 AS refused`,
    [p.projectId, p.id, p.lines, p.imported, p.unchanged, p.refusals.length, p.now],
  );
  const keep = p.refusals.slice(0, Math.max(0, REFUSALS_KEPT - (rows[0]?.refused ?? 0)));
  if (keep.length === 0) return;
  await tx.query(
    `INSERT INTO user_import_refusals (project_id, import_id, line, reason, message)
     SELECT $1, $2, r.line, r.reason, r.message FROM unnest($3::int[], $4::text[], $5::text[]) AS r(line, reason, message)`,
    [p.projectId, p.id, keep.map((r) => r.line), keep.map((r) => r.reason), keep.map((r) => r.message)],
  );
}

export async function finishImport(db: Db, p: { projectId: string; id: string; failure: string | null; now: Date }): Promise<void> {
  await db.query(`UPDATE user_imports SET status = $3, failure = $4, updated_at = $5, finished_at = $5 WHERE project_id = $1 AND id = $2`, [
    p.projectId,
    p.id,
    p.failure === null ? 'done' : 'failed',
    p.failure,
    p.now,
  ]);
}

export async function findImport(db: Db, projectId: string, id: string, now: Date): Promise<UserImport | null> {
  const { rows } = await db.query<ImportRow>(`SELECT ${COLUMNS} FROM user_imports WHERE project_id = $1 AND id = $2`, [projectId, id]);
  return rows[0] ? fromRow(rows[0], now) : null;
}

/** The newest imports first (user_imports_started_idx). */
export async function latestImports(db: Db, projectId: string, now: Date, limit = 20): Promise<UserImport[]> {
  const { rows } = await db.query<ImportRow>(`SELECT ${COLUMNS} FROM user_imports WHERE project_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2`, [
    projectId,
    limit,
  ]);
  return rows.map((r) => fromRow(r, now));
}

export async function refusalsOf(db: Db, projectId: string, id: string): Promise<ImportRefusal[]> {
  const { rows } = await db.query<ImportRefusal>(
    'SELECT line, reason, message FROM user_import_refusals WHERE project_id = $1 AND import_id = $2 ORDER BY line',
    [projectId, id],
  );
  return rows;
}
