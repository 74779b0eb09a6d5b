import type Provider from 'oidc-provider';
import type { FastifyInstance } from 'fastify';
import { signingKeyGraceSeconds } from '@latchkey/domain';
import { countryLookup } from '../geoip.ts';
import { findIssuerState, type IssuerState } from './issuer-state.repository.ts';
import { issuerCookieKeys, issuerSigningKeys } from '../oidc/keys.ts';
import { createProjectProvider } from './project-provider.ts';
import { createProviderCache } from './provider-cache.ts';
import { registerVerificationRoutes } from './verification-routes.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import { projectEvents } from '../events/project-events.ts';
import { createClientCache } from './client-cache.ts';
import { queueBackchannelLogouts, type LogoutTokenSigner } from '../people/backchannel-logouts.ts';
import { signLogoutToken } from '../oidc/issuer-provider.ts';
import { IssuerFlow, type ProjectIssuerDeps } from './issuer-flow.ts';
import { mountProjectProviders } from './provider-mount.ts';
import { registerProjectSignInPages } from './project-sign-in.ts';

export type { ProjectIssuerDeps };

/** What the issuer's neighbours (the account page, the management API) use of it. */
export interface ProjectIssuer {
  /** A logout token for a back-channel notice, signed by the project's issuer now (the notices' kind, people/backchannel-logouts.ts). */
  signLogoutToken: LogoutTokenSigner;
  providerFor(state: IssuerState): Promise<Provider>;
  eventsOf(projectId: string): IssuerEvents;
}

/**
 * Every project's OpenID Connect issuer at {PUBLIC_URL}/p/{project} (issue 8, slice 1), or at the
 * root of its custom domain, routed by Host (docs/decisions/0016), with its sign-in pages: the
 * providers (provider-mount.ts), the sign-in pages (project-sign-in.ts), the custom verification's
 * confirmation (verification-routes.ts); what they share is the flow (issuer-flow.ts).
 */
export async function registerProjectIssuerRoutes(app: FastifyInstance, deps: ProjectIssuerDeps): Promise<ProjectIssuer> {
  const { db, secretBox, clients, publicUrl } = deps;
  const countries = deps.countries ?? countryLookup();
  const { metrics } = deps;
  const eventsOf = (projectId: string) =>
    projectEvents({
      db,
      clock: deps.clock,
      secretBox,
      countries,
      projectId,
      ...(metrics ? { metrics } : {}),
      ...(deps.webhooksQueued ? { webhooksQueued: deps.webhooksQueued } : {}),
    });
  // Back-Channel Logout 1.0: notices queued at a logout or a revocation are signed here, at each attempt.
  const logoutToken: LogoutTokenSigner = async (projectId, clientId, claims) => {
    const state = await findIssuerState(db, projectId);
    return state ? signLogoutToken(await cache.providerFor(state), clientId, claims) : null;
  };
  // Clients as of the request's issuer state: one read per instance and change, not one per request.
  const clientCache = createClientCache((clientId) => clients.findClient(clientId));
  const cache = createProviderCache(
    async (state) =>
      createProjectProvider({
        db,
        secretBox,
        clients,
        clientOf: clientCache.of(state),
        state,
        publicUrl,
        events: eventsOf(state.projectId),
        async queueLogoutNotice(clientId, accountId, sid) {
          const sessions = [{ accountId, sids: { [clientId]: sid } }];
          try {
            if ((await queueBackchannelLogouts(db, state.projectId, sessions, 'logout', deps.clock.now())) > 0) deps.logoutNoticesQueued?.();
          } catch (error) {
            // The person's logout stands (oidc-provider goes on); the operator learns the notice was not queued.
            deps.warn(error);
            throw error;
          }
        },
        signingKeys: await issuerSigningKeys(db, secretBox, state.projectId, state.issuer.id_token_signing_alg, signingKeyGraceSeconds(state.issuer)),
        cookieKeys: await issuerCookieKeys(db, secretBox),
      }),
    metrics ? { observe: { evicted: () => metrics.providerCacheEvictions.inc(), size: (entries) => metrics.providerCacheSize.set(entries) } } : {},
  );
  const flow = new IssuerFlow(deps, { eventsOf, providerFor: (state) => cache.providerFor(state), clientsOf: (state) => clientCache.of(state) });
  await mountProjectProviders(app, flow);
  await registerProjectSignInPages(app, flow);
  await registerVerificationRoutes(app, { db, clock: deps.clock, secretBox, clients, publicUrl, eventsOf });
  return { signLogoutToken: logoutToken, providerFor: (state: IssuerState) => cache.providerFor(state), eventsOf };
}
