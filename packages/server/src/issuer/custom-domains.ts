import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ASSOCIATION_FILES, isAssociationFile, projectIssuerPath, requestHostKey, type AssociationField } from '@latchkey/domain';
import { answeredWithin, type Db } from '../db/db.ts';
import { NOT_FOUND_BODY } from '../errors.ts';
import { routedOrigin, routeToOrigin } from '../oidc/mount.ts';
import { PROBE_PATHS, PROBE_TIMEOUT_MS } from '../http/probes.ts';
import { isIP } from 'node:net';
import { STYLESHEET_PATH } from '../oidc/pages/views.ts';
import { findAssociationFile, findProjectHost, findProjectOrigins, type IssuerState } from './issuer-state.repository.ts';
import { PASSKEY_SCRIPT_PATH, WEBAUTHN_LIBRARY_PATH } from '../oidc/pages/passkey-views.ts';

/**
 * Custom domains (spec §3 customDomain, customMobileDomain; docs/decisions/0016). A request whose
 * Host is a project's custom domain is that project's issuer at the root of the domain; its mobile
 * deep-link domain serves the association files alone. Any other Host is served as before.
 */

/**
 * Where a project's one issuer lives: its identifier, the origin its pages belong to, its path
 * there, and its passkeys' relying party (docs/decisions/0047): the rpID new passkeys are made
 * under, and every origin of the project a passkey may be used at.
 */
export interface IssuerSite {
  issuer: string;
  origin: string;
  mountPath: string;
  rpID: string;
  origins: string[];
  /**
   * docs/decisions/0049: at a custom domain of a project with an own host, the custom domain's host
   * name: the rpID a browser without Related Origin Requests makes and uses passkeys for there
   * (the page script picks it; the server offers both). Null elsewhere.
   */
  localRpID: string | null;
}

/** The project's hosts as stored (project_hosts): its custom domain's origin and its own host's, each or null. */
export interface IssuerHosts {
  customOrigin: string | null;
  ownOrigin: string | null;
}

/** The project's custom domain, unless it is PUBLIC_URL's own host (the update API refuses that; a value stored earlier is ignored). */
function customOriginOf(publicUrl: string, state: Pick<IssuerState, 'customOrigin'>): string | null {
  if (state.customOrigin === null) return null;
  return new URL(state.customOrigin).host === new URL(publicUrl).host ? null : state.customOrigin;
}

/**
 * The issuer's address as stored (docs/decisions/0016, 0047): the custom domain when set, else the
 * project's own host when it has one, else {PUBLIC_URL}/p/{project}. The relying party is the own
 * host's name whenever the project has one, also at its custom domain (Related Origin Requests:
 * the own host lists the custom origin at /.well-known/webauthn); else the host the issuer is at.
 */
export function issuerSite(publicUrl: string, state: Pick<IssuerState, 'projectId'> & IssuerHosts): IssuerSite {
  const custom = customOriginOf(publicUrl, state);
  const own = state.ownOrigin;
  const rpOf = (origin: string) => new URL(own ?? origin).hostname;
  const origins = (origin: string) => [...new Set([origin, ...(own ? [own] : [])])];
  if (custom !== null) {
    const localRpID = own ? new URL(custom).hostname : null;
    return { issuer: custom, origin: custom, mountPath: '', rpID: rpOf(custom), origins: origins(custom), localRpID };
  }
  if (own !== null) return { issuer: own, origin: own, mountPath: '', rpID: rpOf(own), origins: [own], localRpID: null };
  const mountPath = projectIssuerPath(state.projectId);
  return { issuer: `${publicUrl}${mountPath}`, origin: publicUrl, mountPath, rpID: rpOf(publicUrl), origins: [publicUrl], localRpID: null };
}

/**
 * docs/decisions/0047: a project's own host, `{project}.{issuerDomain}` with PUBLIC_URL's scheme and
 * port, or null: no issuer domain configured, or a project id that is no DNS label (every id the
 * server makes is one: 16 characters of lower-case base32; an id made otherwise stays on the shared path).
 */
export function ownHostOrigin(publicUrl: string, issuerDomain: string | null, projectId: string): string | null {
  if (issuerDomain === null || !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(projectId)) return null;
  const url = new URL(publicUrl);
  return `${url.protocol}//${projectId}.${issuerDomain}${url.port ? `:${url.port}` : ''}`;
}

/**
 * How a request under /p/{project} stands to the project's issuer: served, with the site it is served
 * as (PUBLIC_URL/p/{project}, or the custom domain or own host it was routed to by its Host); moved —
 * the issuer is at another address than the one this request came to, PUBLIC_URL's or the own host
 * a custom domain took over from (the address to send it to); or null — it was routed by a domain
 * the project no longer has.
 */
export function issuerAt(raw: IncomingMessage, state: IssuerState, publicUrl: string): { site: IssuerSite } | { movedTo: string } | null {
  const site = issuerSite(publicUrl, state);
  const routed = routedOrigin(raw);
  if (routed && routed.origin === site.origin && site.mountPath === '') return { site };
  if (routed && routed.origin !== state.ownOrigin) return null;
  if (site.mountPath === '' && site.origin !== routed?.origin) {
    const url = new URL(raw.url ?? '/', publicUrl);
    const rest = url.pathname.slice(projectIssuerPath(state.projectId).length) || '/';
    return { movedTo: `${site.origin}${rest}${url.search}` };
  }
  return routed ? null : { site };
}

/**
 * The path the provider is mounted at for this request: a request routed by a custom domain was
 * given the /p/{project} prefix to reach the issuer's routes; the provider sees it without.
 */
export function providerMountPath(raw: IncomingMessage, mountPath: string): string {
  if (!routedOrigin(raw)) return mountPath;
  raw.url = (raw.url ?? '/').slice(mountPath.length) || '/';
  return '';
}

/** The sign-in pages' shared files, served on every host (the pages ask for them from their own origin). */
const SHARED_FILES = new Set([STYLESHEET_PATH, WEBAUTHN_LIBRARY_PATH, PASSKEY_SCRIPT_PATH]);

/** The association files change rarely and are read by the platforms' own fetchers, which cache them anyway. */
const ASSOCIATION_CACHE_CONTROL = 'public, max-age=300';

/**
 * docs/decisions/0047: WebAuthn Related Origin Requests. A browser asked for a passkey of rpID
 * {project}.{ISSUER_DOMAIN} at another origin (the custom domain) fetches this from the rpID's host
 * and allows the origins listed. Briefly cacheable: a domain change shows within five minutes.
 */
export const RELATED_ORIGINS_PATH = '/.well-known/webauthn';
const RELATED_ORIGINS_CACHE_CONTROL = 'public, max-age=300';

const associationFieldOf = (path: string): AssociationField | undefined =>
  (Object.keys(ASSOCIATION_FILES) as AssociationField[]).find((field) => ASSOCIATION_FILES[field] === path);

/**
 * Routes requests by Host: on a project's custom domain or own host (docs/decisions/0047) every path
 * but the association files, the related origins (own host) and the pages' shared files is the project's issuer (the request is routed again under
 * /p/{project}, marked with the domain's origin, so it reaches the issuer's routes and is pinned to
 * that origin); on its mobile domain only the association files exist. PUBLIC_URL's host costs
 * nothing; any other host one primary-key seek. Install it before any route or plugin: a plugin
 * registered earlier keeps the hooks it had (Fastify copies them when the plugin is created).
 */
export function routeCustomDomains(app: FastifyInstance, deps: { db: Db; publicUrl: string }): void {
  const serverHost = new URL(deps.publicUrl).host.toLowerCase();
  const routedAgain = new WeakSet<IncomingMessage>();

  async function sendAssociationFile(reply: FastifyReply, projectId: string, field: AssociationField): Promise<FastifyReply> {
    const text = await findAssociationFile(deps.db, projectId, field);
    // What is not the platform's JSON document (a value stored before the check) is not served.
    if (!isAssociationFile(field, text)) return reply.status(404).header('Cache-Control', 'no-store').send(NOT_FOUND_BODY);
    return reply.status(200).type('application/json').header('Cache-Control', ASSOCIATION_CACHE_CONTROL).send(text);
  }

  app.addHook('onRequest', async (request, reply) => {
    if (routedAgain.has(request.raw)) return;
    const url = request.raw.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    // Health probes and the metrics name the instance's own address: never a project's (issue 23).
    if (PROBE_PATHS.has(path) || path === '/metrics') return;
    // request.host: the Host header, or X-Forwarded-Host from a proxy TRUST_PROXY names.
    const host = requestHostKey(request.host);
    // An address is no custom domain (those are names): a load balancer's or a probe's request costs nothing.
    if (host === null || host === serverHost || isIP(request.hostname.replace(/^\[|\]$/g, '')) !== 0) return;
    let found: Awaited<ReturnType<typeof findProjectHost>> | 'timeout';
    try {
      found = await answeredWithin(findProjectHost(deps.db, host), PROBE_TIMEOUT_MS);
    } catch (error) {
      // The database is down: the console's own files and the probes still answer (issue 23); a
      // custom domain's issuer could not have answered anyway.
      request.log.warn({ err: error }, 'custom domain lookup failed');
      return;
    }
    if (found === 'timeout') {
      // Down behind a pooler, which holds the query instead of failing it: the same, after the
      // deadline readiness gives the database.
      request.log.warn(`custom domain lookup had no answer within ${PROBE_TIMEOUT_MS} ms`);
      return;
    }
    if (!found) return;
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (path === RELATED_ORIGINS_PATH && reading && found.own) {
      const origins = await findProjectOrigins(deps.db, found.projectId);
      return reply.status(200).type('application/json').header('Cache-Control', RELATED_ORIGINS_CACHE_CONTROL).send({ origins });
    }
    const field = associationFieldOf(path);
    if (field && reading) return sendAssociationFile(reply, found.projectId, field);
    if (found.origin === null) return reply.status(404).send(NOT_FOUND_BODY);
    if (SHARED_FILES.has(path) && reading) return;
    routeToOrigin(request.raw, new URL(found.origin));
    request.raw.url = `${projectIssuerPath(found.projectId)}${url.startsWith('/') ? url : `/${url}`}`;
    routedAgain.add(request.raw);
    reply.hijack();
    app.routing(request.raw, reply.raw);
  });
}
