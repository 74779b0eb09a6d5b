import type { ClientAuthMethod, ClientMetadata } from 'oidc-provider';
import { ACCOUNT_CLIENT_ID } from '@latchkey/domain';
import { APPLICATION_TYPE_METADATA } from '../oidc/issuer-provider.ts';

/**
 * The end user's account page (account-pages.ts, docs/decisions/0040) signs in through its issuer
 * as this client, which every project's issuer has besides the project's applications.
 */

/** The account page's client id at every project's issuer (an application's is 22 characters of base64url: never this). */
export { ACCOUNT_CLIENT_ID };

export const accountPath = (mountPath: string) => `${mountPath}/account`;

/** The account page's client: a web client returning to the page; its code is taken by the page itself, never exchanged. */
export function accountClient(issuer: string, authMethod: ClientAuthMethod, signingAlg: string): ClientMetadata {
  return {
    client_id: ACCOUNT_CLIENT_ID,
    application_type: 'web',
    [APPLICATION_TYPE_METADATA]: 'web',
    redirect_uris: [`${issuer}/account/callback`],
    post_logout_redirect_uris: [],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: authMethod,
    id_token_signed_response_alg: signingAlg as ClientMetadata['id_token_signed_response_alg'],
  };
}
