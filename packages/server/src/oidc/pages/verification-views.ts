import { errorPage, escapeHtml, signInPage, textsOf, withMarkup, type InteractionLinks, type PageBrand } from './views.ts';
import { differentIdentity } from './passkey-views.ts';

/**
 * The pages of an Email Link or Custom verification (docs/decisions/0018), in the project's brand
 * and language (every text from idp/page-texts.ts).
 */

/**
 * The waiting page's script, served from the issuer's own origin (CSP `script-src 'self'`): asks
 * every two seconds whether the link was opened (`data-status`), then submits the Continue form.
 * Without it, Continue does the same by hand.
 */
export const VERIFICATION_SCRIPT = `(function () {
  var form = document.querySelector('form[data-verification-status]');
  if (!form || !window.fetch) return;
  var status = form.getAttribute('data-verification-status');
  function later(ms) {
    setTimeout(check, ms);
  }
  function check() {
    fetch(status, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } }).then(
      function (response) {
        if (!response.ok) return later(10000);
        return response.json().then(function (answer) {
          if (answer && answer.confirmed) form.submit();
          else later(2000);
        });
      },
      function () {
        later(5000);
      },
    );
  }
  later(2000);
})();
`;

/** Where the waiting page's script is served below an issuer (its mount path: `/p/{project}`, or '' on a custom domain). */
export const VERIFICATION_SCRIPT_PATH = '/verification/wait.js';

export interface VerificationLinks extends InteractionLinks {
  /** `/verify`: this page. */
  verify: string;
  /** `/verify/status`: the script's question. */
  status: string;
  /** `/verified`: the interaction goes on. */
  verified: string;
  /** The script, on the issuer's origin. */
  script: string;
}

/** "Check your email": the link was sent; Continue (also pressed by the script once the link is opened), a new link, another address. */
export function linkWaitPage(links: VerificationLinks, options: { email: string; notice?: string; error?: string }, brand: PageBrand): string {
  const t = textsOf(brand);
  return signInPage(
    t.linkTitle,
    `<h1>${escapeHtml(t.linkTitle)}</h1>
<p>${withMarkup(t.linkSentTo, `<strong>${escapeHtml(options.email)}</strong>`)}</p>
<p class="hint">${escapeHtml(t.linkWait)}</p>
${options.notice ? `<p class="hint" role="status">${escapeHtml(options.notice)}</p>\n` : ''}${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>\n` : ''}<form method="get" action="${escapeHtml(links.verified)}" data-verification-status="${escapeHtml(links.status)}">
<button class="primary" type="submit">${escapeHtml(t.continue)}</button>
</form>
<div class="links">
<form class="inline" method="post" action="${escapeHtml(links.emailAction)}"><input type="hidden" name="email" value="${escapeHtml(options.email)}"><input type="hidden" name="resend" value="1"><button class="secondary" type="submit">${escapeHtml(t.sendNewLink)}</button></form>
<a href="${escapeHtml(links.emailPage)}">${escapeHtml(differentIdentity(brand))}</a>
<a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a>
</div>`,
    brand,
    [links.script],
  );
}

/** The link opened in another browser: who asked, from which device; the person confirms it was them. */
export function linkConfirmPage(action: string, token: string, options: { email: string; device: string }, brand: PageBrand): string {
  const t = textsOf(brand);
  return signInPage(
    t.linkConfirmHeading,
    `<h1>${escapeHtml(t.linkConfirmHeading)}</h1>
<p>${escapeHtml(t.linkConfirmText(brand.name, options.email, options.device))}</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button class="primary" type="submit">${escapeHtml(t.linkConfirm)}</button>
</form>`,
    brand,
  );
}

/** Confirmed in another browser: the address is verified; the first window goes on. */
export function linkVerifiedPage(brand: PageBrand): string {
  const t = textsOf(brand);
  return signInPage(t.linkVerifiedHeading, `<h1>${escapeHtml(t.linkVerifiedHeading)}</h1>\n<p>${escapeHtml(t.linkVerifiedText)}</p>`, brand);
}

/** A link that is unknown, expired, replaced or used. */
export const linkUnusablePage = (brand: PageBrand): string => errorPage(textsOf(brand).linkUnusable(brand.name), null, brand);

/**
 * fullCustom: the project's text (spec §2 customText) and the way to its verification page, with
 * the signed request in the address.
 */
export function customPage(links: InteractionLinks, options: { href: string; customText: string; error?: string }, brand: PageBrand): string {
  const t = textsOf(brand);
  return signInPage(
    t.customTitle,
    `<h1>${escapeHtml(t.customTitle)}</h1>
<p>${escapeHtml(t.customIntro(brand.name))}</p>
${options.customText ? `<p>${escapeHtml(options.customText)}</p>\n` : ''}${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>\n` : ''}<a class="primary" href="${escapeHtml(options.href)}">${escapeHtml(t.customContinue)}</a>
<div class="links">
<a href="${escapeHtml(links.emailPage)}">${escapeHtml(differentIdentity(brand))}</a>
<a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a>
</div>`,
    brand,
  );
}
