import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectIssuerPath, type Issuer } from '@latchkey/domain';
import { decodeUtf8Strictly } from '../http/input-guard.ts';
import { mountProviders } from '../oidc/mount.ts';
import { requestOrigin } from '../oidc/pages/site.ts';
import { errorPage, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import { interactionRefOf } from '../oidc/payloads.repository.ts';
import { issuerAt, providerMountPath } from './custom-domains.ts';
import { MOUNT_ROUTE, type IssuerFlow } from './issuer-flow.ts';
import { findIssuerState, type IssuerState } from './issuer-state.repository.ts';
import { brandCsp, projectBrand, startAgain } from './project-pages.ts';

/**
 * The projects' providers at {PUBLIC_URL}/p/{project} or a custom domain's root: which project's
 * provider answers a request, and the authorization request's checks before the provider sees it.
 */

/**
 * spec §2 code_challenge_methods: oidc-provider 9 verifies S256 only. A `plain` challenge the
 * project allows is handed on as its S256 (S256(verifier) equals S256(challenge) exactly when the
 * verifier equals the challenge); a method the project does not allow is handed on as one
 * oidc-provider refuses, so the client gets invalid_request at its redirect URI.
 */
function applyChallengeMethods(search: URLSearchParams, issuer: Issuer): void {
  const challenge = search.get('code_challenge');
  if (challenge === null) return;
  const method = search.get('code_challenge_method') ?? 'plain';
  if (!(issuer.code_challenge_methods as readonly string[]).includes(method)) {
    search.set('code_challenge_method', `${method} (not allowed by this issuer)`);
  } else if (method === 'plain') {
    search.set('code_challenge', createHash('sha256').update(challenge, 'ascii').digest('base64url'));
    search.set('code_challenge_method', 'S256');
  }
}

/** An authorization request POSTed as a urlencoded form (at most 16 KiB, strict UTF-8), or null. */
async function readAuthorizationForm(raw: IncomingMessage): Promise<URLSearchParams | null> {
  if (!String(raw.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    size += (chunk as Buffer).length;
    if (size > 16_384) return null;
    chunks.push(chunk as Buffer);
  }
  const text = decodeUtf8Strictly(Buffer.concat(chunks));
  if (text === null) return null;
  try {
    return new URLSearchParams(text);
  } catch {
    return null;
  }
}

/** The interaction uid a provider resume request (…/auth/{uid}) names, or null. */
function resumedUidOf(url: string): string | null {
  const encoded = /\/auth\/([^/?#]+)/.exec(url)?.[1];
  if (encoded === undefined) return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/**
 * The authorization request, checked before the provider sees it: a POSTed form read as the
 * equivalent GET, a refused client or closed project answered with a page, the PKCE policy applied.
 * False: answered already.
 */
async function checkAuthorizationRequest(
  flow: IssuerFlow,
  request: FastifyRequest,
  reply: FastifyReply,
  p: { state: IssuerState; url: URL; mountPath: string; brand: PageBrand },
): Promise<boolean> {
  const { state, url, mountPath, brand } = p;
  // OpenID Connect Core §3.1.2.1: the request may be POSTed as a form; it is read here and
  // handed on as the equivalent GET, so both go through the same checks.
  if (request.method === 'POST') {
    const form = await readAuthorizationForm(request.raw);
    if (!form) {
      await flow.refuse(reply, 400, errorPage(textsOf(brand).invalidRequest(startAgain(brand)), null, brand), brandCsp(brand));
      return false;
    }
    for (const [name, value] of form) url.searchParams.set(name, value);
    request.raw.method = 'GET';
  }
  // spec §4: refused with a page before the provider sees the request.
  const refused = await flow.refusalFor(state, url.searchParams.get('client_id'), brand);
  if (refused) {
    await flow.eventsOf(state.projectId).refusal(requestOrigin(request, url.searchParams.get('client_id')), {
      scope: 'oidc',
      status: 'disabled',
      action: 'authorization_request',
      userId: null,
    });
    await flow.refuse(reply, 403, refused, brandCsp(brand));
    return false;
  }
  applyChallengeMethods(url.searchParams, state.issuer);
  request.raw.url = `${mountPath}/auth${url.search}`;
  return true;
}

export async function mountProjectProviders(app: FastifyInstance, flow: IssuerFlow): Promise<void> {
  const { db, secretBox, publicUrl } = flow.deps;
  await mountProviders(app, {
    route: `${MOUNT_ROUTE}/*`,
    publicUrl,
    async resolve(request, reply) {
      // The provider's resume (…/auth/{uid}) reads its interaction first: read ahead with the state.
      const resumed = resumedUidOf(request.raw.url ?? '');
      const state = await findIssuerState(db, request.params.project ?? '', resumed === null ? undefined : interactionRefOf(secretBox, resumed));
      const mountPath = state ? projectIssuerPath(state.projectId) : '';
      const url = new URL(request.raw.url ?? '/', publicUrl);
      if (!state || !url.pathname.startsWith(`${mountPath}/`)) {
        await flow.refuse(reply, 404, flow.noSuchIssuer(request));
        return null;
      }
      // docs/decisions/0016: one issuer per project; with a custom domain, it is there only.
      const at = issuerAt(request.raw, state, publicUrl);
      if (at === null) {
        await flow.refuse(reply, 404, flow.noSuchIssuer(request));
        return null;
      }
      if ('movedTo' in at) {
        await reply
          .status(307)
          .header('Location', at.movedTo)
          .header('Cache-Control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(`This sign-in service is at ${new URL(at.movedTo).origin}`);
        return null;
      }
      const brand = projectBrand(state, flow.pageRequest(request));
      // The provider's router ignores case and one trailing slash: so does this check, or /AUTH would
      // pass the refusal and the PKCE policy by.
      if (url.pathname.slice(mountPath.length).toLowerCase().replace(/\/$/, '') === '/auth') {
        if (!(await checkAuthorizationRequest(flow, request, reply, { state, url, mountPath, brand }))) return null;
      }
      return { provider: await flow.providerFor(state), mountPath: providerMountPath(request.raw, mountPath) };
    },
  });
}
