import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { LoginCodes } from '../login-codes.service.ts';
import type { FirstPagePasskey, InteractionLinks, PageBrand, PasskeySignal } from './views.ts';

export type { FirstPagePasskey };

/** How the pages of one provider read and what a finished sign-in becomes. */
export interface SignInSite {
  provider: Provider;
  loginCodes: LoginCodes;
  /** The path the provider is mounted on (`/idp`, `/p/{project}`): its interactions live under it. */
  mountPath: string;
  brand: PageBrand;
  /** Where error pages lead back to, or null (a project's end user returns to their app). */
  home: string | null;
  /** Said after a problem: what to do next. */
  startAgain: string;
  /** The OAuth error Cancel answers the client with. */
  cancelError: string;
  /** The provider account of a verified address. */
  accountFor(email: string): Promise<string>;
  /** A page that refuses the sign-in before it starts (disabled application, closed project), or null. */
  refusal(details: Interaction): Promise<string | null>;
  /**
   * The page that refuses `accountId` once they proved who they are (a blocked user, issue 24),
   * its event recorded; null: they may sign in. None: the issuer blocks no one (the console's).
   */
  refuseAccount?(ctx: StepContext, accountId: string): Promise<string | null>;
  /**
   * A verified identity signed `accountId` in without a passkey (`method`: email_code, email_link,
   * custom): a project's issuer tells a person who holds passkeys, and starts its delay (docs/decisions/0051).
   */
  afterFallbackSignIn?(ctx: StepContext, accountId: string, method: string): Promise<void>;
  /** Passkey pages between the address and the sign-in (every issuer: docs/decisions/0013, 0027). */
  passkeys?: PasskeySteps;
  /** What the pages report as events (a project's issuer, docs/decisions/0014); the console's issuer records none. */
  events?: SignInEvents;
  /** The project's identity type and verification method (docs/decisions/0018); none: email + emailed code. */
  verification?: VerificationSteps;
  /** docs/decisions/0052: imported people's previous passwords, once each; none: the issuer imports no one (the console's). */
  importedPasswords?: ImportedPasswords;
}

/** Imported password hashes at sign-in (docs/decisions/0052). */
export interface ImportedPasswords {
  /** The code page offers the previous password: the project holds a hash that may still be used. */
  offered(): Promise<boolean>;
  /** Does `password` match the usable hash of `email`? False, after the same kind of work, when it has none. */
  check(email: string, password: string): Promise<boolean>;
  /** The hash served its one sign-in: it goes. */
  used(email: string): Promise<void>;
}

/** Where a request of the sign-in pages comes from, for its events. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
  clientId: string | null;
}

/** The events of the pages' own steps; the passkey steps report theirs themselves. */
export interface SignInEvents {
  /** The sign-in was refused before it started (disabled application, closed project). */
  refused(origin: RequestOrigin): Promise<void>;
  /** An emailed code (or `method`, docs/decisions/0018) signed `email` in (no passkey was used or created). */
  signedInWithCode(origin: RequestOrigin, email: string, accountId: string, method?: string): Promise<void>;
  /** A code was not accepted (`reason`: wrong, used, expired, too_many, address_locked). */
  codeRefused(origin: RequestOrigin, email: string, reason: string): Promise<void>;
  /** The code could not be mailed. */
  mailFailed(origin: RequestOrigin, email: string): Promise<void>;
}

/**
 * docs/decisions/0048: the page script posts a passkey's answer by fetch asking for JSON, so that a
 * sign-in answers `{ redirect, signals }` instead of a 303 (the script sends the signals, then
 * follows the redirect); a form posted by the browser itself never asks for it.
 */
export function asksForJson(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').split(',').some((type) => type.trim().split(';')[0] === 'application/json');
}

/** The origin of a request in an interaction: client address, user agent, application. */
export function requestOrigin(request: FastifyRequest, clientId: unknown): RequestOrigin {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null, clientId: typeof clientId === 'string' ? clientId : null };
}

/**
 * What a step answers: another page of the flow, a page to show, a JSON answer (a page script's
 * question), the signed-in account, or a verified identity (docs/decisions/0018) that goes on as
 * after an emailed code (the passkey offer for a user without one).
 */
export type StepOutcome =
  | { redirect: string }
  | { status: number; page: string }
  | { status: number; json: unknown }
  | {
      accountId: string;
      deviceId?: string;
      /** Signal API calls for the browser once signed in (docs/decisions/0048): sent when the page script asked for JSON. */
      signals?: PasskeySignal[];
    }
  | { verified: VerifiedIdentity };

/** An identity as page 1 takes it (spec §3 identityType): an email address or an alphanumeric user id, lower-cased. */
export interface Identity {
  type: 'email' | 'alphanumeric';
  value: string;
}

/** A user whose identity a verification method proved: their account, identity and the method (`email_code`, `email_link`, `custom`). */
export interface VerifiedIdentity {
  accountId: string;
  identity: string;
  method: string;
}

/**
 * How a site's new users verify their identity when it is not (only) an emailed code
 * (docs/decisions/0018: Email Link, Custom): page 1's rule for the identity, the step that starts
 * the verification, and the pages of one under way.
 */
export interface VerificationSteps {
  /** Page 1's field as this site's identity, or null (the page then says `invalidIdentity`). */
  identityOf(typed: string): Identity | null;
  invalidIdentity: string;
  /** A user to verify (no passkey, or asked to verify again): the next page, or null for the emailed code. */
  start(ctx: StepContext, identity: Identity, options: { resend: boolean }): Promise<StepOutcome | null>;
  /** `/verify`: waiting for the link to be opened, or the way to the project's verification. */
  waitPage(ctx: StepContext): Promise<StepOutcome>;
  /** `/verify/status`: the waiting page's script asks whether the verification was confirmed. */
  status(ctx: StepContext): Promise<StepOutcome>;
  /** `/verified`: the interaction goes on with its confirmed verification. */
  resume(ctx: StepContext): Promise<StepOutcome>;
  /** `/link`: the emailed link opened; `sameBrowser` when this browser holds the interaction, `confirm` when posted. */
  openLink(ctx: StepContext, token: string, options: { sameBrowser: boolean; confirm: boolean }): Promise<StepOutcome>;
}

/** The interaction a step runs in (already checked: this browser's, in its login prompt, not refused). */
export interface StepContext {
  uid: string;
  links: InteractionLinks;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Where the request comes from, for events. */
  origin: RequestOrigin;
}

/**
 * The passkey part of a site's sign-in: after page 1 a user with a passkey is sent to use it; after
 * the emailed code a user without one is offered to create one; each ceremony's page and answer.
 */
export interface PasskeySteps {
  /** Page 1 posted with a well-formed address: where to go instead of sending a code, or null. */
  afterEmail(ctx: StepContext, email: string, identityType?: Identity['type']): Promise<StepOutcome | null>;
  /** The code (or `verifiedBy`, docs/decisions/0018) verified `email`, the account `accountId`: a page before signing in, or null. */
  afterCode(ctx: StepContext, accountId: string, email: string, verifiedBy?: string): Promise<StepOutcome | null>;
  passkeyPage(ctx: StepContext): Promise<StepOutcome>;
  passkeySubmit(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
  /**
   * docs/decisions/0047: page 1's discoverable request where the issuer has a relying party of its
   * own (its options, for the autofill and the "Sign in with a passkey" button, and where the answer
   * is posted); null elsewhere (the address comes first).
   */
  firstPage(ctx: StepContext): Promise<FirstPagePasskey | null>;
  /** The answer to page 1's discoverable request. */
  discoverSubmit(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
  registerPage(ctx: StepContext): Promise<StepOutcome>;
  registerSubmit(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
  /** The project offers QuickCodes (docs/decisions/0017): page 1 links to the QuickCode page. */
  quickCodes: boolean;
  /** Page 1's "Use a recovery code" link text (docs/decisions/0051), where the issuer has recovery codes; else null. */
  recoveryLink: string | null;
  /** "Use a recovery code": the identity and one of the person's codes, then a new passkey. */
  recoveryPage(ctx: StepContext): Promise<StepOutcome>;
  recoverySubmit(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
  /** "I have a QuickCode": the address and the code, instead of verifying the address. */
  quickCodePage(ctx: StepContext): Promise<StepOutcome>;
  quickCodeSubmit(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
  /** After a QuickCode was shown: the sign-in it was issued in goes on. */
  quickCodeContinue(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
}

/** Why no code was sent, in the page's words (page-texts.ts). */
export type FormBody = Record<string, string | undefined>;
