import { ACCOUNT_TEXTS, type AccountTexts } from './account-texts.ts';
import { escapeHtml, signInPage, type PageBrand } from '../oidc/pages/views.ts';

/**
 * The end user's own page at a project's issuer (`{issuer}/account`, issue 24, docs/decisions/0040):
 * their passkeys and sessions, each change a form posted to the page (no script but the passkey
 * ceremony's, CSP `script-src 'self'`), in the project's brand and the sign-in pages' languages.
 * What every page of it shares; each page's own views are beside its step (passkeys-views.ts,
 * sessions-views.ts, new-passkey-views.ts, quick-code-views.ts).
 */

export const accountTextsOf = (brand: PageBrand): AccountTexts => ACCOUNT_TEXTS[brand.language];

/** Where the page's forms go: `base` is `{mountPath}/account`. */
export interface AccountLinks {
  base: string;
}

/** A time in the page's language, in UTC (the page has no script to learn the browser's zone). */
export function when(brand: PageBrand, at: Date): string {
  return `${new Intl.DateTimeFormat(brand.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

export const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export const pathOf = (links: AccountLinks, ...parts: string[]) => [links.base, ...parts.map((p) => encodeURIComponent(p))].join('/');

export function facts(rows: Array<[string, string]>): string {
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

/** After "Sign out here", or a sign-in to the page that did not finish: a way back in. */
export function accountMessagePage(links: AccountLinks, kind: 'signedOut' | 'notSignedIn', brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const [heading, text] = kind === 'signedOut' ? [t.signedOutHeading, t.signedOutText] : [t.notSignedInHeading, t.notSignedInText];
  return signInPage(
    heading,
    `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
<div class="links"><a href="${escapeHtml(links.base)}">${escapeHtml(t.signInAgain)}</a></div>`,
    brand,
  );
}
