import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './app.ts';

export interface ExternalProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the provider's trivial interaction signs in next. */
  nextUser: { email: string; verified: boolean };
  close(): Promise<void>;
}

/**
 * A second, separately configured OpenID provider standing in for an external one: its own
 * issuer on a random loopback port, its own client registration, in-memory storage, and an
 * interaction that signs in `nextUser` at once (no pages). It keeps oidc-provider's default of
 * email claims in userinfo only, so the console's userinfo path is exercised.
 */
export async function startExternalProvider(consoleBaseUrl: string, fixedPort?: number): Promise<ExternalProvider> {
  const port = fixedPort ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'latchkey-external-test';
  const clientSecret = 'external-test-secret-0123456789abcdef';
  const state: ExternalProvider['nextUser'] = { email: 'external.user@example.test', verified: true };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${consoleBaseUrl}/login`],
        post_logout_redirect_uris: [`${consoleBaseUrl}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    scopes: ['openid', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    cookies: { keys: ['external-test-cookie-key'] },
    async findAccount(_ctx, sub) {
      return { accountId: sub, claims: async () => ({ sub, email: state.email, email_verified: state.verified }) };
    },
  });
  const callback = provider.callback();

  const server: Server = createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      void callback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = `ext-${state.email}`;
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    issuer,
    clientId,
    clientSecret,
    nextUser: state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
