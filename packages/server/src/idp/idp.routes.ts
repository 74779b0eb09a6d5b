import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { LoginCodes } from '../oidc/login-codes.service.ts';
import { passkeySteps } from '../oidc/passkey-steps/passkey-steps.ts';
import { mountProviders } from '../oidc/mount.ts';
import { registerSignInPages } from '../oidc/pages/sign-in-pages.ts';
import type { SignInSite } from '../oidc/pages/site.ts';
import { LATCHKEY_BRAND, textsOf } from '../oidc/pages/views.ts';
import { CONSOLE_ISSUER, IDP_PATH } from './console-issuer.ts';
import { consolePasskeys } from './console-passkeys.repository.ts';

export interface IdpRoutesDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  provider: Provider;
  loginCodes: LoginCodes;
  publicUrl: string;
}

/**
 * Mounts the console's issuer under /idp and serves its sign-in pages: the same pages, steps and
 * limits as every project's issuer (oidc/), read as the console's (docs/decisions/0027). Passkey
 * first (docs/decisions/0048): page 1 offers the administrators' passkeys without an address (autofill,
 * "Sign in with a passkey"); an address typed gets the emailed code, then an administrator without a
 * passkey is offered one.
 */
export async function registerIdpRoutes(app: FastifyInstance, deps: IdpRoutesDeps): Promise<void> {
  const { provider, loginCodes, publicUrl } = deps;
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
    // The account id at the provider is the verified, lower-cased email address.
    accountFor: async (email) => email,
    // The console, the provider's only client, is never refused here.
    refusal: async () => null,
    passkeys: passkeySteps({
      db: deps.db,
      clock: deps.clock,
      secretBox: deps.secretBox,
      publicUrl,
      issuerKey: CONSOLE_ISSUER,
      mountPath: IDP_PATH,
      brand: LATCHKEY_BRAND,
      store: consolePasskeys(deps.db, deps.secretBox),
      quickCodes: { enabled: false },
      // A passkey on this device first, or on a phone by its QR code.
      login: { browser: true, mobile: true, primary: 'browserLogin' },
      // docs/decisions/0048: passkey first here too (autofill, "Sign in with a passkey"); page 1
      // tells nothing about an address. Its relying party is PUBLIC_URL's host, shared with the
      // projects on the shared path: their passkeys are refused by name (heldElsewhere).
      discoverable: true,
    }),
  };
  await mountProviders(app, { route: `${IDP_PATH}/*`, publicUrl, resolve: async () => ({ provider, mountPath: IDP_PATH }) });
  await registerSignInPages(app, { mountRoute: IDP_PATH, publicUrl, fallback: site, site: async () => site });
}
