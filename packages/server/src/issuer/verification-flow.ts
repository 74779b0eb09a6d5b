import type { JsonWebKey } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import type { LoginCodeMessage, Mailer } from '../mail/mailer.ts';
import type { LoginCodes } from '../oidc/login-codes.service.ts';
import type { StepContext, StepOutcome } from '../oidc/pages/site.ts';
import { VERIFICATION_SCRIPT_PATH, type VerificationLinks } from '../oidc/pages/verification-views.ts';
import { textsOf, type PageBrand } from '../oidc/pages/views.ts';
import type { IssuerSite } from './custom-domains.ts';
import { VERIFICATION_TTL_MS, verificationRefs, type VerificationSettings } from './verification.ts';

/**
 * What every verification step shares (verification-start-step.ts, verification-wait-step.ts,
 * verification-link-step.ts): the project's settings and site, the keyed references its
 * verifications are found by, the pages' words and links.
 */

export interface VerificationDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  mailer: Mailer;
  loginCodes: LoginCodes;
  events: IssuerEvents;
  projectId: string;
  settings: VerificationSettings;
  site: IssuerSite;
  brand: PageBrand;
  /** The project's signing keys, the current algorithm's first (project-keys.ts). */
  signingKeys: () => Promise<JsonWebKey[]>;
}

export class VerificationFlow {
  readonly refs: ReturnType<typeof verificationRefs>;
  readonly t: ReturnType<typeof textsOf>;

  readonly deps: VerificationDeps;

  constructor(deps: VerificationDeps) {
    this.deps = deps;
    this.refs = verificationRefs(deps.secretBox, deps.projectId);
    this.t = textsOf(deps.brand);
  }

  linksOf(ctx: StepContext): VerificationLinks {
    return {
      ...ctx.links,
      verify: `${ctx.links.emailPage}/verify`,
      status: `${ctx.links.emailPage}/verify/status`,
      verified: `${ctx.links.emailPage}/verified`,
      script: `${this.deps.site.mountPath}${VERIFICATION_SCRIPT_PATH}`,
    };
  }

  startOver(ctx: StepContext): StepOutcome {
    return { redirect: ctx.links.emailPage };
  }

  query(ctx: StepContext): Record<string, string | undefined> {
    return ctx.request.query as Record<string, string | undefined>;
  }

  linkMail(link: string): LoginCodeMessage {
    const { brand } = this.deps;
    return {
      language: brand.language,
      subject: this.t.linkMailSubject(brand.name),
      text: this.t.linkMailText(brand.name, link, VERIFICATION_TTL_MS / 60_000),
    };
  }
}
