import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import type { Mailer } from '../mail/mailer.ts';
import { accountPath } from '../issuer/account-client.ts';
import { issuerAt, type IssuerSite } from '../issuer/custom-domains.ts';
import { findIssuerState, type IssuerState } from '../issuer/issuer-state.repository.ts';
import { projectBrand, startAgain } from '../issuer/project-pages.ts';
import { verificationSettingsOf, withIdentity } from '../issuer/verification.ts';
import { errorPage, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import type { AccountLinks } from './account-views.ts';

/** The project an account page request reached, and how its pages answer. */

export interface AccountPagesDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  /** The notices of account recovery (docs/decisions/0051). */
  mailer: Mailer;
  publicUrl: string;
  providerFor(state: IssuerState): Promise<Provider>;
  eventsOf(projectId: string): IssuerEvents;
  /** Sends the back-channel logout notices a change queued now. */
  logoutNoticesQueued(): void;
  /** The applications' names by client id (the applications' own repository answers it). */
  applicationNames(projectId: string, clientIds: string[]): Promise<Map<string, string>>;
}

export type AccountRequest = FastifyRequest<{
  Params: { project: string; session?: string };
  Querystring: Record<string, string | undefined>;
  Body: Record<string, string | undefined> | undefined;
}>;

/** One request's project, as the page is served for it. */
export interface AccountSite {
  state: IssuerState;
  site: IssuerSite;
  brand: PageBrand;
  provider: Provider;
  links: AccountLinks;
}

/** A page a step answers with from wherever it is (the error handler sends it). */
export class PageAnswer extends Error {
  readonly status: number;
  readonly html: string;
  constructor(status: number, html: string) {
    super('page');
    this.status = status;
    this.html = html;
  }
}

/** The brand of a page answered before the project is known. */
export const FALLBACK_BRAND: PageBrand = { name: 'Latchkey', idLabel: 'Email', language: 'en' };

export const html = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/html; charset=utf-8').send(body);

export const notFoundPage = (brand: PageBrand) => new PageAnswer(404, errorPage(textsOf(brand).noSuchIssuer(startAgain(brand)), null, brand));

/**
 * The project whose issuer this request reached (its custom domain when it has one); null when
 * the project moved to its custom domain (the browser was sent there); a page answers otherwise.
 */
export async function accountSiteOf(deps: AccountPagesDeps, request: AccountRequest, reply: FastifyReply): Promise<AccountSite | null> {
  const state = await findIssuerState(deps.db, request.params.project);
  if (!state) throw notFoundPage(FALLBACK_BRAND);
  const at = issuerAt(request.raw, state, deps.publicUrl);
  if (at === null) throw notFoundPage(FALLBACK_BRAND);
  if ('movedTo' in at) {
    await reply
      .status(307)
      .header('Location', at.movedTo)
      .type('text/plain; charset=utf-8')
      .send(`This page is at ${new URL(at.movedTo).origin}`);
    return null;
  }
  const request_ = { acceptLanguage: request.headers['accept-language'], publicUrl: at.site.origin };
  const brand = withIdentity(projectBrand(state, request_), verificationSettingsOf(state), state.identityTypeLabel !== '');
  return { state, site: at.site, brand, provider: await deps.providerFor(state), links: { base: accountPath(at.site.mountPath) } };
}
