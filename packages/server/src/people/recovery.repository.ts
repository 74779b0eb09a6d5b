import type { Db } from '../db/db.ts';

/**
 * A person's ways back in when their passkey is lost (migration 0039, docs/decisions/0051): recovery
 * codes, email recoveries waiting out the project's delay, administrators' re-enrollment links.
 * Only keyed hashes of the codes and tokens are stored.
 */

/** Replaces the person's set of recovery codes with `hashes` (the old set, used or not, goes). */
export async function replaceRecoveryCodes(tx: Db, p: { projectId: string; userId: string; hashes: string[]; now: Date }): Promise<void> {
  await tx.query('DELETE FROM recovery_codes WHERE project_id = $1 AND user_id = $2', [p.projectId, p.userId]);
  await tx.query(
    `INSERT INTO recovery_codes (project_id, user_id, code_hash, created_at)
     SELECT $1, $2, h, $4 FROM unnest($3::text[]) AS h`,
    [p.projectId, p.userId, p.hashes, p.now],
  );
}

/** Marks the person's unused code of this hash used; false when there is none (wrong, or used already). */
export async function useRecoveryCode(tx: Db, p: { projectId: string; userId: string; codeHash: string; now: Date }): Promise<boolean> {
  const { rows } = await tx.query(
    `UPDATE recovery_codes SET used_at = $4 WHERE project_id = $1 AND user_id = $2 AND code_hash = $3 AND used_at IS NULL RETURNING code_hash`,
    [p.projectId, p.userId, p.codeHash, p.now],
  );
  return rows.length > 0;
}

/** The person's recovery codes: how many are left unused, and when the set was made (null: no set). */
export async function recoveryCodesOf(db: Db, projectId: string, userId: string): Promise<{ left: number; createdAt: Date | null }> {
  const { rows } = await db.query<{ left: string | number; created_at: Date | null }>(
    `SELECT count(*) FILTER (WHERE used_at IS NULL) AS left, max(created_at) AS created_at
       FROM recovery_codes WHERE project_id = $1 AND user_id = $2`,
    [projectId, userId],
  );
  const row = rows[0];
  return { left: Number(row?.left ?? 0), createdAt: row?.created_at ? new Date(row.created_at) : null };
}

/** An email recovery of a person (a passkey to add after an email-only sign-in, after the project's delay). */
export interface EmailRecovery {
  id: string;
  userId: string;
  createdAt: Date;
  notBefore: Date;
  endedAt: Date | null;
  endedHow: 'cancelled' | 'used' | null;
}

const EMAIL_RECOVERY = `id, user_id AS "userId", created_at AS "createdAt", not_before AS "notBefore", ended_at AS "endedAt", ended_how AS "endedHow"`;

const asRecovery = (r: EmailRecovery): EmailRecovery => ({
  ...r,
  createdAt: new Date(r.createdAt),
  notBefore: new Date(r.notBefore),
  endedAt: r.endedAt ? new Date(r.endedAt) : null,
});

export async function insertEmailRecovery(
  tx: Db,
  r: { projectId: string; id: string; userId: string; tokenHash: string; createdAt: Date; notBefore: Date },
): Promise<void> {
  await tx.query(`INSERT INTO email_recoveries (project_id, id, user_id, token_hash, created_at, not_before) VALUES ($1, $2, $3, $4, $5, $6)`, [
    r.projectId,
    r.id,
    r.userId,
    r.tokenHash,
    r.createdAt,
    r.notBefore,
  ]);
}

/** The person's email recoveries still open (not stopped, not used) that end after `since`, earliest first. */
export async function openEmailRecoveries(db: Db, projectId: string, userId: string, since: Date): Promise<EmailRecovery[]> {
  const { rows } = await db.query<EmailRecovery>(
    `SELECT ${EMAIL_RECOVERY} FROM email_recoveries WHERE project_id = $1 AND user_id = $2 AND ended_at IS NULL AND not_before > $3
      ORDER BY not_before`,
    [projectId, userId, since],
  );
  return rows.map(asRecovery);
}

/** The email recovery a "This wasn't me" token names, or null. */
export async function emailRecoveryByToken(db: Db, projectId: string, tokenHash: string): Promise<EmailRecovery | null> {
  const { rows } = await db.query<EmailRecovery>(`SELECT ${EMAIL_RECOVERY} FROM email_recoveries WHERE project_id = $1 AND token_hash = $2`, [
    projectId,
    tokenHash,
  ]);
  return rows[0] ? asRecovery(rows[0]) : null;
}

/** Ends every open email recovery of the person (`how`); answers how many ended. */
export async function endEmailRecoveries(tx: Db, p: { projectId: string; userId: string; how: 'cancelled' | 'used'; now: Date }): Promise<number> {
  const { rows } = await tx.query(
    `UPDATE email_recoveries SET ended_at = $3, ended_how = $4 WHERE project_id = $1 AND user_id = $2 AND ended_at IS NULL RETURNING id`,
    [p.projectId, p.userId, p.now, p.how],
  );
  return rows.length;
}

export async function insertReenrollmentLink(
  tx: Db,
  l: { projectId: string; tokenHash: string; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await tx.query(`INSERT INTO reenrollment_links (project_id, token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
    l.projectId,
    l.tokenHash,
    l.userId,
    l.createdAt,
    l.expiresAt,
  ]);
}

/** The person a link is for while it is unused and unexpired at `now`, or null. */
export async function liveReenrollmentLink(
  db: Db,
  projectId: string,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string; expiresAt: Date } | null> {
  const { rows } = await db.query<{ userId: string; expiresAt: Date }>(
    `SELECT user_id AS "userId", expires_at AS "expiresAt" FROM reenrollment_links
      WHERE project_id = $1 AND token_hash = $2 AND used_at IS NULL AND expires_at > $3`,
    [projectId, tokenHash, now],
  );
  return rows[0] ? { userId: rows[0].userId, expiresAt: new Date(rows[0].expiresAt) } : null;
}

/** Marks the link used (single use); false when it was used or expired meanwhile. */
export async function useReenrollmentLink(tx: Db, p: { projectId: string; tokenHash: string; now: Date }): Promise<boolean> {
  const { rows } = await tx.query(
    `UPDATE reenrollment_links SET used_at = $3 WHERE project_id = $1 AND token_hash = $2 AND used_at IS NULL AND expires_at > $3 RETURNING user_id`,
    [p.projectId, p.tokenHash, p.now],
  );
  return rows.length > 0;
}
