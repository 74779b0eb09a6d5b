import Provider, { type ClientAuthMethod } from 'oidc-provider';
import { issuerClientRedirects, type ApplicationType } from '@latchkey/domain';
import type { IssuerEvents } from '../events/end-user-event.ts';
import { APPLICATION_TYPE_METADATA, type IssuerClients } from '../oidc/issuer-provider.ts';
import { ACCOUNT_CLIENT_ID, accountClient } from './account-client.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import { originOf } from './provider-requests.ts';

/** What the provider needs to know about a client id (the applications' repository answers it). */
export interface Client {
  projectId: string;
  applicationType: ApplicationType;
  clientSecretHash: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** Back-Channel Logout 1.0: where a logout token is posted when a session of its user ends. */
  backchannelLogoutUri: string | null;
  applicationEnabled: boolean;
  projectEnabled: boolean;
}

export interface ProjectClients {
  findClient(clientId: string): Promise<Client | null>;
  /** `found`: the client as this request already read it through findClient, if it did. */
  verifyClientCredentials(clientId: string, clientSecret: string, found?: Client | null): Promise<boolean>;
}

/** Can this client sign anyone in at this project's issuer right now? */
export function clientState(client: Client | null, projectId: string): 'unknown' | 'disabled' | 'closed' | 'ok' {
  if (!client || client.projectId !== projectId) return 'unknown';
  if (!client.projectEnabled) return 'closed';
  if (!client.applicationEnabled) return 'disabled';
  return 'ok';
}

/**
 * A project's applications as its provider's clients: each looked up at its use (as of the
 * project's state), its secret verified against the stored hash (docs/decisions/0009, 0012), never
 * held by the provider; the account page's client at every project's issuer.
 */
export function projectApplications(p: {
  clients: ProjectClients;
  clientOf(clientId: string): Promise<Client | null>;
  state: IssuerState;
  /** The issuer's identifier (its custom domain's origin, or {PUBLIC_URL}/p/{project}). */
  issuerUrl: string;
  /** The token endpoint's secret methods, the project's first. */
  secretMethods: ClientAuthMethod[];
  /** With 'none' when the project allows PKCE-only exchange. */
  clientAuthMethods: ClientAuthMethod[];
  events: IssuerEvents;
}): IssuerClients {
  const { clients, clientOf, secretMethods, clientAuthMethods, events } = p;
  const { projectId, issuer } = p.state;
  return {
    async find(clientId, presented) {
      // The end user's account page signs in as a client of every project's issuer (account-pages.ts).
      if (clientId === ACCOUNT_CLIENT_ID) return accountClient(p.issuerUrl, secretMethods[0] ?? 'client_secret_basic', issuer.id_token_signing_alg);
      const client = await clientOf(clientId);
      if (clientState(client, projectId) !== 'ok' || !client) return undefined;
      // A secret is checked by verifySecret against the methods the project allows. Without one, a
      // single-page or native app is a public client while the project allows PKCE-only exchange; a
      // web app is confidential (else the registered secret method does not match and the request is
      // refused). docs/decisions/0028.
      const publicClient = presented === 'none' && client.applicationType !== 'web' && clientAuthMethods.includes('none');
      // RFC 8252: a native app returns to a private-use scheme, a claimed https URL or any port of a
      // loopback address; URIs the issuer cannot return to are left out (docs/decisions/0012).
      const { applicationType, redirectUris } = issuerClientRedirects(client.redirectUris, client.applicationType);
      const postLogout = issuerClientRedirects(client.postLogoutRedirectUris, client.applicationType).redirectUris;
      return {
        client_id: clientId,
        application_type: applicationType,
        [APPLICATION_TYPE_METADATA]: client.applicationType,
        redirect_uris: redirectUris,
        post_logout_redirect_uris: postLogout,
        // Its ID tokens carry `sid`, the session its logout tokens name (Back-Channel Logout 1.0 §2.2).
        ...(client.backchannelLogoutUri ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: publicClient ? 'none' : (secretMethods[0] ?? 'client_secret_basic'),
        id_token_signed_response_alg: issuer.id_token_signing_alg,
      };
    },
    async verifySecret(clientId, secret, method) {
      // The account page's client has no secret: its code is never exchanged.
      const valid =
        clientId !== ACCOUNT_CLIENT_ID &&
        secretMethods.includes(method) &&
        (await clients.verifyClientCredentials(clientId, secret, await clientOf(clientId)));
      if (!valid) {
        await events.refusal(originOf(Provider.ctx, clientId), {
          scope: 'authcode',
          status: 'failed',
          action: 'token',
          userId: null,
          details: { reason: 'invalid_client', method },
        });
      }
      return valid;
    },
  };
}
