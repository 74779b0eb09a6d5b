import { z } from 'zod';
import { optionalUrl } from '../validation/fields.ts';

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

// spec §3 Issuer; spec §5: at least one auth method and one challenge method; alg and flag required.
export const issuerSchema = z.object({
  // Read-only: the server answers the project's issuer URL and ignores what a PUT sends.
  address: optionalUrl(),
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
});
export type Issuer = z.infer<typeof issuerSchema>;

export function defaultIssuer(): Issuer {
  return {
    address: '',
    id_token_signing_alg: 'RS256',
    token_endpoint_auth_methods: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods: ['S256'],
    allow_pkce_only_token_exchange: false,
  };
}
