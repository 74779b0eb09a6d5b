import { defaultIssuer, LANGUAGES, type Issuer } from '@latchkey/domain';
import type { PageLanguage } from '../idp/page-texts.ts';
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
  /** spec §3 loginOptions (stored normalised by §4's rules): Browser Login, Mobile Login, the primary. */
  login: { browser: boolean; mobile: boolean; primary: 'browserLogin' | 'mobileLogin' };
  /** Browser origins allowed to call the token and userinfo endpoints (spec §3 allowedCORSDomains). */
  allowedOrigins: string[];
  issuer: Issuer;
  /** The origin of the project's custom domain (docs/decisions/0016): its issuer lives there; null: under PUBLIC_URL. */
  customOrigin: string | null;
}

interface Row {
  id: string;
  version: number;
  enabled: boolean;
  name: string;
  display_name: string | null;
  identity_type_label: string | null;
  verification: { method?: unknown; url?: unknown; confirmationURL?: unknown; customText?: unknown } | null;
  identity_type: string | null;
  language: string | null;
  logo_url: string | null;
  help_url: string | null;
  support_email: string | null;
  support_phone: string | null;
  browser_warning: boolean | null;
  reg_code: boolean | null;
  login: { browserLoginEnabled?: unknown; mobileLoginEnabled?: unknown; primary?: unknown } | null;
  reg_code_verified: boolean | null;
  cors: string[] | null;
  issuer: Issuer | null;
  custom_origin: string | null;
}

/** One primary-key read per request: cheap enough to notice a settings change at once. */
export async function findIssuerState(db: Db, projectId: string): Promise<IssuerState | null> {
  const { rows } = await db.query<Row>(
    `SELECT id, version, enabled, name, settings->>'displayName' AS display_name,
            settings #>> '{verificationOptions,identityTypeLabel}' AS identity_type_label,
            settings->'verificationOptions' AS verification, settings->>'identityType' AS identity_type,
            settings->>'midentityLanguage' AS language, settings->>'logoUrl' AS logo_url, settings->>'helpUrl' AS help_url,
            settings->>'supportEmail' AS support_email, settings->>'supportPhone' AS support_phone,
            settings->'enableBrowserWarning' = 'true'::jsonb AS browser_warning,
            settings->'enableRegistrationCode' = 'true'::jsonb AS reg_code, settings->'loginOptions' AS login,
            settings->'limitRegCodeVerified' = 'true'::jsonb AS reg_code_verified,
            settings->'allowedCORSDomains' AS cors, issuer,
            (SELECT origin FROM project_hosts h WHERE h.project_id = projects.id AND h.origin IS NOT NULL LIMIT 1) AS custom_origin
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
    verification: {
      method: typeof row.verification?.method === 'string' ? row.verification.method : 'codeEmail',
      identityType: row.identity_type ?? 'email',
      url: typeof row.verification?.url === 'string' ? row.verification.url : '',
      confirmationURL: typeof row.verification?.confirmationURL === 'string' ? row.verification.confirmationURL : '',
      customText: typeof row.verification?.customText === 'string' ? row.verification.customText : '',
    },
    language: (LANGUAGES as readonly (string | null)[]).includes(row.language) ? (row.language as PageLanguage) : 'en',
    logoUrl: row.logo_url ?? '',
    helpUrl: row.help_url ?? '',
    supportEmail: row.support_email ?? '',
    supportPhone: row.support_phone ?? '',
    browserWarning: row.browser_warning === true,
    quickCodes: { enabled: row.reg_code === true, verifiedOnly: row.reg_code === true && row.reg_code_verified === true },
    // Unset (a project stored before login options): both methods, as the spec's defaults.
    login: {
      browser: row.login?.browserLoginEnabled !== false,
      mobile: row.login?.mobileLoginEnabled !== false,
      primary: row.login?.primary === 'browserLogin' ? 'browserLogin' : 'mobileLogin',
    },
    allowedOrigins: Array.isArray(row.cors) ? row.cors : [],
    issuer: { ...defaultIssuer(), ...row.issuer },
    customOrigin: row.custom_origin,
  };
}

/** A host a project is served at (docs/decisions/0016): `origin` set when it is the project's issuer, null for its mobile domain only. */
export interface ProjectHost {
  projectId: string;
  origin: string | null;
}

/** The project a request's Host names (a primary-key seek on project_hosts), or null. */
export async function findProjectHost(db: Db, host: string): Promise<ProjectHost | null> {
  const { rows } = await db.query<{ project_id: string; origin: string | null }>('SELECT project_id, origin FROM project_hosts WHERE host = $1', [
    host,
  ]);
  const row = rows[0];
  return row ? { projectId: row.project_id, origin: row.origin } : null;
}

/** A project's deep-link association file (spec §3 associationIOS / associationAndroid), '' when none. */
export async function findAssociationFile(db: Db, projectId: string, field: 'associationIOS' | 'associationAndroid'): Promise<string> {
  const { rows } = await db.query<{ text: string | null }>('SELECT settings->>$2 AS text FROM projects WHERE id = $1', [projectId, field]);
  return rows[0]?.text ?? '';
}
