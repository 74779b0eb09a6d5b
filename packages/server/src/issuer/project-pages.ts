import type { ErrorOut } from 'oidc-provider';
import { PAGE_TEXTS, pageLanguage } from '../oidc/pages/texts.ts';
import { signInCsp } from '../oidc/mount.ts';
import { errorPage, pageLogo, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import type { LoginCodeMessage } from '../mail/mailer.ts';
import type { IssuerState } from './issuer-state.repository.ts';

/** What a page is rendered for besides the project: the browser's languages and where the pages are served. */
export interface PageRequest {
  acceptLanguage: string | string[] | undefined;
  /** The authorization request's ui_locales (space-separated tags, most preferred first), when it has one. */
  uiLocales?: string | undefined;
  publicUrl: string;
}

/**
 * The pages' language: the first of the request's ui_locales the pages speak (OpenID Connect Core
 * §3.1.2.1), else the browser's Accept-Language, else the project's language.
 */
function languageOf(state: IssuerState, request: PageRequest) {
  const browsers = pageLanguage(request.acceptLanguage, state.language);
  if (!request.uiLocales) return browsers;
  return pageLanguage(request.uiLocales.trim().split(/\s+/).slice(0, 32).join(','), browsers);
}

/**
 * A project's pages (spec §3 branding): its display name and logo, its help and support links, the
 * browser-data warning when enabled, in the browser's language when it is en, fr or ro, else the
 * project's midentityLanguage (docs/decisions/0015). The user id field carries its identityTypeLabel (spec §2).
 */
export function projectBrand(state: IssuerState, request: PageRequest): PageBrand {
  const language = languageOf(state, request);
  const logo = pageLogo(state.logoUrl, request.publicUrl);
  return {
    name: state.displayName,
    idLabel: state.identityTypeLabel || PAGE_TEXTS[language].emailLabel,
    language,
    ...(logo ? { logo } : {}),
    support: { helpUrl: state.helpUrl, email: state.supportEmail, phone: state.supportPhone },
    browserWarning: state.browserWarning,
  };
}

/** The pages' CSP with the brand's logo origin allowed as an image source (and nothing else added). */
export const brandCsp = (brand: PageBrand): string => signInCsp(undefined, brand.logo?.origin);

/** Said after a problem at a project's issuer: the person returns to their application. */
export const startAgain = (brand: PageBrand): string => textsOf(brand).startAgainAtApp;

/**
 * The provider's own error page and its CSP. spec §2: a redirect URI not registered exactly is
 * INVALID_REQUEST_PARAMETERS for redirect_uri, shown here and never redirected to.
 */
export function projectErrorPage(state: IssuerState, out: ErrorOut, request: PageRequest): { html: string; csp: string } {
  const brand = projectBrand(state, request);
  const t = textsOf(brand);
  if (out.error === 'invalid_redirect_uri') {
    const html = errorPage(t.unregisteredRedirect, null, brand, {
      heading: t.invalidRequestHeading,
      code: 'INVALID_REQUEST_PARAMETERS: redirect_uri',
    });
    return { html, csp: brandCsp(brand) };
  }
  // The provider's own description stays as it wrote it (English): it names the OAuth problem exactly.
  const reason = typeof out.error_description === 'string' ? out.error_description : String(out.error ?? 'Unknown error');
  const html = errorPage(t.providerAnswered(reason, startAgain(brand)), null, brand, { code: String(out.error ?? 'auth_error') });
  return { html, csp: brandCsp(brand) };
}

/** spec §4: a disabled application or a closed project rejects end-user authentication. */
export function refusalPage(brand: PageBrand, reason: 'disabled' | 'closed'): string {
  const t = textsOf(brand);
  return reason === 'disabled'
    ? errorPage(t.disabledText, null, brand, { heading: t.disabledHeading })
    : errorPage(t.closedText, null, brand, { heading: t.closedHeading });
}

/** The code's mail in the pages' language, naming the project (login-codes.service.ts). */
export function codeMail(brand: PageBrand): (code: string, minutes: number) => LoginCodeMessage {
  const t = textsOf(brand);
  return (code, minutes) => ({ language: brand.language, subject: t.mailSubject(brand.name, code), text: t.mailText(brand.name, code, minutes) });
}
