import { z } from 'zod';
import { optionalUrl, text } from '../validation/fields.ts';

export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export const CODE_CHALLENGE_METHODS = ['plain', 'S256'] as const;
export const SIGNING_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

/** Where a project's issuer lives under the server's PUBLIC_URL (issue 8; custom domains come later). */
export function projectIssuerPath(projectId: string): string {
  return `/p/${encodeURIComponent(projectId)}`;
}

/** OpenID Connect Discovery 1.0 §4: where an issuer publishes its configuration. */
export const OIDC_DISCOVERY_PATH = '/.well-known/openid-configuration';

/** The discovery document's address of an issuer. */
export function discoveryUrlOf(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}${OIDC_DISCOVERY_PATH}`;
}

/** Where the people who sign in at an issuer manage their passkeys and sessions (issue 24, docs/decisions/0040). */
export function accountPageUrlOf(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/account`;
}

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

/** Access and ID tokens live 1 minute to 1 day; refresh tokens 1 day to 1 year (seconds). */
export const TOKEN_LIFETIME_RANGE = { min: MINUTE, max: DAY } as const;
export const REFRESH_LIFETIME_RANGE = { min: DAY, max: 365 * DAY } as const;

/**
 * The lifetimes a project starts with: an access token 10 minutes, an ID token an hour; a refresh
 * token ends after 14 days unused (idle) and 90 days after the sign-in that began it (absolute),
 * whichever comes first (Auth0's and Keycloak's defaults are of this order).
 */
export const TOKEN_LIFETIME_DEFAULTS = {
  access_token_ttl: 10 * MINUTE,
  id_token_ttl: 60 * MINUTE,
  refresh_token_idle_ttl: 14 * DAY,
  refresh_token_absolute_ttl: 90 * DAY,
} as const;

const lifetime = (range: { min: number; max: number }) =>
  z
    .number({ error: 'validation.not_a_number' })
    .int({ error: 'validation.not_a_number' })
    .min(range.min, { error: 'validation.out_of_range' })
    .max(range.max, { error: 'validation.out_of_range' });

/**
 * docs/decisions/0047: an issuer move, by its administrator. `ownHost`: from {PUBLIC_URL}/p/{project}
 * to the project's own host {project}.{ISSUER_DOMAIN}, its passkeys' relying party; the old address
 * answers 307 to the new one from then on. The only move there is (a custom domain is a project setting).
 */
export const ISSUER_MOVES = ['ownHost'] as const;

/**
 * docs/decisions/0047: where a project's issuer address is — the shared path {PUBLIC_URL}/p/{project},
 * the project's own host {project}.{ISSUER_DOMAIN}, or its custom domain (0016).
 */
export const ISSUER_PLACEMENTS = ['sharedPath', 'ownHost', 'customDomain'] as const;
export type IssuerPlacement = (typeof ISSUER_PLACEMENTS)[number];

// spec §3 Issuer; spec §5: at least one auth method and one challenge method; alg and flag required.
export const issuerSchema = z.object({
  // Read-only: the server answers the project's issuer URL and ignores what a PUT sends.
  address: optionalUrl(),
  // Read-only like `address` (docs/decisions/0047), answered by the server and ignored in a PUT: where
  // the address is; the origin of the project's own host, the one it has or the one a move would give
  // it ('': neither); the host its passkeys are made for (their rpID); the moves POST issuer/move
  // would take now (none once it has its own host, or on a server without ISSUER_DOMAIN).
  placement: z.enum(ISSUER_PLACEMENTS).optional(),
  own_host: optionalUrl().optional(),
  passkey_domain: text().optional(),
  moves: z.array(z.enum(ISSUER_MOVES)).optional(),
  id_token_signing_alg: z.enum(SIGNING_ALGS, { error: 'validation.required' }),
  token_endpoint_auth_methods: z
    .array(z.enum(TOKEN_ENDPOINT_AUTH_METHODS, { error: 'validation.invalid_value' }))
    .min(1, { error: 'validation.at_least_one_method' })
    .refine((v) => new Set(v).size === v.length, { error: 'validation.invalid_value' }),
  code_challenge_methods: z
    .array(z.enum(CODE_CHALLENGE_METHODS, { error: 'validation.invalid_value' }))
    .min(1, { error: 'validation.at_least_one_method' })
    .refine((v) => new Set(v).size === v.length, { error: 'validation.invalid_value' }),
  allow_pkce_only_token_exchange: z.boolean({ error: 'validation.required' }),
  // Issue 22: a public client always uses PKCE; a confidential web app when this is on (a project
  // made before it existed keeps requiring it: migration 0023).
  require_pkce_for_confidential_clients: z.boolean({ error: 'validation.required' }).default(false),
  // Issue 22: lifetimes in seconds, applied to the next token issued. A document saved before they
  // existed reads with the defaults.
  access_token_ttl: lifetime(TOKEN_LIFETIME_RANGE).default(TOKEN_LIFETIME_DEFAULTS.access_token_ttl),
  id_token_ttl: lifetime(TOKEN_LIFETIME_RANGE).default(TOKEN_LIFETIME_DEFAULTS.id_token_ttl),
  refresh_token_idle_ttl: lifetime(REFRESH_LIFETIME_RANGE).default(TOKEN_LIFETIME_DEFAULTS.refresh_token_idle_ttl),
  refresh_token_absolute_ttl: lifetime(REFRESH_LIFETIME_RANGE).default(TOKEN_LIFETIME_DEFAULTS.refresh_token_absolute_ttl),
});
export type Issuer = z.output<typeof issuerSchema>;

/**
 * docs/decisions/0047, 0049: the project holds an own host (its passkeys are made for it and keep
 * working at a custom domain): `own_host` names one and no move to it is offered (`own_host` alone
 * may be the host a move would give).
 */
export function holdsOwnHost(issuer: Pick<Issuer, 'own_host' | 'moves'>): boolean {
  return (issuer.own_host ?? '') !== '' && !(issuer.moves ?? []).includes('ownHost');
}

export const issuerMoveSchema = z.object({
  to: z.enum(ISSUER_MOVES, { error: 'validation.invalid_value' }),
});
export type IssuerMove = z.output<typeof issuerMoveSchema>;

export function defaultIssuer(): Issuer {
  return {
    address: '',
    id_token_signing_alg: 'RS256',
    token_endpoint_auth_methods: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods: ['S256'],
    allow_pkce_only_token_exchange: false,
    require_pkce_for_confidential_clients: false,
    ...TOKEN_LIFETIME_DEFAULTS,
  };
}

/**
 * Issue 22: an issuer's signing keys as the console shows them — the one signing now, and those
 * rotated away (or of an algorithm it left) still published until `retiresAt`.
 */
export const signingKeySchema = z.object({
  kid: z.string().describe('The key id (the `kid` of the JWKS and of the tokens it signed)'),
  alg: z.enum(SIGNING_ALGS),
  status: z
    .enum(['signing', 'published', 'retiring'])
    .describe('signing: signs ID tokens; published: RS256 beside another algorithm, always supported; retiring: until retiresAt'),
  createdAt: z.string().describe('ISO 8601 UTC'),
  retiresAt: z.string().nullable().describe('When it leaves the JWKS (ISO 8601 UTC); null while it signs'),
});
export type SigningKey = z.infer<typeof signingKeySchema>;
export const signingKeysSchema = z.object({ keys: z.array(signingKeySchema) });
export type SigningKeys = z.infer<typeof signingKeysSchema>;

/**
 * How long a key that stopped signing stays published: its tokens' longest lifetime, plus a day for
 * relying parties that cache the discovery document and JWKS (docs/decisions/0028).
 */
export const JWKS_CACHE_SECONDS = 24 * 60 * 60;
export function signingKeyGraceSeconds(issuer: Pick<Issuer, 'access_token_ttl' | 'id_token_ttl'>): number {
  return Math.max(issuer.access_token_ttl, issuer.id_token_ttl) + JWKS_CACHE_SECONDS;
}
