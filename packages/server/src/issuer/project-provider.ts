import type { JsonWebKey } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { ClientAuthMethod } from 'oidc-provider';
import { LANGUAGES } from '@latchkey/domain';
import { issuerSite } from './custom-domains.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { createIssuerProvider } from '../oidc/issuer-provider.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import { projectErrorPage } from './project-pages.ts';
import { projectApplications, type Client, type ProjectClients } from './project-applications.ts';
import { projectLogoutPages } from './project-logout.ts';
import { originOf, pageRequestOf, perRequestUsers } from './provider-requests.ts';
import { codeEvents, refreshEvents } from './token-events.ts';

// The management API (modules/apps) names a client by this file.
export type { Client } from './project-applications.ts';

/**
 * spec §3 allowedCORSDomains: is a browser's `Origin` one of the project's allowed origins? Each
 * entry is compared as the origin it names (scheme, host and port as a browser writes them: case
 * and default ports do not matter, nor does a path after it); an entry that names no web origin,
 * and the opaque origin `null`, allow nothing.
 */
export function corsOriginAllowed(allowed: readonly string[], origin: string): boolean {
  if (origin === 'null') return false;
  return allowed.some((entry) => {
    try {
      const named = new URL(entry);
      return (named.protocol === 'https:' || named.protocol === 'http:') && named.origin === origin;
    } catch {
      return false;
    }
  });
}

/**
 * One project's OpenID Connect issuer, built from its state on the kernel (oidc/issuer-provider.ts);
 * a new one is built when the project's version changes (provider-cache.ts). Clients are the
 * project's applications, looked up at each use; their secrets are verified against the stored hash
 * (docs/decisions/0009, 0012), never held by the provider.
 */
export function createProjectProvider(options: {
  db: Db;
  secretBox: SecretBox;
  clients: ProjectClients;
  /** The project's clients as of `state` (issuer/client-cache.ts): read once per instance, not at each request. */
  clientOf(clientId: string): Promise<Client | null>;
  state: IssuerState;
  signingKeys: JsonWebKey[];
  cookieKeys: string[];
  publicUrl: string;
  events: IssuerEvents;
  /** Back-Channel Logout 1.0: queues the notice of a session ended at a logout (people/backchannel-logouts.ts). */
  queueLogoutNotice(clientId: string, accountId: string, sid: string | null): Promise<void>;
}): Provider {
  const { db, secretBox, clients, state, publicUrl, events } = options;
  const { projectId, issuer } = state;
  // docs/decisions/0016: with a custom domain, the issuer is that origin and lives at its root.
  const site = issuerSite(publicUrl, state);
  const secretMethods: ClientAuthMethod[] = [...issuer.token_endpoint_auth_methods];
  const clientAuthMethods: ClientAuthMethod[] = issuer.allow_pkce_only_token_exchange ? [...secretMethods, 'none'] : secretMethods;

  const { clientOf } = options;
  const userOf = perRequestUsers(projectId);

  return createIssuerProvider(db, secretBox, {
    key: projectId,
    issuer: site.issuer,
    mountPath: site.mountPath,
    signingKeys: options.signingKeys,
    signingAlg: issuer.id_token_signing_alg,
    cookieKeys: options.cookieKeys,
    clients: projectApplications({ clients, clientOf, state, issuerUrl: site.issuer, secretMethods, clientAuthMethods, events }),
    clientAuthMethods,
    codeChallengeMethods: issuer.code_challenge_methods,
    pkceForConfidentialClients: issuer.require_pkce_for_confidential_clients,
    uiLocales: LANGUAGES,
    async findAccount(sub) {
      const user = await userOf(db, sub);
      if (!user) return null;
      // The profile: the identity signed in with, and the project's pages' language (docs/decisions/0028).
      const profile = { sub: user.id, preferredUsername: user.identity, locale: state.language };
      // docs/decisions/0018: the email claims only for a user known by an address (an alphanumeric id is no address).
      return user.email === null ? profile : { ...profile, email: user.email };
    },
    claimsInIdToken: false,
    codeEvents: codeEvents(db, userOf, events),
    refreshEvents: refreshEvents(db, userOf, events),
    lifetimes: {
      accessToken: issuer.access_token_ttl,
      idToken: issuer.id_token_ttl,
      refreshIdle: issuer.refresh_token_idle_ttl,
      refreshAbsolute: issuer.refresh_token_absolute_ttl,
    },
    // spec §3 allowedCORSDomains: only these browser origins may call token, userinfo and the rest.
    corsAllowed: (origin) => corsOriginAllowed(state.allowedOrigins, origin),
    // RP-Initiated Logout 1.0, in the project's brand and language (the request's ui_locales first).
    logout: { ...projectLogoutPages({ db, state, userOf, events, origin: site.origin }), backchannel: options.queueLogoutNotice },
    async renderError(ctx, out) {
      // A request refused with a page (unknown client, a redirect URI not registered exactly, …).
      await events.refusal(originOf(ctx, ctx.oidc?.params?.client_id), {
        scope: 'oidc',
        status: 'failed',
        action: 'authorization_request',
        userId: null,
        details: { error: out.error, ...(out.error_description ? { description: out.error_description } : {}) },
      });
      const page = projectErrorPage(state, out, pageRequestOf(ctx, site.origin));
      ctx.set('Content-Security-Policy', page.csp);
      ctx.type = 'html';
      ctx.body = page.html;
    },
  });
}
