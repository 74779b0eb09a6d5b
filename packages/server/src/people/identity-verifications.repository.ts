import type { Db } from '../db/db.ts';

/** How a new user's identity is verified without an emailed code (docs/decisions/0018). */
export type VerificationMethod = 'standardEmail' | 'fullCustom';
export type IdentityType = 'email' | 'alphanumeric';

/** One identity being verified in one provider interaction (migration 0013). */
export interface IdentityVerification {
  tokenRef: string;
  projectId: string;
  interactionRef: string;
  method: VerificationMethod;
  identityType: IdentityType;
  identity: string;
  /** The device name of the browser that asked (shown when the link is opened in another one). */
  requestedFrom: string | null;
  createdAt: Date;
  expiresAt: Date;
  confirmedAt: Date | null;
  /** `link` (the emailed link was opened) or the client id of the application whose backend confirmed. */
  confirmedBy: string | null;
  usedAt: Date | null;
}

const COLUMNS = `token_ref AS "tokenRef", project_id AS "projectId", interaction_ref AS "interactionRef", method,
  identity_type AS "identityType", identity, requested_from AS "requestedFrom", created_at AS "createdAt",
  expires_at AS "expiresAt", confirmed_at AS "confirmedAt", confirmed_by AS "confirmedBy", used_at AS "usedAt"`;

/** The interaction's verification, replacing the one it had (a new link, a new custom request). */
export async function replaceVerification(
  db: Db,
  v: Pick<
    IdentityVerification,
    'tokenRef' | 'projectId' | 'interactionRef' | 'method' | 'identityType' | 'identity' | 'requestedFrom' | 'createdAt' | 'expiresAt'
  >,
): Promise<void> {
  await db.query(
    `INSERT INTO identity_verifications (token_ref, project_id, interaction_ref, method, identity_type, identity, requested_from, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (project_id, interaction_ref) DO UPDATE SET token_ref = EXCLUDED.token_ref, method = EXCLUDED.method,
       identity_type = EXCLUDED.identity_type, identity = EXCLUDED.identity, requested_from = EXCLUDED.requested_from,
       created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, confirmed_at = NULL, confirmed_by = NULL, used_at = NULL`,
    [v.tokenRef, v.projectId, v.interactionRef, v.method, v.identityType, v.identity, v.requestedFrom, v.createdAt, v.expiresAt],
  );
}

/**
 * Gives a pending request a new token (a custom request shown again gets a fresh id): the earlier
 * one stops working. Answers false when there is none pending for the interaction.
 */
export async function renewVerificationToken(
  db: Db,
  p: { projectId: string; interactionRef: string; tokenRef: string; expiresAt: Date },
): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE identity_verifications SET token_ref = $3, expires_at = $4
      WHERE project_id = $1 AND interaction_ref = $2 AND confirmed_at IS NULL RETURNING token_ref`,
    [p.projectId, p.interactionRef, p.tokenRef, p.expiresAt],
  );
  return rows.length === 1;
}

export async function findVerificationByToken(db: Db, projectId: string, tokenRef: string): Promise<IdentityVerification | null> {
  const { rows } = await db.query<IdentityVerification>(`SELECT ${COLUMNS} FROM identity_verifications WHERE token_ref = $1 AND project_id = $2`, [
    tokenRef,
    projectId,
  ]);
  return rows[0] ?? null;
}

export async function findVerificationOfInteraction(db: Db, projectId: string, interactionRef: string): Promise<IdentityVerification | null> {
  const { rows } = await db.query<IdentityVerification>(
    `SELECT ${COLUMNS} FROM identity_verifications WHERE project_id = $1 AND interaction_ref = $2`,
    [projectId, interactionRef],
  );
  return rows[0] ?? null;
}

/** Marks the request confirmed (once, before it expires); false when it was confirmed already, replaced or expired meanwhile. */
export async function confirmVerification(db: Db, p: { projectId: string; tokenRef: string; by: string; now: Date }): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE identity_verifications SET confirmed_at = $3, confirmed_by = $4
      WHERE token_ref = $2 AND project_id = $1 AND confirmed_at IS NULL AND expires_at > $3 RETURNING token_ref`,
    [p.projectId, p.tokenRef, p.now, p.by],
  );
  return rows.length === 1;
}

/** The interaction goes on with its confirmed verification, once: answers it, or null (none, not confirmed, used, expired). */
export async function useVerification(db: Db, p: { projectId: string; interactionRef: string; now: Date }): Promise<IdentityVerification | null> {
  const { rows } = await db.query<IdentityVerification>(
    `UPDATE identity_verifications SET used_at = $3
      WHERE project_id = $1 AND interaction_ref = $2 AND confirmed_at IS NOT NULL AND used_at IS NULL AND expires_at > $3
      RETURNING ${COLUMNS}`,
    [p.projectId, p.interactionRef, p.now],
  );
  return rows[0] ?? null;
}

/** The verification links sent to `identity` in the project (an erased person's). */
export async function deleteVerificationsOf(tx: Db, projectId: string, identity: string): Promise<void> {
  await tx.query('DELETE FROM identity_verifications WHERE project_id = $1 AND identity = $2', [projectId, identity]);
}

/** Expired links and custom verification requests (docs/decisions/0018), swept with the other codes. */
export async function deleteExpiredVerifications(db: Db, before: Date): Promise<void> {
  await db.query('DELETE FROM identity_verifications WHERE expires_at <= $1', [before]);
}
