import { constants, createPrivateKey, createPublicKey, sign, verify, type JsonWebKey, type KeyObject } from 'node:crypto';

/**
 * The signed request that sends a new user to the project's Custom Verification URL (spec §2 User
 * Verification, fullCustom; docs/decisions/0018): a compact JWS signed with the project's issuer
 * signing key, so the project's site can check it against the issuer's published JWKS, and the
 * issuer can check it again when the project's backend confirms it. Its type is explicit
 * (RFC 8725 §3.11) so it can never pass for an ID token, nor an ID token for it.
 */
export const VERIFICATION_REQUEST_TYPE = 'verification-request+jwt';

export interface VerificationRequestClaims {
  iss: string;
  /** The client id of the application the sign-in began at. */
  aud: string;
  iat: number;
  exp: number;
  /** The request's id: names it in the issuer's store (its keyed hash), once. */
  jti: string;
  /** The identity to verify (an email address or an alphanumeric user id) and its type. */
  user_id: string;
  identity_type: 'email' | 'alphanumeric';
  /** The issuer's page that resumes the sign-in in the user's browser once the request is confirmed. */
  continue_to: string;
}

type Alg = 'RS256' | 'PS256' | 'ES256' | 'EdDSA';
const ALGS: readonly string[] = ['RS256', 'PS256', 'ES256', 'EdDSA'];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The digest and key options of a JWS algorithm (RFC 7518 §3; RFC 8037 for EdDSA). */
type KeyInput = KeyObject | { key: KeyObject; padding?: number; saltLength?: number; dsaEncoding?: 'der' | 'ieee-p1363' };

function keyFor(alg: Alg, key: KeyObject): { digest: string | null; key: KeyInput } {
  switch (alg) {
    case 'RS256':
      return { digest: 'sha256', key };
    case 'PS256':
      return { digest: 'sha256', key: { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } };
    case 'ES256':
      return { digest: 'sha256', key: { key, dsaEncoding: 'ieee-p1363' } };
    case 'EdDSA':
      return { digest: null, key };
  }
}

/** Signs `claims` with the first of the project's signing keys (the current algorithm's, project-keys.ts). */
export function signVerificationRequest(signingKey: JsonWebKey, claims: VerificationRequestClaims): string {
  const alg = signingKey.alg as Alg;
  if (!ALGS.includes(alg)) throw new Error(`cannot sign a verification request with ${String(alg)}`);
  const input = `${b64({ alg, kid: signingKey.kid, typ: VERIFICATION_REQUEST_TYPE })}.${b64(claims)}`;
  const { digest, key } = keyFor(alg, createPrivateKey({ key: signingKey, format: 'jwk' }));
  return `${input}.${sign(digest, Buffer.from(input), key).toString('base64url')}`;
}

const JWS_PART = /^[A-Za-z0-9_-]+$/;

const parseJson = (part: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/**
 * The claims of a request this issuer signed with one of `signingKeys`, of the right type, issued by
 * `issuer` and not expired at `now`; null for anything else (malformed, forged, another key, another
 * issuer, expired).
 */
export function readVerificationRequest(
  token: string,
  p: { signingKeys: readonly JsonWebKey[]; issuer: string; now: Date },
): VerificationRequestClaims | null {
  if (token.length > 8_192) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => JWS_PART.test(part))) return null;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = parseJson(headerPart);
  if (!header || header.typ !== VERIFICATION_REQUEST_TYPE || typeof header.alg !== 'string' || !ALGS.includes(header.alg)) return null;
  // The key is the one the header names, and its algorithm must be the header's: no algorithm confusion.
  const jwk = p.signingKeys.find((k) => k.kid === header.kid && k.alg === header.alg);
  if (!jwk) return null;
  const { digest, key } = keyFor(header.alg as Alg, createPublicKey(createPrivateKey({ key: jwk, format: 'jwk' })));
  const valid = verify(digest, Buffer.from(`${headerPart}.${payloadPart}`), key, Buffer.from(signaturePart, 'base64url'));
  if (!valid) return null;
  const claims = parseJson(payloadPart);
  if (!claims || claims.iss !== p.issuer || typeof claims.exp !== 'number' || claims.exp * 1000 <= p.now.getTime()) return null;
  if (
    typeof claims.jti !== 'string' ||
    typeof claims.user_id !== 'string' ||
    typeof claims.aud !== 'string' ||
    typeof claims.continue_to !== 'string'
  ) {
    return null;
  }
  if (claims.identity_type !== 'email' && claims.identity_type !== 'alphanumeric') return null;
  return claims as unknown as VerificationRequestClaims;
}
