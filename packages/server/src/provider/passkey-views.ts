import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { escapeHtml, signInPage, type InteractionLinks, type PageBrand } from '../idp/views.ts';

/** @simplewebauthn/browser's own bundle (global SimpleWebAuthnBrowser), served from our origin. */
export const WEBAUTHN_LIBRARY_PATH = '/idp/assets/simplewebauthn-browser.js';
/** The pages' script: runs the ceremony a form asks for, then posts the browser's answer. */
export const PASSKEY_SCRIPT_PATH = '/idp/assets/passkey.js';

const require = createRequire(import.meta.url);
/** Read once at start: the UMD bundle the package ships (its "unpkg" entry). */
export function webauthnLibrary(): string {
  // The package exports only its entry (script/index.js); the bundle sits beside it under dist/.
  const entry = require.resolve('@simplewebauthn/browser');
  return readFileSync(join(dirname(entry), '..', 'dist/bundle/index.umd.min.js'), 'utf8');
}

/**
 * A form with `data-webauthn="register|authenticate"` and the options in `data-options`: on
 * submit, the browser's passkey dialog runs; its answer goes in the hidden `response` field and the
 * form is posted. Nothing is inline (CSP `script-src 'self'`).
 */
export const PASSKEY_SCRIPT = `(function () {
  var form = document.querySelector('form[data-webauthn]');
  if (!form) return;
  var error = document.getElementById('passkey-error');
  function fail(text) {
    error.textContent = text;
    error.hidden = false;
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var lib = window.SimpleWebAuthnBrowser;
    if (!lib || !lib.browserSupportsWebAuthn()) {
      fail('This browser cannot use passkeys.');
      return;
    }
    var optionsJSON = JSON.parse(form.getAttribute('data-options'));
    var register = form.getAttribute('data-webauthn') === 'register';
    error.hidden = true;
    (register ? lib.startRegistration({ optionsJSON: optionsJSON }) : lib.startAuthentication({ optionsJSON: optionsJSON })).then(
      function (response) {
        form.elements.namedItem('response').value = JSON.stringify(response);
        form.submit();
      },
      function () {
        fail(register ? 'No passkey was created. Try again, or choose Not now.' : 'The passkey was not used. Try again, or email me a code instead.');
      },
    );
  });
})();
`;

export interface PasskeyLinks extends InteractionLinks {
  passkeyAction: string;
  registerAction: string;
}

const SCRIPTS = [WEBAUTHN_LIBRARY_PATH, PASSKEY_SCRIPT_PATH] as const;

function errorLine(error: string | undefined): string {
  return `<p id="passkey-error" class="error" role="alert"${error ? '' : ' hidden'}>${escapeHtml(error ?? '')}</p>`;
}

/** "Email me a code instead": page 1's form, told to send a code even though the user has a passkey. */
function codeInstead(links: InteractionLinks, email: string): string {
  return `<form class="inline" method="post" action="${escapeHtml(links.emailAction)}"><input type="hidden" name="email" value="${escapeHtml(email)}"><input type="hidden" name="method" value="code"><button class="secondary" type="submit">Email me a code instead</button></form>`;
}

/** A returning user with a passkey: "Sign in with a passkey", or a code by email. */
export function passkeyPage(links: PasskeyLinks, options: { email: string; optionsJson: string; error?: string }, brand: PageBrand): string {
  return signInPage(
    'Sign in with a passkey',
    `<h1>Sign in to ${escapeHtml(brand.name)}</h1>
<p>Use your passkey for <strong>${escapeHtml(options.email)}</strong>.</p>
<form method="post" action="${escapeHtml(links.passkeyAction)}" data-webauthn="authenticate" data-options="${escapeHtml(options.optionsJson)}">
<input type="hidden" name="response" value="">
${errorLine(options.error)}
<button class="primary" type="submit">Sign in with a passkey</button>
</form>
<div class="links">
${codeInstead(links, options.email)}
<a href="${escapeHtml(links.emailPage)}">Use a different email</a>
<a href="${escapeHtml(links.cancel)}">Cancel</a>
</div>`,
    brand,
    SCRIPTS,
  );
}

/** After the emailed code, a user with no passkey yet is offered one on this device. */
export function registerPage(links: PasskeyLinks, options: { optionsJson: string; error?: string }, brand: PageBrand): string {
  return signInPage(
    'Create a passkey',
    `<h1>Create a passkey</h1>
<p>Next time, sign in to ${escapeHtml(brand.name)} with this device's screen lock or security key instead of an emailed code.</p>
<form method="post" action="${escapeHtml(links.registerAction)}" data-webauthn="register" data-options="${escapeHtml(options.optionsJson)}">
<input type="hidden" name="response" value="">
${errorLine(options.error)}
<button class="primary" type="submit">Create a passkey</button>
</form>
<div class="links">
<form class="inline" method="post" action="${escapeHtml(links.registerAction)}"><input type="hidden" name="skip" value="1"><button class="secondary" type="submit">Not now</button></form>
</div>`,
    brand,
    SCRIPTS,
  );
}

/** spec §4: a revoked device cannot sign in. The person may verify their address again. */
export function revokedPage(links: InteractionLinks, email: string, brand: PageBrand): string {
  return signInPage(
    'Passkey revoked',
    `<h1>This passkey was revoked</h1>
<p>It can no longer sign you in to ${escapeHtml(brand.name)}. To continue, verify your email address again.</p>
<div class="links">
${codeInstead(links, email)}
<a href="${escapeHtml(links.cancel)}">Cancel</a>
</div>`,
    brand,
  );
}
