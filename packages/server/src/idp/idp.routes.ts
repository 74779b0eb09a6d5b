import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { LoginCodes } from './login-codes.service.ts';
import { IDP_PATH, IDP_SCOPES } from './provider.ts';
import { mountProviders, registerSignInPages, type SignInSite } from './sign-in-pages.ts';
import { LATCHKEY_BRAND, textsOf } from './views.ts';

export interface IdpRoutesDeps {
  provider: Provider;
  loginCodes: LoginCodes;
  publicUrl: string;
}

/**
 * Mounts the built-in provider under /idp and serves its interaction pages (sign in with an
 * emailed code); the machinery is shared with the projects' issuers (sign-in-pages.ts).
 */
export async function registerIdpRoutes(app: FastifyInstance, { provider, loginCodes, publicUrl }: IdpRoutesDeps): Promise<void> {
  const site: SignInSite = {
    provider,
    loginCodes,
    mountPath: IDP_PATH,
    brand: LATCHKEY_BRAND,
    home: `${publicUrl}/`,
    // The console speaks English: so do its sign-in pages (docs/decisions/0015).
    startAgain: textsOf(LATCHKEY_BRAND).startAgainAtConsole,
    // The console's /login reads error=access_denied as "cancelled".
    cancelError: 'access_denied',
    scopes: IDP_SCOPES,
    // The account id at the provider is the verified, lower-cased email address.
    accountFor: async (email) => email,
    // The console, the provider's only client, is never refused here.
    refusal: async () => null,
  };
  await mountProviders(app, { route: `${IDP_PATH}/*`, publicUrl, resolve: async () => ({ provider, mountPath: IDP_PATH }) });
  await registerSignInPages(app, { mountRoute: IDP_PATH, publicUrl, fallback: site, site: async () => site });
}
