import type Provider from 'oidc-provider';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import type { CountryLookup } from '../geoip.ts';
import type { Metrics } from '../http/metrics.ts';
import type { Mailer } from '../mail/mailer.ts';
import { routedOrigin, SIGN_IN_CSP } from '../oidc/mount.ts';
import { pageLanguage } from '../oidc/pages/texts.ts';
import { errorPage, LATCHKEY_BRAND, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import { refusalPage, startAgain, type PageRequest } from './project-pages.ts';
import { clientState, type Client, type ProjectClients } from './project-applications.ts';

export interface ProjectIssuerDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  secretBox: SecretBox;
  clients: ProjectClients;
  publicUrl: string;
  /** Country of a client address; defaults to the offline database (geoip.ts). */
  countries?: CountryLookup;
  /** Where a logout notice that could not be queued is reported. */
  warn(error: unknown): void;
  /** A logout queued back-channel notices: their sender is nudged (the outbox, app.ts). */
  logoutNoticesQueued?: () => void;
  /** The server's metrics (http/metrics.ts): events by result, the provider cache. */
  metrics?: Metrics;
  /** An event queued webhook messages: their sender is nudged (events.ts). */
  webhooksQueued?: () => void;
}

/**
 * What the project issuer's route groups share (provider-mount.ts, project-sign-in.ts): the
 * issuer's dependencies, each project's events, provider and clients as of its state, and how a
 * request is refused with a page before the provider sees it.
 */

/** Every project's issuer is mounted here (and at the root of its custom domain, docs/decisions/0016). */
export const MOUNT_ROUTE = '/p/:project';

export interface IssuerParts {
  eventsOf(projectId: string): IssuerEvents;
  /** The project's provider as of `state` (provider-cache.ts). */
  providerFor(state: IssuerState): Promise<Provider>;
  /** The project's clients as of `state` (client-cache.ts). */
  clientsOf(state: IssuerState): (clientId: string) => Promise<Client | null>;
}

export class IssuerFlow {
  readonly deps: ProjectIssuerDeps;
  readonly parts: IssuerParts;

  constructor(deps: ProjectIssuerDeps, parts: IssuerParts) {
    this.deps = deps;
    this.parts = parts;
  }

  eventsOf(projectId: string): IssuerEvents {
    return this.parts.eventsOf(projectId);
  }

  providerFor(state: IssuerState): Promise<Provider> {
    return this.parts.providerFor(state);
  }

  refuse(reply: FastifyReply, status: number, body: string, csp = SIGN_IN_CSP) {
    return reply
      .status(status)
      .header('Content-Security-Policy', csp)
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(body);
  }

  /** What a page answering `request` is rendered for (project-pages.ts: language, logo). */
  // The page's own origin (a custom domain's, docs/decisions/0016) decides which logo schemes it may show.
  pageRequest(request: FastifyRequest, uiLocales?: unknown): PageRequest {
    return {
      acceptLanguage: request.headers['accept-language'],
      ...(typeof uiLocales === 'string' ? { uiLocales } : {}),
      publicUrl: routedOrigin(request.raw)?.origin ?? this.deps.publicUrl,
    };
  }

  noSuchIssuer(request: FastifyRequest): string {
    const brand = { ...LATCHKEY_BRAND, language: pageLanguage(request.headers['accept-language'], 'en') };
    return errorPage(textsOf(brand).noSuchIssuer(startAgain(brand)), null, brand);
  }

  /** Why this client may not sign anyone in, or null. */
  async refusalFor(state: IssuerState, clientId: unknown, brand: PageBrand): Promise<string | null> {
    if (!state.enabled) return refusalPage(brand, 'closed');
    const status = typeof clientId === 'string' ? clientState(await this.parts.clientsOf(state)(clientId), state.projectId) : 'unknown';
    return status === 'disabled' || status === 'closed' ? refusalPage(brand, status) : null;
  }
}
