import type { ImportRefusal, UserImport } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { iso } from '../../db/rows.ts';
import type { Actor } from '../../http/actor.ts';

// user_imports', user_import_chunks' and user_import_refusals' one owner (issue 37, docs/decisions/0052).

/** At most this many refused lines are kept for the report; the count goes on. */
export const REFUSALS_KEPT = 10_000;

interface ImportRow {
  id: string;
  format: 'jsonl' | 'csv';
  status: UserImport['status'];
  lines: number;
  total: number | null;
  imported: number;
  unchanged: number;
  refused: number;
  failure: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = `id, format, status, lines, total, imported, unchanged, refused, failure, started_at AS "startedAt", finished_at AS "finishedAt"`;

function fromRow(r: ImportRow): UserImport {
  return {
    id: r.id,
    format: r.format,
    status: r.status,
    lines: r.lines,
    total: r.total,
    imported: r.imported,
    unchanged: r.unchanged,
    refused: r.refused,
    failure: r.failure,
    startedAt: iso(r.startedAt),
    finishedAt: r.finishedAt && iso(r.finishedAt),
  };
}

/** Who started an import, as its audit event names them when the job ends (Actor less its permissions). */
export type ImportActor = Omit<Actor, 'permissions'>;

/** A new import whose file is being stored: its upload holds it until `leaseUntil` (renewed as the file arrives). */
export async function insertImport(
  db: Db,
  p: { projectId: string; id: string; format: string; csvHeader: string[] | null; actor: ImportActor; now: Date; leaseUntil: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO user_imports (project_id, id, format, status, csv_header, actor, started_by, started_at, updated_at, lease_until)
     VALUES ($1, $2, $3, 'uploading', $4, $5::jsonb, $6, $7, $7, $8)`,
    [p.projectId, p.id, p.format, p.csvHeader, JSON.stringify(p.actor), p.actor.accountId, p.now, p.leaseUntil],
  );
}

/** The upload is still under way: its lease renewed; false when the job is no longer uploading (its lease ran out, it failed). */
export async function renewUpload(db: Db, p: { projectId: string; id: string; now: Date; leaseUntil: Date }): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE user_imports SET lease_until = $4, updated_at = $3 WHERE project_id = $1 AND id = $2 AND status = 'uploading' RETURNING id`,
    [p.projectId, p.id, p.now, p.leaseUntil],
  );
  return rows.length > 0;
}

/** One stored chunk of the file (the upload's lease renewed with it); false when the job is no longer uploading. */
export async function insertChunk(
  db: Db,
  p: { projectId: string; id: string; seq: number; firstLine: number; body: string; tooLong: readonly number[]; now: Date; leaseUntil: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await renewUpload(tx, p))) return false;
    await tx.query(`INSERT INTO user_import_chunks (project_id, import_id, seq, first_line, body, too_long) VALUES ($1, $2, $3, $4, $5, $6::int[])`, [
      p.projectId,
      p.id,
      p.seq,
      p.firstLine,
      p.body,
      p.tooLong,
    ]);
    return true;
  });
}

/** The file is stored whole: the job waits for a worker, due at once; false when it is no longer uploading. */
export async function queueImport(db: Db, p: { projectId: string; id: string; total: number; now: Date }): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE user_imports SET status = 'queued', total = $3, lease_until = $4, updated_at = $4 WHERE project_id = $1 AND id = $2 AND status = 'uploading' RETURNING id`,
    [p.projectId, p.id, p.total, p.now],
  );
  return rows.length > 0;
}

/** A job taken by a worker: what its chunks are read with, and who its audit event names. */
export interface ClaimedImport {
  projectId: string;
  id: string;
  format: 'jsonl' | 'csv';
  csvHeader: string[] | null;
  actor: ImportActor;
  holder: string;
}

/**
 * Takes the oldest queued or running job whose lease is over (one queued now, one whose worker
 * stopped or died) for `holder` until `leaseUntil`; skips those another instance is taking.
 */
export async function claimImport(db: Db, p: { now: Date; leaseUntil: Date; holder: string }): Promise<ClaimedImport | null> {
  const { rows } = await db.query<Omit<ClaimedImport, 'holder'>>(
    `UPDATE user_imports u SET status = 'running', lease_until = $2, lease_holder = $3, updated_at = $1
       FROM (SELECT project_id, id FROM user_imports
              WHERE status IN ('queued', 'running') AND lease_until <= $1
              ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED) due
      WHERE u.project_id = due.project_id AND u.id = due.id
      RETURNING u.project_id AS "projectId", u.id, u.format, u.csv_header AS "csvHeader", u.actor`,
    [p.now, p.leaseUntil, p.holder],
  );
  const row = rows[0];
  return row ? { ...row, holder: p.holder } : null;
}

/**
 * Inside a chunk's transaction: the job still this worker's (its row locked until commit, its lease
 * renewed), so no other instance writes a chunk of it meanwhile; false when another took it over.
 */
export async function holdImport(tx: Db, job: ClaimedImport, p: { now: Date; leaseUntil: Date }): Promise<boolean> {
  const { rows } = await tx.query(
    `UPDATE user_imports SET lease_until = $4, updated_at = $3 WHERE project_id = $1 AND id = $2 AND status = 'running' AND lease_holder = $5 RETURNING id`,
    [job.projectId, job.id, p.now, p.leaseUntil, job.holder],
  );
  return rows.length > 0;
}

/** The worker stops (a shutdown): its job is due again at once, for any instance. */
export async function releaseImport(db: Db, job: ClaimedImport, now: Date): Promise<void> {
  await db.query(`UPDATE user_imports SET lease_until = $3 WHERE project_id = $1 AND id = $2 AND status = 'running' AND lease_holder = $4`, [
    job.projectId,
    job.id,
    now,
    job.holder,
  ]);
}

export interface StoredChunk {
  seq: number;
  firstLine: number;
  body: string;
  tooLong: number[];
}

/** The job's next chunk, in file order, or null when none is left. */
export async function nextChunk(tx: Db, projectId: string, id: string): Promise<StoredChunk | null> {
  const { rows } = await tx.query<StoredChunk>(
    `SELECT seq, first_line AS "firstLine", body, too_long AS "tooLong" FROM user_import_chunks WHERE project_id = $1 AND import_id = $2 ORDER BY seq LIMIT 1`,
    [projectId, id],
  );
  return rows[0] ?? null;
}

export async function deleteChunk(tx: Db, projectId: string, id: string, seq: number): Promise<void> {
  await tx.query('DELETE FROM user_import_chunks WHERE project_id = $1 AND import_id = $2 AND seq = $3', [projectId, id, seq]);
}

/**
 * Uploads whose lease ran out (the connection or its instance went away without a word): each is
 * failed and its chunks deleted, under a row lock (another instance skips it); answers them, for
 * their audit events, written in the same transaction by `each`.
 */
export async function failAbandonedUploads(
  db: Db,
  now: Date,
  each: (tx: Db, job: { projectId: string; id: string; actor: ImportActor }) => Promise<void>,
): Promise<number> {
  let failed = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ projectId: string; id: string; actor: ImportActor }>(
        `SELECT project_id AS "projectId", id, actor FROM user_imports WHERE status = 'uploading' AND lease_until < $1 LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [now],
      );
      const job = rows[0];
      if (!job) return false;
      await failImport(tx, { ...job, failure: UPLOAD_CUT, now });
      await each(tx, job);
      return true;
    });
    if (!done) return failed;
    failed += 1;
  }
}

/** Imports under way (uploading, queued or running) in the project. */
export async function importsUnderWay(db: Db, projectId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM user_imports WHERE project_id = $1 AND status IN ('uploading', 'queued', 'running')",
    [projectId],
  );
  return rows[0]?.n ?? 0;
}

/** Why a job whose upload did not reach the end of the file failed (nothing of it was imported). */
export const UPLOAD_CUT = 'The upload stopped before the end of the file; nothing of it was imported';

/** Ends a job as failed: its stored chunks go (what was imported before stays). */
export async function failImport(tx: Db, p: { projectId: string; id: string; failure: string; now: Date }): Promise<void> {
  await tx.query('DELETE FROM user_import_chunks WHERE project_id = $1 AND import_id = $2', [p.projectId, p.id]);
  await finishImport(tx, p);
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
    // A message may quote the file; PostgreSQL's text holds no NUL.
    [p.projectId, p.id, keep.map((r) => r.line), keep.map((r) => r.reason), keep.map((r) => r.message.replaceAll('\u0000', '\uFFFD'))],
  );
}

export async function finishImport(db: Db, p: { projectId: string; id: string; failure: string | null; now: Date }): Promise<void> {
  // Who started it (their address, where from) was kept for the audit event that ends the job, and
  // is not kept past it: the job names its starter by account id only from then on.
  await db.query(
    `UPDATE user_imports SET status = $3, failure = $4, updated_at = $5, finished_at = $5, lease_until = NULL, lease_holder = NULL, actor = NULL
      WHERE project_id = $1 AND id = $2`,
    [p.projectId, p.id, p.failure === null ? 'done' : 'failed', p.failure, p.now],
  );
}

export async function findImport(db: Db, projectId: string, id: string): Promise<UserImport | null> {
  const { rows } = await db.query<ImportRow>(`SELECT ${COLUMNS} FROM user_imports WHERE project_id = $1 AND id = $2`, [projectId, id]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** The newest imports first (user_imports_started_idx). */
export async function latestImports(db: Db, projectId: string, limit = 20): Promise<UserImport[]> {
  const { rows } = await db.query<ImportRow>(`SELECT ${COLUMNS} FROM user_imports WHERE project_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2`, [
    projectId,
    limit,
  ]);
  return rows.map(fromRow);
}

export async function refusalsOf(db: Db, projectId: string, id: string): Promise<ImportRefusal[]> {
  const { rows } = await db.query<ImportRefusal>(
    'SELECT line, reason, message FROM user_import_refusals WHERE project_id = $1 AND import_id = $2 ORDER BY line',
    [projectId, id],
  );
  return rows;
}
