import { TEXT_MAX_LENGTH } from '@latchkey/domain';
import { createHash } from 'node:crypto';

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
  --border: #ced4da; --accent: #1864ab; --accent-text: #ffffff; --focus: #1c7ed6; --error: #c92a2a; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #141517; --card: #25262b; --text: #f1f3f5; --muted: #c1c2c5; --border: #5c5f66;
    --accent: #74c0fc; --accent-text: #0b1a2b; --focus: #a5d8ff; --error: #ffa8a8; }
}
* { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 16px; line-height: 1.5; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; background: var(--bg); color: var(--text); padding: 1rem; }
main { width: 100%; max-width: 24rem; background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 2rem; }
.brand { margin: 0 0 1.5rem; font-weight: 700; letter-spacing: .02em; color: var(--muted); }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
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
.links { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; margin-top: 1.5rem; }
a { color: var(--accent); }
.inline { display: inline; }
`;

/** Whom the sign-in pages are for: the console (Latchkey) or a project's issuer (its display name). */
export interface PageBrand {
  name: string;
  /** The label of page 1's field (spec §2: identityTypeLabel for a project). */
  idLabel: string;
}

export const LATCHKEY_BRAND: PageBrand = { name: 'Latchkey', idLabel: 'Email' };

/**
 * A whole sign-in page. `scripts` are paths on our origin (the pages' CSP is `script-src 'self'`:
 * no inline script), loaded deferred in this order.
 */
export function signInPage(title: string, body: string, brand: PageBrand = LATCHKEY_BRAND, scripts: readonly string[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(brand.name)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
${scripts.map((src) => `<script defer src="${escapeHtml(src)}"></script>\n`).join('')}</head>
<body>
<main>
<p class="brand">${escapeHtml(brand.name)}</p>
${body}
</main>
</body>
</html>`;
}

function fieldError(id: string, error: string | undefined): { attrs: string; html: string } {
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
}

/** Page 1: "Sign in to {brand}", a field labelled Email (or the project's label), Continue, Cancel. */
export function emailPage(links: InteractionLinks, options: { email?: string; error?: string } = {}, brand: PageBrand = LATCHKEY_BRAND): string {
  const err = fieldError('email', options.error);
  return signInPage(
    'Sign in',
    `<h1>Sign in to ${escapeHtml(brand.name)}</h1>
<p class="hint">We will email you a 6-digit code. No password needed.</p>
<form method="post" action="${escapeHtml(links.emailAction)}" novalidate>
<label for="email">${escapeHtml(brand.idLabel)}</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" required autofocus maxlength="${TEXT_MAX_LENGTH}" value="${escapeHtml(options.email ?? '')}"${err.attrs}>
${err.html}
<button class="primary" type="submit">Continue</button>
</form>
<div class="links"><a href="${escapeHtml(links.cancel)}">Cancel</a></div>`,
    brand,
  );
}

/** Page 2: "We sent a 6-digit code to {email}", a field labelled Code, Sign in, resend, change email, Cancel. */
export function codePage(
  links: InteractionLinks,
  options: { email: string; error?: string; notice?: string },
  brand: PageBrand = LATCHKEY_BRAND,
): string {
  const err = fieldError('code', options.error);
  return signInPage(
    'Enter your code',
    `<h1>Sign in to ${escapeHtml(brand.name)}</h1>
<p>We sent a 6-digit code to <strong>${escapeHtml(options.email)}</strong></p>
${options.notice ? `<p class="hint" role="status">${escapeHtml(options.notice)}</p>` : ''}
<form method="post" action="${escapeHtml(links.codeAction)}" novalidate>
<label for="code">Code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus${err.attrs}>
${err.html}
<button class="primary" type="submit">Sign in</button>
</form>
<div class="links">
<form class="inline" method="post" action="${escapeHtml(links.emailAction)}"><input type="hidden" name="email" value="${escapeHtml(options.email)}"><input type="hidden" name="resend" value="1"><button class="secondary" type="submit">Send a new code</button></form>
<a href="${escapeHtml(links.emailPage)}">Use a different email</a>
<a href="${escapeHtml(links.cancel)}">Cancel</a>
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
  return signInPage(
    'Sign-in problem',
    `<h1>${escapeHtml(options.heading ?? 'Sign-in could not continue')}</h1>
<p>${escapeHtml(message)}</p>
${options.code ? `<p class="hint">Error: <code>${escapeHtml(options.code)}</code></p>` : ''}
${homeUrl ? `<div class="links"><a href="${escapeHtml(homeUrl)}">Back to ${escapeHtml(brand.name)}</a></div>` : ''}`,
    brand,
  );
}

/** Submits the provider's logout form on load; without script, the buttons do it. */
const LOGOUT_SCRIPT =
  "var f=document.getElementById('op.logoutForm');var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();";
export const LOGOUT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(LOGOUT_SCRIPT).digest('base64')}'`;

/** RP-initiated logout: the console asked to sign out, so it goes through without another click. */
export function logoutPage(form: string): string {
  return signInPage(
    'Signing out',
    `<h1>Signing you out…</h1>
${form}
<noscript><p>Sign out of Latchkey on this browser?</p>
<button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button></noscript>
<script>${LOGOUT_SCRIPT}</script>`,
  );
}

export function signedOutPage(homeUrl: string): string {
  return signInPage(
    'Signed out',
    `<h1>You are signed out</h1>
<div class="links"><a href="${escapeHtml(homeUrl)}">Back to Latchkey</a></div>`,
  );
}
