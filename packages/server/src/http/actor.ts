/**
 * Where a call came from, as its request shows it, for the audit event of what the call changes
 * (docs/decisions/0014 "Management actions").
 */
export interface CallOrigin {
  /** The client address Fastify established under TRUST_PROXY (request.ip). */
  ip: string | null;
  userAgent: string | null;
}

/** Who is calling: the signed-in account and what it holds (spec §3 "Signed-in account"). */
export interface Actor {
  accountId: string;
  email: string | null;
  permissions: string[];
  /** How the call was authenticated: a console cookie session, or a service account's bearer token. */
  via: 'session' | 'bearer';
  /** Set by the request authenticator for calls over HTTP; absent for an actor of no request. */
  origin?: CallOrigin;
}
