import { TEXT_MAX_LENGTH } from '@latchkey/domain';
import { createHash } from 'node:crypto';
import { PAGE_TEXTS, type PageLanguage, type PageTexts } from './texts.ts';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export const STYLESHEET_PATH = '/idp/assets/sign-in.css';

/**
 * The sign-in pages' only stylesheet, served from our origin so the pages need no inline style
 * (their CSP is `style-src 'self'`). Light and dark follow the system; colours keep WCAG AA contrast.
 */
export const STYLESHEET = `
:root { color-scheme: light dark; --bg: #f1f3f5; --card: #ffffff; --text: #1a1b1e; --muted: #495057;
  --border: #ced4da; --accent: #1864ab; --accent-text: #ffffff; --focus: #1c7ed6; --error: #c92a2a;
  --notice-bg: #fff9db; --notice-border: #e67700; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #141517; --card: #25262b; --text: #f1f3f5; --muted: #c1c2c5; --border: #5c5f66;
    --accent: #74c0fc; --accent-text: #0b1a2b; --focus: #a5d8ff; --error: #ffa8a8;
    --notice-bg: #2e2a1a; --notice-border: #fcc419; }
}
* { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 16px; line-height: 1.5; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; background: var(--bg); color: var(--text); padding: 1rem; }
main { width: 100%; max-width: 24rem; background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 2rem; }
/* At a phone's width the card keeps its buttons' labels on one line where it can. */
@media (max-width: 30rem) { body { padding: .75rem; } main { padding: 1.5rem 1.25rem; } }
.brand { margin: 0 0 1.5rem; font-weight: 700; letter-spacing: .02em; color: var(--muted); overflow-wrap: anywhere; }
.logo { display: block; max-width: 100%; max-height: 3rem; width: auto; height: auto; }
/* Most logos are drawn for a light background: in dark mode one sits on a light plate, never lost on the card. */
@media (prefers-color-scheme: dark) { .logo { max-height: 3.75rem; background: #f8f9fa; padding: .375rem .625rem; border-radius: 8px; } }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; overflow-wrap: anywhere; }
p { margin: 0 0 1rem; }
.hint { color: var(--muted); }
form { margin: 0; }
label { display: block; font-weight: 600; margin-bottom: .375rem; }
input { width: 100%; font: inherit; padding: .625rem .75rem; border: 1px solid var(--border); border-radius: 8px; background: var(--card); color: var(--text); }
input[aria-invalid="true"] { border-color: var(--error); }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.error { color: var(--error); font-weight: 600; margin: .5rem 0 0; }
button { font: inherit; font-weight: 600; cursor: pointer; border-radius: 8px; padding: .625rem 1rem; }
.primary { width: 100%; margin-top: 1.25rem; border: 0; background: var(--accent); color: var(--accent-text); }
.secondary { border: 1px solid var(--border); background: transparent; color: var(--text); }
.password .secondary { width: 100%; margin-top: .75rem; }
/* A passkey form has no field: its button follows the text above it, an error sits between them. */
form[data-webauthn] .primary { margin-top: .5rem; }
form[data-webauthn] .error { margin: 0 0 .5rem; }
.links { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; margin-top: 1.5rem; }
a { color: var(--accent); }
.inline { display: inline; }
.inline[hidden] { display: none; }
/* A link that leaves for the project's own verification page, drawn as the page's main button. */
a.primary { display: block; text-align: center; text-decoration: none; font-weight: 600; border-radius: 8px; padding: .625rem 1rem; }
.wide { width: 100%; margin-top: .75rem; }
.note { margin: 1rem 0 0; }
/* Page 1 passkey first (docs/decisions/0048): the passkey buttons lead, an "or", then the address. */
.passkey-first .primary { margin-top: 0; }
.passkey-first .wide { margin-top: .625rem; }
.passkey-first + .error { margin: .75rem 0 0; }
.or { display: flex; align-items: center; gap: .75rem; margin: 1.5rem 0 1rem; color: var(--muted); font-size: .875rem; }
.or::before, .or::after { content: ""; flex: 1; border-top: 1px solid var(--border); }
.or[hidden] { display: none; }
.field-hint { font-size: .875rem; margin: .375rem 0 0; }
.code-path .error + .field-hint { margin-top: .25rem; }
/* Beside a shown passkey block the address's Continue is the second path: drawn as a secondary button. */
main:has(.passkey-first:not([hidden])) .code-path .primary { margin-top: 1rem; border: 1px solid var(--border); background: transparent; color: var(--text); }
.check { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; margin: 1rem 0 0; }
.check input { width: auto; margin: .3rem 0 0; }
.quickcode { font-size: 2rem; font-weight: 700; letter-spacing: .2em; text-align: center; font-variant-numeric: tabular-nums; margin: 0 0 1rem; padding: .75rem; border: 1px dashed var(--border); border-radius: 8px; }
.field + label { margin-top: 1rem; }
.notice { margin: 1.25rem 0 0; padding: .75rem 1rem; border: 1px solid var(--notice-border); border-left-width: 4px; border-radius: 8px; background: var(--notice-bg); font-size: .875rem; line-height: 1.45; }
.notice p { margin: 0; }
.notice p + p { margin-top: .25rem; }
.support { margin-top: 1.5rem; padding-top: 1rem; border-top: 1px solid var(--border); font-size: .875rem; color: var(--muted); }
.support-title { margin: 0 0 .25rem; }
.support-links { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .25rem; align-items: flex-start; }
.support-links a { overflow-wrap: anywhere; }
/* The account page (issue 24): lists of passkeys and sessions, each item a card of facts and actions. */
main.wide { max-width: 40rem; }
h2 { font-size: 1.125rem; margin: 2rem 0 .75rem; }
.status { padding: .625rem .875rem; border: 1px solid var(--border); border-left: 4px solid var(--accent); border-radius: 8px; margin: 0 0 1rem; }
.items { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .75rem; }
.item { border: 1px solid var(--border); border-radius: 8px; padding: .875rem 1rem; }
.item-title { display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; margin: 0 0 .5rem; font-weight: 600; overflow-wrap: anywhere; }
.tag { font-size: .75rem; font-weight: 600; padding: .0625rem .5rem; border-radius: 999px; border: 1px solid var(--accent); color: var(--accent); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .125rem 1rem; margin: 0 0 .75rem; font-size: .875rem; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-start; }
.actions details { flex: 1 1 16rem; }
.actions summary { cursor: pointer; color: var(--accent); font-weight: 600; padding: .5rem 0; }
.rename { display: flex; gap: .5rem; align-items: flex-end; margin-top: .5rem; }
.rename div { flex: 1; }
.danger { border: 1px solid var(--error); background: transparent; color: var(--error); }
.row { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin-top: 1rem; }
.row .primary { width: auto; margin-top: 0; }
.primary.danger-fill { background: var(--error); color: var(--card); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
a.button { display: inline-block; text-decoration: none; font-weight: 600; border-radius: 8px; padding: .625rem 1rem; }
`;

/** Whom the sign-in pages are for: the console (Latchkey) or a project's issuer (its display name, spec §3 branding). */
export interface PageBrand {
  name: string;
  /** The label of page 1's field (spec §2: identityTypeLabel for a project). */
  idLabel: string;
  /** spec §3 identityType: page 1 asks for an email address (the default) or an alphanumeric user id (docs/decisions/0018). */
  idType?: 'email' | 'alphanumeric';
  /** Page 1's hint, when not the emailed code's (an emailed link, the project's own verification). */
  idHint?: string;
  /** spec §2 verification method, when not the emailed code: what "…instead" and a revoked passkey's page offer. */
  verifyBy?: 'standardEmail' | 'fullCustom';
  /** The language the pages speak (docs/decisions/0015). */
  language: PageLanguage;
  /** The project's logo when it may be shown (pageLogo): its address, and the origin the pages' CSP lets images come from. */
  logo?: { src: string; origin: string };
  /** spec §3 helpUrl, supportEmail, supportPhone: the footer's links ('' = not set). */
  support?: { helpUrl: string; email: string; phone: string };
  /** spec §3 enableBrowserWarning: the page that creates a passkey warns about clearing browser data. */
  browserWarning?: boolean;
}

export const LATCHKEY_BRAND: PageBrand = { name: 'Latchkey', idLabel: 'Email', language: 'en' };

/** The texts of the brand's language. */
export const textsOf = (brand: PageBrand): PageTexts => PAGE_TEXTS[brand.language];

// A CSP host-source is letters, digits, dots and hyphens (punycode for other names): anything else,
// such as ';' which the URL parser keeps in a host, would end the directive and start another.
const CSP_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/**
 * A project's logo as the pages may show it (docs/decisions/0015): an https address (or http when the
 * pages themselves are served over http, so there is never mixed content), with no credentials, on a
 * host a CSP source can name exactly. Its origin, and only that, is added to the pages' img-src.
 */
export function pageLogo(logoUrl: string, publicUrl: string): PageBrand['logo'] {
  if (!logoUrl) return undefined;
  let url: URL;
  try {
    url = new URL(logoUrl);
  } catch {
    return undefined;
  }
  const schemeAllowed = url.protocol === 'https:' || (url.protocol === 'http:' && publicUrl.startsWith('http:'));
  if (!schemeAllowed || url.username || url.password || !CSP_HOST.test(url.hostname)) return undefined;
  return { src: url.href, origin: url.origin };
}

/** "mailto:" with every character an address may hold but one that means something in a mailto URL (RFC 6068) percent-encoded. */
const mailto = (email: string) => `mailto:${email.replace(/[^A-Za-z0-9.@+_-]/g, (c) => encodeURIComponent(c))}`;

/** The brand's logo, else its name in words. */
function brandLine(brand: PageBrand): string {
  if (brand.logo) {
    return `<p class="brand"><img class="logo" src="${escapeHtml(brand.logo.src)}" alt="${escapeHtml(brand.name)}" referrerpolicy="no-referrer"></p>`;
  }
  return `<p class="brand">${escapeHtml(brand.name)}</p>`;
}

/** spec §3: help link, support email and phone, those that are set. */
function supportFooter(brand: PageBrand): string {
  const { helpUrl = '', email = '', phone = '' } = brand.support ?? {};
  const t = textsOf(brand);
  const links = [
    helpUrl ? `<li><a href="${escapeHtml(helpUrl)}">${escapeHtml(t.help)}</a></li>` : '',
    email ? `<li><a href="${escapeHtml(mailto(email))}">${escapeHtml(email)}</a></li>` : '',
    phone ? `<li><a href="tel:${escapeHtml(phone)}">${escapeHtml(phone)}</a></li>` : '',
  ].join('');
  if (!links) return '';
  return `<footer class="support">
<p class="support-title">${escapeHtml(t.needHelp)}</p>
<ul class="support-links">${links}</ul>
</footer>
`;
}

/**
 * A whole sign-in page. `scripts` are paths on our origin (the pages' CSP is `script-src 'self'`:
 * no inline script), loaded deferred in this order.
 */
export function signInPage(
  title: string,
  body: string,
  brand: PageBrand = LATCHKEY_BRAND,
  scripts: readonly string[] = [],
  options: { wide?: boolean } = {},
): string {
  return `<!doctype html>
<html lang="${brand.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(brand.name)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
${scripts.map((src) => `<script defer src="${escapeHtml(src)}"></script>\n`).join('')}</head>
<body>
<main${options.wide ? ' class="wide"' : ''}>
${brandLine(brand)}
${body}
${supportFooter(brand)}</main>
</body>
</html>`;
}

export function fieldError(id: string, error: string | undefined): { attrs: string; html: string } {
  if (!error) return { attrs: '', html: '' };
  return {
    attrs: ` aria-invalid="true" aria-describedby="${id}-error"`,
    html: `<p id="${id}-error" class="error" role="alert">${escapeHtml(error)}</p>`,
  };
}

export interface InteractionLinks {
  /** POST target of the email form. */
  emailAction: string;
  /** POST target of the code form. */
  codeAction: string;
  /** Page 1, to change the address. */
  emailPage: string;
  cancel: string;
  /** The QuickCode page of the interaction, when the project offers QuickCodes (docs/decisions/0017). */
  quickCode?: string;
  /** "Use a recovery code", at a project's issuer (docs/decisions/0051). */
  recovery?: { href: string; text: string };
}

/**
 * A WebAuthn Signal API call the page script makes where the browser supports it (its options as
 * @simplewebauthn/browser's sendSignal takes them): keeps the browser's passkey list in step.
 */
export type PasskeySignal =
  | { signalName: 'unknownCredential'; rpID: string; credentialID: string }
  | { signalName: 'allAcceptedCredentials'; rpID: string; userID: string; allAcceptedCredentialIDs: string[] }
  | { signalName: 'currentUserDetails'; rpID: string; userID: string; userName: string; userDisplayName: string };

/**
 * docs/decisions/0049: a form's options for the custom domain's own rpID, beside data-options (the
 * own host's): the page script uses them where the browser lacks Related Origin Requests.
 */
export function localOptionsAttribute(localOptionsJson: string | undefined): string {
  return localOptionsJson ? ` data-options-local="${escapeHtml(localOptionsJson)}"` : '';
}

/** The element that carries a signal to the page script (data-* attributes: no inline script). */
export function signalElement({ signalName, ...options }: PasskeySignal): string {
  return `<div hidden data-signal="${escapeHtml(signalName)}" data-signal-options="${escapeHtml(JSON.stringify(options))}"></div>\n`;
}

/** Page 1's discoverable passkey request (docs/decisions/0047). */
export interface FirstPagePasskey {
  optionsJson: string;
  /** docs/decisions/0049: the same request for the custom domain's own rpID, for a browser without Related Origin Requests. */
  localOptionsJson?: string;
  /** A WebAuthn signal for the browser (a credential presented that is unknown here). */
  signal?: PasskeySignal;
  action: string;
  /** The page's scripts (the WebAuthn library and the page script). */
  scripts: readonly string[];
}

/**
 * Page 1: "Sign in to {brand}", a field labelled Email (or the project's label), Continue, Cancel.
 * With a discoverable passkey request (docs/decisions/0047, 0048) the passkey leads: its button is
 * the first and primary action, the field offers passkeys in its autofill, and the emailed code (or
 * the project's verification) is the secondary path below the "or". `passkeyError`: why the last
 * passkey answer was not taken (shown by the passkey buttons, not as the field's error).
 */
export function emailPage(
  links: InteractionLinks,
  options: { email?: string; error?: string; passkeyError?: string; passkey?: FirstPagePasskey } = {},
  brand: PageBrand = LATCHKEY_BRAND,
): string {
  const t = textsOf(brand);
  const err = fieldError('email', options.error);
  const { passkey } = options;
  // docs/decisions/0047: the browser offers the relying party's passkeys in the field's autofill
  // (conditional mediation, autocomplete "… webauthn"), and at the button without an address.
  const autocomplete = passkey ? 'username webauthn' : brand.idType === 'alphanumeric' ? 'username' : 'email';
  const hint = escapeHtml(brand.idHint ?? t.emailHint);
  const field = `<label for="email">${escapeHtml(brand.idLabel)}</label>
<input id="email" name="email" ${brand.idType === 'alphanumeric' ? `type="text" autocomplete="${autocomplete}" autocapitalize="none" spellcheck="false"` : `type="email" autocomplete="${autocomplete}" inputmode="email"`} required autofocus maxlength="${TEXT_MAX_LENGTH}" value="${escapeHtml(options.email ?? '')}"${passkey ? ` aria-describedby="email-hint${options.error ? ' email-error' : ''}"${options.error ? ' aria-invalid="true"' : ''}` : err.attrs}>
${err.html}`;
  const links2 = `<div class="links">${links.quickCode ? `<a href="${escapeHtml(links.quickCode)}">${escapeHtml(t.haveQuickCode)}</a>\n` : ''}${links.recovery ? `<a href="${escapeHtml(links.recovery.href)}">${escapeHtml(links.recovery.text)}</a>\n` : ''}<a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a></div>`;
  if (!passkey) {
    return signInPage(
      t.signInTitle,
      `<h1>${escapeHtml(t.signInTo(brand.name))}</h1>
<p class="hint">${hint}</p>
<form method="post" action="${escapeHtml(links.emailAction)}" novalidate>
${field}
<button class="primary" type="submit">${escapeHtml(t.continue)}</button>
</form>
${links2}`,
      brand,
    );
  }
  // The passkey block is hidden until the page script finds WebAuthn: without it (or without
  // scripts) page 1 is the address form alone, its Continue the primary button again (the
  // stylesheet draws it secondary only beside a shown passkey block); passkey-note says why.
  return signInPage(
    t.signInTitle,
    `<h1>${escapeHtml(t.signInTo(brand.name))}</h1>
<form class="passkey-first" method="post" action="${escapeHtml(passkey.action)}" hidden data-webauthn="discover" data-options="${escapeHtml(passkey.optionsJson)}"${localOptionsAttribute(passkey.localOptionsJson)} data-unsupported="${escapeHtml(t.noWebAuthn)}" data-cancelled="${escapeHtml(t.passkeyCancelled)}" data-failed="${escapeHtml(t.passkeyNotUsed)}">
<p class="hint">${escapeHtml(t.passkeyLead)}</p>
<input type="hidden" name="response" value="">
<button class="primary" type="submit">${escapeHtml(t.passkeyTitle)}</button>
<button class="secondary wide" type="submit" data-hybrid>${escapeHtml(t.passkeyHybrid)}</button>
</form>
${errorLine(options.passkeyError)}
<p id="passkey-note" class="hint" hidden>${escapeHtml(t.noWebAuthnHere)}</p>
<p class="or" data-or hidden><span>${escapeHtml(t.orSeparator)}</span></p>
<form class="code-path" method="post" action="${escapeHtml(links.emailAction)}" novalidate>
${field}
<p id="email-hint" class="hint field-hint">${hint}</p>
<button class="primary" type="submit">${escapeHtml(t.continue)}</button>
</form>
${passkey.signal ? signalElement(passkey.signal) : ''}${links2}`,
    brand,
    passkey.scripts,
  );
}

/** Where the page script (and a refused answer) says why a passkey was not used or made. */
export function errorLine(error: string | undefined): string {
  return `<p id="passkey-error" class="error" role="alert"${error ? '' : ' hidden'}>${escapeHtml(error ?? '')}</p>`;
}

/**
 * RFC 8252 §8.6: a signed-in person is asked before the sign-in returns to an app the issuer cannot
 * verify (a private-use scheme, a loopback address).
 */
export function continueToAppPage(links: InteractionLinks, brand: PageBrand = LATCHKEY_BRAND): string {
  const t = textsOf(brand);
  return signInPage(
    t.continueToAppTitle,
    `<h1>${escapeHtml(t.continueToAppTitle)}</h1>
<p>${escapeHtml(t.continueToAppText(brand.name))}</p>
<form method="post" action="${escapeHtml(`${links.emailPage}/continue`)}">
<button class="primary" type="submit">${escapeHtml(t.continue)}</button>
</form>
<div class="links"><a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a></div>`,
    brand,
  );
}

/** Text with `html` in place of the one value `render` puts in it: the text is escaped, `html` is not. */
export function withMarkup(render: (value: string) => string, html: string): string {
  const slot = '\uE000';
  // A function, so a '$' in the value is never read as a replacement pattern.
  return escapeHtml(render(slot)).replace(slot, () => html);
}

/** Page 2: "We sent a 6-digit code to {email}", a field labelled Code, Sign in, resend, change email, Cancel. */
export function codePage(
  links: InteractionLinks,
  options: { email: string; error?: string; notice?: string; password?: { action: string; error?: string } },
  brand: PageBrand = LATCHKEY_BRAND,
): string {
  const t = textsOf(brand);
  const err = fieldError('code', options.error);
  const pw = options.password ? fieldError('password', options.password.error) : null;
  // docs/decisions/0052: the previous password, once, for a project that imported hashes; shown for
  // every address, so it tells nothing about this one. The username field lets a password manager
  // fill it, and offer its automatic passkey upgrade after.
  const password =
    options.password && pw
      ? `<form class="password" method="post" action="${escapeHtml(options.password.action)}" novalidate>
<h2>${escapeHtml(t.passwordHeading)}</h2>
<p class="hint">${escapeHtml(t.passwordHint)}</p>
<input type="email" name="username" autocomplete="username" value="${escapeHtml(options.email)}" hidden readonly>
<label for="password">${escapeHtml(t.passwordLabel)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="256" required${pw.attrs}>
${pw.html}
<button class="secondary" type="submit">${escapeHtml(t.passwordSignIn)}</button>
</form>
`
      : '';
  return signInPage(
    t.codeTitle,
    `<h1>${escapeHtml(t.signInTo(brand.name))}</h1>
<p>${withMarkup(t.codeSentTo, `<strong>${escapeHtml(options.email)}</strong>`)}</p>
${options.notice ? `<p class="hint" role="status">${escapeHtml(options.notice)}</p>` : ''}
<form method="post" action="${escapeHtml(links.codeAction)}" novalidate>
<label for="code">${escapeHtml(t.codeLabel)}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus${err.attrs}>
${err.html}
<button class="primary" type="submit">${escapeHtml(t.signIn)}</button>
</form>
${password}<div class="links">
<form class="inline" method="post" action="${escapeHtml(links.emailAction)}"><input type="hidden" name="email" value="${escapeHtml(options.email)}"><input type="hidden" name="resend" value="1"><button class="secondary" type="submit">${escapeHtml(t.sendNewCode)}</button></form>
<a href="${escapeHtml(links.emailPage)}">${escapeHtml(t.useDifferentEmail)}</a>
<a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a>
</div>`,
    brand,
  );
}

/**
 * Anything that stops the sign-in (an expired interaction, a provider error, a refusal). A
 * project's pages have no home to go back to (homeUrl null): the person returns to their app.
 */
export function errorPage(
  message: string,
  homeUrl: string | null,
  brand: PageBrand = LATCHKEY_BRAND,
  options: { heading?: string; code?: string } = {},
): string {
  const t = textsOf(brand);
  return signInPage(
    t.problemTitle,
    `<h1>${escapeHtml(options.heading ?? t.problemHeading)}</h1>
<p>${escapeHtml(message)}</p>
${options.code ? `<p class="hint">${escapeHtml(t.errorCode)} <code>${escapeHtml(options.code)}</code></p>` : ''}
${homeUrl ? `<div class="links"><a href="${escapeHtml(homeUrl)}">${escapeHtml(t.backTo(brand.name))}</a></div>` : ''}`,
    brand,
  );
}

/** Submits the provider's logout form on load; without script, the buttons do it. */
const LOGOUT_SCRIPT =
  "var f=document.getElementById('op.logoutForm');var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();";
export const LOGOUT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(LOGOUT_SCRIPT).digest('base64')}'`;

/** RP-initiated logout: the console asked to sign out, so it goes through without another click. */
export function logoutPage(form: string, brand: PageBrand = LATCHKEY_BRAND): string {
  const t = textsOf(brand);
  return signInPage(
    t.signingOutTitle,
    `<h1>${escapeHtml(t.signingOut)}</h1>
${form}
<noscript><p>${escapeHtml(t.signOutQuestion(brand.name))}</p>
<button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(t.signOut)}</button></noscript>
<script>${LOGOUT_SCRIPT}</script>`,
    brand,
  );
}

/**
 * RP-initiated logout asked by a request that does not prove who asks (no ID token of this person):
 * the person confirms, so no page elsewhere can sign them out unseen (RP-Initiated Logout 1.0 §2).
 */
export function logoutConfirmPage(form: string, brand: PageBrand): string {
  const t = textsOf(brand);
  return signInPage(
    t.signingOutTitle,
    `<h1>${escapeHtml(t.signOutQuestion(brand.name))}</h1>
${form}
<button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(t.signOut)}</button>`,
    brand,
  );
}

/** Signed out; `homeUrl`: where to go back to (the console), or none (a project's user returns to their app). */
export function signedOutPage(homeUrl: string | null, brand: PageBrand = LATCHKEY_BRAND): string {
  const t = textsOf(brand);
  const back = homeUrl === null ? '' : `\n<div class="links"><a href="${escapeHtml(homeUrl)}">${escapeHtml(t.backTo(brand.name))}</a></div>`;
  return signInPage(t.signedOutTitle, `<h1>${escapeHtml(t.signedOutHeading)}</h1>${back}`, brand);
}
