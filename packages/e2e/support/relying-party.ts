import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { createAppWithKeysThroughApi } from './call-api.ts';
import { freePort } from './start-server.ts';

/**
 * A tiny relying party for the scenarios — not part of the product: an "application" that sends
 * its user to a project's issuer (authorization code + PKCE) and, back at its callback, exchanges
 * the code for tokens at the token endpoint with its client secret, then shows who signed in.
 * Opened as `/?response_mode=form_post`, it asks for the code to be posted back (a form) instead.
 */
export interface RelyingParty {
  /** Where a person opens the application: it sends them to sign in at once. */
  url: string;
  redirectUri: string;
  /** Registers the application's client; call before anyone signs in. */
  useClient(client: { issuer: string; clientId: string; clientSecret: string }): void;
  close(): Promise<void>;
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

function page(heading: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(heading)} · Test app</title></head><body><main><h1>${escape(heading)}</h1><p>${escape(text)}</p></main></body></html>`;
}

export async function startRelyingParty(): Promise<RelyingParty> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const redirectUri = `${origin}/callback`;
  let client: { issuer: string; clientId: string; clientSecret: string } | null = null;
  // state → PKCE verifier of the sign-ins under way (the test's memory: this is not the product).
  const pending = new Map<string, string>();

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const send = (status: number, body: string) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (!client) return send(500, page('Not configured', 'No client yet'));
    const { issuer, clientId, clientSecret } = client;
    if (url.pathname === '/') {
      const verifier = randomBytes(32).toString('base64url');
      const state = randomBytes(16).toString('base64url');
      pending.set(state, verifier);
      const auth = new URL(`${issuer}/auth`);
      auth.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid email',
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        ...(url.searchParams.get('response_mode') === 'form_post' ? { response_mode: 'form_post' } : {}),
      }).toString();
      return response.writeHead(303, { location: auth.href }).end();
    }
    if (url.pathname === '/callback') {
      // The answer in the query, or posted as a form (response_mode=form_post).
      let answer = url.searchParams;
      if (request.method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        answer = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      }
      const verifier = pending.get(answer.get('state') ?? '');
      const code = answer.get('code');
      if (!verifier || !code) return send(400, page('Sign-in failed', answer.get('error') ?? 'no code'));
      pending.delete(answer.get('state') ?? '');
      void fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }).toString(),
      })
        .then(async (res) => {
          const tokens = (await res.json()) as { id_token?: string; error?: string };
          if (!tokens.id_token) return send(502, page('Sign-in failed', tokens.error ?? `token endpoint answered ${res.status}`));
          // The server suite verifies ID tokens against JWKS; here the subject is what the page shows.
          const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string };
          return send(200, page('Signed in to the test app', `Subject: ${claims.sub}`));
        })
        .catch((error: unknown) => send(502, page('Sign-in failed', String(error))));
      return;
    }
    return send(404, page('Not found', url.pathname));
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  return {
    url: `${origin}/`,
    redirectUri,
    useClient(c) {
      client = c;
    },
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

/**
 * Registers the test app in the project through the API (its redirect URI, a secret) and points it
 * at the project's issuer on the shared path, `{baseURL}/p/{project}`; answers the app's keys.
 */
export async function connectTestAppThroughApi(page: Page, app: RelyingParty, projectId: string, baseURL: string | undefined) {
  const keys = await createAppWithKeysThroughApi(page, projectId, [app.redirectUri]);
  app.useClient({ issuer: `${baseURL}/p/${projectId}`, clientId: keys.clientId, clientSecret: keys.clientSecret });
  return keys;
}
