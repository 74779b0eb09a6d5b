import { defaultIssuer, type Issuer } from '@latchkey/domain';
import type { Db } from '../db/db.ts';

/** What a project's issuer is built from; `version` changes with any of it (the projects row's version). */
export interface IssuerState {
  projectId: string;
  version: number;
  enabled: boolean;
  /** The name the hosted pages show (displayName, else the project's name). */
  displayName: string;
  /** The label of the user id field (spec §2 identityTypeLabel), '' for the default. */
  identityTypeLabel: string;
  /** Browser origins allowed to call the token and userinfo endpoints (spec §3 allowedCORSDomains). */
  allowedOrigins: string[];
  issuer: Issuer;
}

interface Row {
  id: string;
  version: number;
  enabled: boolean;
  name: string;
  display_name: string | null;
  identity_type_label: string | null;
  cors: string[] | null;
  issuer: Issuer | null;
}

/** One primary-key read per request: cheap enough to notice a settings change at once. */
export async function findIssuerState(db: Db, projectId: string): Promise<IssuerState | null> {
  const { rows } = await db.query<Row>(
    `SELECT id, version, enabled, name, settings->>'displayName' AS display_name,
            settings #>> '{verificationOptions,identityTypeLabel}' AS identity_type_label,
            settings->'allowedCORSDomains' AS cors, issuer
       FROM projects WHERE id = $1`,
    [projectId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    projectId: row.id,
    version: row.version,
    enabled: row.enabled,
    displayName: row.display_name || row.name,
    identityTypeLabel: row.identity_type_label ?? '',
    allowedOrigins: Array.isArray(row.cors) ? row.cors : [],
    issuer: { ...defaultIssuer(), ...row.issuer },
  };
}
