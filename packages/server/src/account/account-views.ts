import { PASSKEY_NAME_MAX } from '@latchkey/domain';
import { ACCOUNT_TEXTS, type AccountTexts, type FallbackVerification } from './account-texts.ts';
import { browserWarning, ceremonyAttributes, errorLine, PASSKEY_SCRIPTS, quickCodeShown } from '../oidc/pages/passkey-views.ts';
import { escapeHtml, fieldError, signInPage, textsOf, type PageBrand } from '../oidc/pages/views.ts';

/**
 * The end user's own page at a project's issuer (`{issuer}/account`, issue 24, docs/decisions/0040):
 * their passkeys and sessions, each change a form posted to the page (no script but the passkey
 * ceremony's, CSP `script-src 'self'`), in the project's brand and the sign-in pages' languages.
 */

export const accountTextsOf = (brand: PageBrand): AccountTexts => ACCOUNT_TEXTS[brand.language];

/** Where the page's forms go: `base` is `{mountPath}/account`. */
export interface AccountLinks {
  base: string;
}

export interface AccountPasskey {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** ISO 3166-1 alpha-2 where it was registered (ZZ unknown), or null. */
  country: string | null;
  /** The passkey this browser's session was signed in with. */
  current: boolean;
}

export interface AccountSession {
  id: string;
  startedAt: Date | null;
  expiresAt: Date | null;
  current: boolean;
  passkeyName: string | null;
  applications: string[];
}

export interface AccountView {
  identity: string;
  /** The form token every change posts (bound to this browser's session). */
  csrf: string;
  passkeys: AccountPasskey[];
  sessions: AccountSession[];
  /** The project offers QuickCodes (docs/decisions/0017). */
  quickCodes: boolean;
  /** What the last change did, said once at the top. */
  notice?: string;
  /** A rename refused, with what was typed. */
  renaming?: { id: string; value: string; error: string };
}

/** A time in the page's language, in UTC (the page has no script to learn the browser's zone). */
function when(brand: PageBrand, at: Date): string {
  return `${new Intl.DateTimeFormat(brand.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

/** A country's name in the page's language, or "Unknown". */
function place(brand: PageBrand, country: string | null): string {
  const t = accountTextsOf(brand);
  if (!country || country === 'ZZ' || !/^[A-Z]{2}$/.test(country)) return t.unknownPlace;
  try {
    return new Intl.DisplayNames([brand.language], { type: 'region' }).of(country) ?? country;
  } catch {
    return country;
  }
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

const pathOf = (links: AccountLinks, ...parts: string[]) => [links.base, ...parts.map((p) => encodeURIComponent(p))].join('/');

function facts(rows: Array<[string, string]>): string {
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

function passkeyItem(links: AccountLinks, view: AccountView, p: AccountPasskey, brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const refused = view.renaming?.id === p.id ? view.renaming : undefined;
  const fieldId = `name-${escapeHtml(p.id)}`;
  const err = fieldError(fieldId, refused?.error);
  return `<li class="item">
<p class="item-title"><span>${escapeHtml(p.name)}</span>${p.current ? ` <span class="tag">${escapeHtml(t.thisSignIn)}</span>` : ''}</p>
${facts([
  [t.created, when(brand, p.createdAt)],
  [t.lastUsed, p.lastUsedAt ? when(brand, p.lastUsedAt) : t.never],
  [t.where, place(brand, p.country)],
])}
<div class="actions">
<details${refused ? ' open' : ''}><summary>${escapeHtml(t.rename)}<span class="visually-hidden"> ${escapeHtml(p.name)}</span></summary>
<form class="rename" method="post" action="${escapeHtml(pathOf(links, 'passkeys', 'rename'))}" novalidate>
${hidden('csrf', view.csrf)}${hidden('passkey', p.id)}<div><label for="${fieldId}">${escapeHtml(t.nameLabel)}</label>
<input id="${fieldId}" name="name" type="text" required maxlength="${PASSKEY_NAME_MAX}" value="${escapeHtml(refused?.value ?? p.name)}"${err.attrs}></div>
<button class="secondary" type="submit">${escapeHtml(t.save)}</button>
</form>${err.html}
</details>
<a class="button danger" href="${escapeHtml(`${pathOf(links, 'passkeys', 'remove')}?${new URLSearchParams({ passkey: p.id }).toString()}`)}" aria-label="${escapeHtml(`${t.remove} ${p.name}`)}">${escapeHtml(t.remove)}</a>
</div>
</li>`;
}

function sessionItem(links: AccountLinks, view: AccountView, s: AccountSession, brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const title = s.current ? t.thisBrowser : t.otherSession;
  const rows: Array<[string, string]> = [
    [t.startedAt, s.startedAt ? when(brand, s.startedAt) : t.unknownPlace],
    [t.passkey, s.passkeyName ?? t.none],
    [t.applications, s.applications.length > 0 ? s.applications.join(', ') : t.none],
  ];
  if (s.expiresAt) rows.push([t.expires, when(brand, s.expiresAt)]);
  const signOut = s.current
    ? ''
    : `<form method="post" action="${escapeHtml(pathOf(links, 'sessions', s.id, 'end'))}">${hidden('csrf', view.csrf)}<button class="secondary" type="submit">${escapeHtml(t.signOutSession)}</button></form>`;
  return `<li class="item">
<p class="item-title"><span>${escapeHtml(title)}</span></p>
${facts(rows)}
${signOut ? `<div class="actions">${signOut}</div>\n` : ''}</li>`;
}

/** The account page: who is signed in, their passkeys, a way to add a device, their sessions, sign out. */
export function accountPage(links: AccountLinks, view: AccountView, brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const others = view.sessions.filter((s) => !s.current);
  const passkeys =
    view.passkeys.length === 0
      ? `<p>${escapeHtml(t.noPasskeys)}</p>`
      : `<p class="hint">${escapeHtml(t.passkeysIntro)}</p>
<ul class="items">
${view.passkeys.map((p) => passkeyItem(links, view, p, brand)).join('\n')}
</ul>`;
  const quickCode = view.quickCodes
    ? `<p>${escapeHtml(t.addQuickCodeText)}</p>
<form method="post" action="${escapeHtml(pathOf(links, 'quickcode'))}">${hidden('csrf', view.csrf)}<button class="secondary" type="submit">${escapeHtml(t.addQuickCode)}</button></form>`
    : '';
  return signInPage(
    t.title,
    `<h1>${escapeHtml(t.heading(brand.name))}</h1>
<p class="hint">${escapeHtml(t.signedInAs(view.identity))}</p>
${view.notice ? `<p class="status" role="status">${escapeHtml(view.notice)}</p>\n` : ''}<h2>${escapeHtml(t.passkeysHeading)}</h2>
${passkeys}
<h2>${escapeHtml(t.addHeading)}</h2>
<p>${escapeHtml(t.addPasskeyText)}</p>
<p><a class="button secondary" href="${escapeHtml(pathOf(links, 'passkeys', 'new'))}">${escapeHtml(t.addPasskey)}</a></p>
${quickCode}
<h2>${escapeHtml(t.sessionsHeading)}</h2>
<ul class="items">
${view.sessions.map((s) => sessionItem(links, view, s, brand)).join('\n')}
</ul>
<div class="row">
${
  others.length > 0
    ? `<form method="post" action="${escapeHtml(pathOf(links, 'sessions', 'others', 'end'))}">${hidden('csrf', view.csrf)}<button class="secondary" type="submit">${escapeHtml(t.signOutOthers)}</button></form>`
    : `<p class="hint">${escapeHtml(t.noOtherSessions)}</p>`
}
<form method="post" action="${escapeHtml(pathOf(links, 'sign-out'))}">${hidden('csrf', view.csrf)}<button class="primary" type="submit">${escapeHtml(t.signOutHere)}</button></form>
</div>`,
    brand,
    [],
    { wide: true },
  );
}

/** "Remove this passkey?": the last one only after the warning that the next sign-in verifies the identity again. */
export function removePasskeyPage(
  links: AccountLinks,
  options: { csrf: string; passkey: AccountPasskey; last: boolean; fallback: FallbackVerification },
  brand: PageBrand,
): string {
  const t = accountTextsOf(brand);
  const { passkey } = options;
  const warnings = [options.last ? t.removeLast(options.fallback) : '', passkey.current ? t.removeSignsOutHere : ''].filter(Boolean);
  return signInPage(
    t.removeHeading,
    `<h1>${escapeHtml(t.removeHeading)}</h1>
<p>${escapeHtml(t.removeText(passkey.name))}</p>
${warnings.length > 0 ? `<div class="notice" role="note">${warnings.map((w) => `<p>${escapeHtml(w)}</p>`).join('')}</div>\n` : ''}<div class="row">
<form method="post" action="${escapeHtml(pathOf(links, 'passkeys', 'remove'))}">${hidden('csrf', options.csrf)}${hidden('passkey', passkey.id)}<button class="primary danger-fill" type="submit">${escapeHtml(t.remove)}</button></form>
<a href="${escapeHtml(links.base)}">${escapeHtml(t.keep)}</a>
</div>`,
    brand,
  );
}

/** Create another passkey: the browser's dialog, its answer posted back to the page. */
export function newPasskeyPage(links: AccountLinks, options: { csrf: string; optionsJson: string; error?: string }, brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const s = textsOf(brand);
  const action = pathOf(links, 'passkeys', 'new');
  return signInPage(
    t.addPasskey,
    `<h1>${escapeHtml(t.addPasskey)}</h1>
<p>${escapeHtml(s.createPasskeyHint(brand.name))}</p>
<form method="post" action="${escapeHtml(action)}" ${ceremonyAttributes(brand, 'register', options.optionsJson)}>
${hidden('csrf', options.csrf)}<input type="hidden" name="response" value="">
${errorLine(options.error)}
<button class="primary" type="submit">${escapeHtml(t.addPasskey)}</button>
</form>
${browserWarning(brand)}<div class="links"><a href="${escapeHtml(links.base)}">${escapeHtml(t.backToAccount)}</a></div>`,
    brand,
    PASSKEY_SCRIPTS,
  );
}

/** A QuickCode for another device, or why none (a passkey registered with a QuickCode, limitRegCodeVerified). */
export function accountQuickCodePage(links: AccountLinks, options: { code: string | null; minutes: number }, brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const next = `<div class="links"><a href="${escapeHtml(links.base)}">${escapeHtml(t.backToAccount)}</a></div>`;
  return quickCodeShown({ ...options, refused: t.quickCodeNotFromThisPasskey, next }, brand);
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
