import {
  defaultIssuer,
  EMAIL_RECOVERY_DELAY_MS,
  LANGUAGES,
  newProjectSettings,
  type Issuer,
  type PasskeyEnrollment,
  type ProjectSettings,
} from '@latchkey/domain';
import type { PageLanguage } from '../oidc/pages/texts.ts';
import { prepared, type Db } from '../db/db.ts';
import { readAheadInteraction, type ReadAheadInteraction } from '../oidc/payloads.repository.ts';

/** What a project's issuer is built from; `version` changes with any of it (the projects row's version). */
export interface IssuerState {
  projectId: string;
  version: number;
  /** Raised by every write to the project's applications and their keys (issuer/client-cache.ts). */
  clientsVersion: number;
  enabled: boolean;
  /** The name the hosted pages show (displayName, else the project's name). */
  displayName: string;
  /** The label of the user id field (spec §2 identityTypeLabel), '' for the default. */
  identityTypeLabel: string;
  /** spec §2 User Verification and §3 identityType, as stored (docs/decisions/0018 applies §4's rule to them). */
  verification: { method: string; identityType: string; url: string; confirmationURL: string; customText: string };
  /** spec §3 midentityLanguage: the pages' language when the browser asks for none of en, fr, ro. */
  language: PageLanguage;
  /** spec §3 branding ('' = not set): logoUrl, helpUrl, supportEmail, supportPhone. */
  logoUrl: string;
  helpUrl: string;
  supportEmail: string;
  supportPhone: string;
  /** spec §3 enableBrowserWarning. */
  browserWarning: boolean;
  /** spec §3 enableRegistrationCode, limitRegCodeVerified (docs/decisions/0017). */
  quickCodes: { enabled: boolean; verifiedOnly: boolean };
  /** Issue 37 (docs/decisions/0050): the passkey offer after a fallback sign-in. */
  passkeyEnrollment: PasskeyEnrollment;
  /** Issue 37 emailRecoveryDelay (docs/decisions/0051), in milliseconds: 0 for none. */
  emailRecoveryDelayMs: number;
  /** spec §3 loginOptions (stored normalised by §4's rules): Browser Login, Mobile Login, the primary. */
  login: { browser: boolean; mobile: boolean; primary: 'browserLogin' | 'mobileLogin' };
  /** Browser origins allowed to call the token and userinfo endpoints (spec §3 allowedCORSDomains). */
  allowedOrigins: string[];
  issuer: Issuer;
  /** The origin of the project's custom domain (docs/decisions/0016): its issuer lives there; null: none. */
  customOrigin: string | null;
  /** The origin of the project's own host (docs/decisions/0047): its issuer and relying party when it has no custom domain; null: none. */
  ownOrigin: string | null;
}

interface Row {
  id: string;
  version: number;
  clients_version: number;
  enabled: boolean;
  name: string;
  /** The settings as stored, without the deep-link association files (up to 100 kB each, not the issuer's). */
  settings: Partial<ProjectSettings> | null;
  issuer: Partial<Issuer> | null;
  custom_origin: string | null;
  own_origin: string | null;
}

/**
 * The project's settings over the domain's defaults (newProjectSettings, defaultIssuer): a setting a
 * project stored before it existed reads as a new project's (issue 21: the defaults are stated once,
 * in the domain).
 */
function settingsOf(row: Row): ProjectSettings {
  const defaults = newProjectSettings(row.name);
  const stored = row.settings ?? {};
  return {
    ...defaults,
    ...stored,
    verificationOptions: { ...defaults.verificationOptions, ...stored.verificationOptions },
    loginOptions: { ...defaults.loginOptions, ...stored.loginOptions },
    passkeyEnrollment: { ...defaults.passkeyEnrollment, ...stored.passkeyEnrollment },
  };
}

/** The project's custom origin and own origin, as columns of a read of its projects row (project_hosts_project_idx). */
export const HOST_ORIGINS = `(SELECT origin FROM project_hosts h WHERE h.project_id = projects.id AND h.origin IS NOT NULL AND NOT h.own LIMIT 1) AS custom_origin,
            (SELECT origin FROM project_hosts h WHERE h.project_id = projects.id AND h.own) AS own_origin`;

/** The state read, alone or with an interaction read ahead: two texts, each prepared (docs/decisions/0055). */
const STATE_SQL = [false, true].map((withInteraction) =>
  prepared(
    `SELECT id, version, clients_version, enabled, name, settings - 'associationIOS' - 'associationAndroid' AS settings, issuer,
            ${HOST_ORIGINS}
            ${
              !withInteraction
                ? ''
                : `, (SELECT json_build_object('id', p.id, 'payload', p.payload, 'consumed_at', p.consumed_at,
                        'grant', (SELECT json_build_object('id', g.id, 'payload', g.payload, 'consumed_at', g.consumed_at) FROM oidc_payloads g
                                   WHERE g.issuer = p.issuer AND g.grant_id = p.grant_id AND g.kind = 'Grant'
                                     AND (g.expires_at IS NULL OR g.expires_at > $3) LIMIT 1))
                      FROM oidc_payloads p
                      WHERE p.issuer = projects.id AND p.kind = 'Interaction' AND p.id = $2
                        AND (p.expires_at IS NULL OR p.expires_at > $3)) AS interaction`
            }
       FROM projects WHERE id = $1`,
  ),
) as [string, string];

/**
 * One primary-key read per request: cheap enough to notice a settings change at once. With
 * `interactionRef` (a sign-in page's or the provider's resume request names its interaction), the
 * same statement reads that interaction's row ahead for the provider (oidc/payloads.repository.ts),
 * and the grant its result consents to, which the resume loads next (issue 38).
 */
export async function findIssuerState(db: Db, projectId: string, interactionRef?: string): Promise<IssuerState | null> {
  const { rows } = await db.query<Row & { interaction?: ReadAheadInteraction | null }>(
    STATE_SQL[interactionRef === undefined ? 0 : 1],
    interactionRef === undefined ? [projectId] : [projectId, interactionRef, new Date()],
  );
  const found = rows[0];
  if (found && interactionRef !== undefined) readAheadInteraction(found.id, interactionRef, found.interaction ?? null);
  const row = found;
  if (!row) return null;
  const s = settingsOf(row);
  return {
    projectId: row.id,
    version: row.version,
    clientsVersion: row.clients_version,
    enabled: row.enabled,
    displayName: s.displayName || row.name,
    identityTypeLabel: s.verificationOptions.identityTypeLabel,
    verification: { ...s.verificationOptions, identityType: s.identityType },
    language: (LANGUAGES as readonly string[]).includes(s.midentityLanguage) ? (s.midentityLanguage as PageLanguage) : 'en',
    logoUrl: s.logoUrl,
    helpUrl: s.helpUrl,
    supportEmail: s.supportEmail,
    supportPhone: s.supportPhone,
    browserWarning: s.enableBrowserWarning,
    quickCodes: { enabled: s.enableRegistrationCode, verifiedOnly: s.enableRegistrationCode && s.limitRegCodeVerified },
    passkeyEnrollment: s.passkeyEnrollment,
    emailRecoveryDelayMs: EMAIL_RECOVERY_DELAY_MS[s.emailRecoveryDelay] ?? 0,
    login: { browser: s.loginOptions.browserLoginEnabled, mobile: s.loginOptions.mobileLoginEnabled, primary: s.loginOptions.primary },
    allowedOrigins: s.allowedCORSDomains,
    issuer: { ...defaultIssuer(), ...row.issuer },
    customOrigin: row.custom_origin,
    ownOrigin: row.own_origin,
  };
}

/** A host a project is served at (docs/decisions/0016): `origin` set when it is the project's issuer, null for its mobile domain only. */
export interface ProjectHost {
  projectId: string;
  origin: string | null;
  /** The project's own host (docs/decisions/0047), its relying party's. */
  own: boolean;
}

/** The project a request's Host names (a primary-key seek on project_hosts), or null. */
export async function findProjectHost(db: Db, host: string): Promise<ProjectHost | null> {
  const { rows } = await db.query<{ project_id: string; origin: string | null; own: boolean }>(
    'SELECT project_id, origin, own FROM project_hosts WHERE host = $1',
    [host],
  );
  const row = rows[0];
  return row ? { projectId: row.project_id, origin: row.origin, own: row.own } : null;
}

/** Every origin the project's issuer is served at (its own host first, then its custom domain). */
export async function findProjectOrigins(db: Db, projectId: string): Promise<string[]> {
  const { rows } = await db.query<{ origin: string }>(
    'SELECT origin FROM project_hosts WHERE project_id = $1 AND origin IS NOT NULL ORDER BY own DESC, host',
    [projectId],
  );
  return rows.map((r) => r.origin);
}

/** A project's deep-link association file (spec §3 associationIOS / associationAndroid), '' when none. */
export async function findAssociationFile(db: Db, projectId: string, field: 'associationIOS' | 'associationAndroid'): Promise<string> {
  const { rows } = await db.query<{ text: string | null }>('SELECT settings->>$2 AS text FROM projects WHERE id = $1', [projectId, field]);
  return rows[0]?.text ?? '';
}
