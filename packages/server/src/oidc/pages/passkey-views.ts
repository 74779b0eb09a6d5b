import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TEXT_MAX_LENGTH } from '@latchkey/domain';
import {
  errorLine,
  escapeHtml,
  fieldError,
  localOptionsAttribute,
  signalElement,
  signInPage,
  textsOf,
  withMarkup,
  type InteractionLinks,
  type PageBrand,
  type PasskeySignal,
} from './views.ts';

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
 * A form with `data-webauthn="register|authenticate|discover"` and the options in `data-options`: on
 * submit, the browser's passkey dialog runs; its answer goes in the hidden `response` field and the
 * form is posted. What it may say comes in the page's language in `data-unsupported`,
 * `data-cancelled` (NotAllowedError: dismissed, or no passkey on this device) and `data-failed`.
 * Page 1's discoverable form (docs/decisions/0047) and its "or" (`data-or`) are hidden until the script finds WebAuthn; its
 * "Sign in with a passkey" tries immediate mediation first where the browser has it, its "Use a
 * phone or another device" (`data-hybrid`) asks with the hint `hybrid`. Elements with
 * `data-signal` pass WebAuthn Signal API calls (`data-signal` = unknownCredential,
 * allAcceptedCredentials or currentUserDetails, their options as JSON in `data-signal-options`);
 * sent where the browser supports them. Where the browser has signalAllAcceptedCredentials, a
 * sign-in answer is posted by fetch asking for JSON: a sign-in answers `{ redirect, signals }`, the
 * signals are sent, then the browser follows the redirect (docs/decisions/0048); any other answer is
 * the page the form would have shown. Nothing is inline (CSP `script-src 'self'`).
 */
export const PASSKEY_SCRIPT = `(function () {
  var lib = window.SimpleWebAuthnBrowser;
  var PKC = window.PublicKeyCredential;
  var error = document.getElementById('passkey-error');
  var quickCode = document.getElementById('quickcode');
  function each(selector, run) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), run);
  }
  function say(text) {
    if (!error) return;
    error.textContent = text;
    error.hidden = false;
  }
  // After a passkey sign-in, the Signal API's accepted credentials and the user's name
  // (docs/decisions/0048): where the browser has them, the answer is posted by fetch and the server
  // answers JSON { redirect, signals } for a sign-in (any other answer is its page, shown as is).
  var signalsAfter = !!(PKC && typeof PKC.signalAllAcceptedCredentials === 'function' && window.fetch && lib && lib.sendSignal);
  function show(html) {
    document.open();
    document.write(html);
    document.close();
  }
  function post(form) {
    return fetch(form.action, {
      method: 'POST',
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    }).then(function (answer) {
      if ((answer.headers.get('content-type') || '').indexOf('application/json') !== 0) return answer.text().then(show);
      return answer.json().then(function (body) {
        var sent = (body.signals || []).map(function (options) { return lib.sendSignal(options).catch(function () {}); });
        // The browser is told before it leaves; a signal it refuses never holds the sign-in up.
        return Promise.all(sent).then(function () { window.location.assign(body.redirect); });
      });
    });
  }
  function send(form, response) {
    form.elements.namedItem('response').value = JSON.stringify(response);
    var wanted = form.elements.namedItem('quickcode');
    if (wanted && quickCode) wanted.value = quickCode.checked ? '1' : '';
    var kind = form.getAttribute('data-webauthn');
    if (signalsAfter && (kind === 'discover' || kind === 'authenticate')) {
      // A network failure: the form posted as a browser would (the server decides whether the answer is still good).
      post(form).catch(function () { form.submit(); });
      return;
    }
    form.submit();
  }
  var supported = !!(lib && lib.browserSupportsWebAuthn());
  // A required passkey is never a dead end: a browser without WebAuthn continues without one.
  if (!supported) each('[data-no-webauthn]', function (el) { el.hidden = false; });
  // docs/decisions/0049: at a custom domain a form may also carry options for the domain's own rpID
  // (data-options-local); they are used where the browser cannot use the own host's rpID here, as
  // getClientCapabilities tells (no relatedOrigins, or no getClientCapabilities at all). Asked once.
  var related = PKC && typeof PKC.getClientCapabilities === 'function'
    ? PKC.getClientCapabilities().then(function (c) { return !!(c && c.relatedOrigins); }, function () { return false; })
    : Promise.resolve(false);
  function optionsOf(form) {
    var local = form.getAttribute('data-options-local');
    return related.then(function (yes) { return JSON.parse(local && !yes ? local : form.getAttribute('data-options')); });
  }
  // The Signal API (feature-detected: sendSignal throws where the browser has none).
  if (supported && lib.sendSignal) {
    each('[data-signal]', function (el) {
      var options = JSON.parse(el.getAttribute('data-signal-options'));
      options.signalName = el.getAttribute('data-signal');
      lib.sendSignal(options).catch(function () {});
    });
  }
  // A request made by the browser's own API, for what the library does not pass (mediation
  // 'immediate', hints); null where the browser cannot parse the options itself.
  function direct(optionsJSON, extra) {
    if (!PKC || typeof PKC.parseRequestOptionsFromJSON !== 'function') return null;
    if (lib.WebAuthnAbortService) lib.WebAuthnAbortService.cancelCeremony();
    var request = { publicKey: PKC.parseRequestOptionsFromJSON(optionsJSON) };
    for (var key in extra) request[key] = extra[key];
    return navigator.credentials.get(request).then(function (credential) {
      return credential ? credential.toJSON() : Promise.reject(new Error('none'));
    });
  }
  // Immediate mediation (Chrome): this device's passkeys at once, or nothing; never a dead end.
  function immediate(optionsJSON) {
    if (!PKC || typeof PKC.getClientCapabilities !== 'function') return Promise.resolve(null);
    return PKC.getClientCapabilities().then(
      function (capabilities) {
        var ask = capabilities && capabilities.immediateGet ? direct(optionsJSON, { mediation: 'immediate' }) : null;
        return ask ? ask.catch(function () { return null; }) : null;
      },
      function () { return null; },
    );
  }
  function autofill(form) {
    if (!document.querySelector('input[autocomplete$="webauthn"]')) return;
    Promise.all([lib.browserSupportsWebAuthnAutofill(), optionsOf(form)]).then(function (both) {
      if (!both[0]) return;
      lib.startAuthentication({ optionsJSON: both[1], useBrowserAutofill: true }).then(
        function (response) { send(form, response); },
        function () {},
      );
    });
  }
  function cancelled(problem) {
    return !!problem && (problem.name === 'NotAllowedError' || (problem.cause && problem.cause.name === 'NotAllowedError'));
  }
  // docs/decisions/0052: the automatic passkey upgrade after a password sign-in (conditional
  // create), where the browser has it; it answers only if its password manager just filled the
  // password, else the offer stays as it is.
  // Pending while the browser waits for its password manager; the person's own click ends it first
  // (one ceremony at a time).
  var upgrading = null;
  function upgrade(form) {
    if (!supported || !PKC || typeof PKC.getClientCapabilities !== 'function' || typeof PKC.parseCreationOptionsFromJSON !== 'function') return;
    PKC.getClientCapabilities().then(function (capabilities) {
      if (!capabilities || !capabilities.conditionalCreate) return null;
      var publicKey = PKC.parseCreationOptionsFromJSON(JSON.parse(form.getAttribute('data-options')));
      upgrading = new AbortController();
      return navigator.credentials.create({ publicKey: publicKey, mediation: 'conditional', signal: upgrading.signal }).then(function (credential) {
        if (!credential) return;
        form.elements.namedItem('conditional').value = '1';
        send(form, credential.toJSON());
      });
    }).catch(function () {});
  }
  each('form[data-webauthn]', function (form) {
    var kind = form.getAttribute('data-webauthn');
    if (kind === 'register' && form.hasAttribute('data-conditional')) upgrade(form);
    if (kind === 'discover') {
      var note = document.getElementById('passkey-note');
      if (!supported) {
        if (note) note.hidden = false;
        return;
      }
      form.hidden = false;
      each('[data-or]', function (el) { el.hidden = false; });
      autofill(form);
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (!supported) {
        say(form.getAttribute('data-unsupported'));
        return;
      }
      var hybrid = !!(event.submitter && event.submitter.hasAttribute('data-hybrid'));
      if (error) error.hidden = true;
      if (upgrading) {
        upgrading.abort();
        upgrading = null;
      }
      optionsOf(form).then(function (optionsJSON) {
        var ask;
        if (kind === 'register') ask = lib.startRegistration({ optionsJSON: optionsJSON });
        else if (hybrid) ask = direct(Object.assign({}, optionsJSON, { hints: ['hybrid'] }), {});
        else if (kind === 'discover') ask = immediate(optionsJSON).then(function (found) { return found || lib.startAuthentication({ optionsJSON: optionsJSON }); });
        if (!ask) ask = lib.startAuthentication({ optionsJSON: optionsJSON });
        return ask;
      }).then(
        function (response) { send(form, response); },
        function (problem) {
          say(form.getAttribute(cancelled(problem) && form.hasAttribute('data-cancelled') ? 'data-cancelled' : 'data-failed'));
          if (kind === 'discover') autofill(form);
        },
      );
    });
  });
})();
`;

export interface PasskeyLinks extends InteractionLinks {
  passkeyAction: string;
  /** POST target of page 1's discoverable request (docs/decisions/0047). */
  discoverAction: string;
  registerAction: string;
  /** POST target of "I have a QuickCode", and of Continue after a QuickCode was shown. */
  quickCodeAction: string;
  quickCodeContinue: string;
  /** POST target of "Use a recovery code" (docs/decisions/0051). */
  recoveryAction: string;
}

export { errorLine };

export const PASSKEY_SCRIPTS = [WEBAUTHN_LIBRARY_PATH, PASSKEY_SCRIPT_PATH] as const;

/** The attributes of a ceremony's form: its kind, options, and what the page script says when it fails. */
export function ceremonyAttributes(brand: PageBrand, kind: 'register' | 'authenticate', optionsJson: string, localOptionsJson?: string): string {
  const t = textsOf(brand);
  const failed = kind === 'register' ? t.passkeyNotCreated : t.passkeyNotUsed;
  const cancelled = kind === 'authenticate' ? ` data-cancelled="${escapeHtml(t.passkeyNotUsed)}"` : '';
  return `data-webauthn="${kind}" data-options="${escapeHtml(optionsJson)}"${localOptionsAttribute(localOptionsJson)} data-unsupported="${escapeHtml(t.noWebAuthn)}"${cancelled} data-failed="${escapeHtml(failed)}"`;
}

/** What "…instead" offers: the project's verification method (docs/decisions/0018). */
function insteadLabel(brand: PageBrand): string {
  const t = textsOf(brand);
  return brand.verifyBy === 'standardEmail' ? t.linkInstead : brand.verifyBy === 'fullCustom' ? t.verifyInstead : t.codeInstead;
}

/** "Use a different email", or user ID when page 1 asks for one. */
export function differentIdentity(brand: PageBrand): string {
  const t = textsOf(brand);
  return brand.idType === 'alphanumeric' ? t.useDifferentId : t.useDifferentEmail;
}

/** "Email me a code instead": page 1's form, told to send a code even though the user has a passkey. */
function codeInstead(links: InteractionLinks, email: string, brand: PageBrand): string {
  return `<form class="inline" method="post" action="${escapeHtml(links.emailAction)}"><input type="hidden" name="email" value="${escapeHtml(email)}"><input type="hidden" name="method" value="code"><button class="secondary" type="submit">${escapeHtml(insteadLabel(brand))}</button></form>`;
}

/** A returning user with a passkey: one button per login method (the primary first), or a code by email. */
export function passkeyPage(
  links: PasskeyLinks,
  options: { email: string; ways: Array<{ method: 'device' | 'phone'; optionsJson: string }>; error?: string; quickCode?: boolean },
  brand: PageBrand,
): string {
  const t = textsOf(brand);
  const forms = options.ways
    .map(
      (
        { method, optionsJson },
        index,
      ) => `<form method="post" action="${escapeHtml(links.passkeyAction)}" ${ceremonyAttributes(brand, 'authenticate', optionsJson)}>
<input type="hidden" name="response" value="">
<input type="hidden" name="quickcode" value="">
<button class="${index === 0 ? 'primary' : 'secondary wide'}" type="submit">${escapeHtml(method === 'device' ? t.passkeyTitle : t.passkeyOnPhone)}</button>
</form>`,
    )
    .join('\n');
  return signInPage(
    t.passkeyTitle,
    `<h1>${escapeHtml(t.signInTo(brand.name))}</h1>
<p>${withMarkup(t.usePasskeyFor, `<strong>${escapeHtml(options.email)}</strong>`)}</p>
${errorLine(options.error)}
${forms}
${options.quickCode ? `<label class="check"><input type="checkbox" id="quickcode" value="1"><span>${escapeHtml(t.quickCodeAlso)}</span></label>\n` : ''}<div class="links">
${codeInstead(links, options.email, brand)}
<a href="${escapeHtml(links.emailPage)}">${escapeHtml(differentIdentity(brand))}</a>
<a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a>
</div>`,
    brand,
    PASSKEY_SCRIPTS,
  );
}

/**
 * spec §3 enableBrowserWarning, where a passkey is created (docs/decisions/0015): a passkey kept in
 * the browser's own password manager goes with the browser's data, as the spec's identity did.
 */
export function browserWarning(brand: PageBrand): string {
  if (!brand.browserWarning) return '';
  const t = textsOf(brand);
  return `<div class="notice" role="note"><p><strong>${escapeHtml(t.browserWarningHeading)}</strong></p><p>${escapeHtml(t.browserWarning)}</p></div>\n`;
}

/**
 * After a fallback sign-in, a passkey on this device (docs/decisions/0050). `required`: no "Not
 * now", but never a dead end: a browser without WebAuthn (the page script reveals it, or without
 * scripts) continues. `secondPasskey`: the person's passkeys are each kept on one device only.
 * `localOptionsJson`: the custom domain's own rpID's options (docs/decisions/0049).
 */
export function registerPage(
  links: PasskeyLinks,
  options: { optionsJson: string; localOptionsJson?: string; error?: string; required?: boolean; secondPasskey?: boolean; conditional?: boolean },
  brand: PageBrand,
): string {
  const t = textsOf(brand);
  const skip = (value: string, hidden: string) =>
    `<form class="inline" method="post" action="${escapeHtml(links.registerAction)}"${hidden}><input type="hidden" name="skip" value="${value}"><button class="secondary" type="submit">${escapeHtml(value === '1' ? t.notNow : t.continueWithoutPasskey)}</button></form>`;
  const way = options.required
    ? `${skip('unsupported', ' data-no-webauthn hidden')}\n<noscript>${skip('unsupported', '')}</noscript>`
    : skip('1', '');
  // docs/decisions/0052: after a password sign-in, the browser's automatic upgrade is asked first.
  const conditional = options.conditional ? ' data-conditional="1"' : '';
  return signInPage(
    t.createPasskey,
    `<h1>${escapeHtml(t.createPasskey)}</h1>
<p>${escapeHtml(options.required ? t.passkeyRequiredHint(brand.name) : t.createPasskeyHint(brand.name))}</p>
${options.secondPasskey ? `<p class="hint">${escapeHtml(t.secondPasskeyHint)}</p>\n` : ''}<form method="post" action="${escapeHtml(links.registerAction)}" ${ceremonyAttributes(brand, 'register', options.optionsJson, options.localOptionsJson)}${conditional}>
<input type="hidden" name="response" value="">
<input type="hidden" name="conditional" value="">
${errorLine(options.error)}
<button class="primary" type="submit">${escapeHtml(t.createPasskey)}</button>
</form>
${browserWarning(brand)}<div class="links">
${way}
</div>`,
    brand,
    PASSKEY_SCRIPTS,
  );
}

/** spec §4: a revoked device cannot sign in. The person may verify their address again. */
export function revokedPage(
  links: InteractionLinks,
  email: string,
  brand: PageBrand,
  why: 'revoked' | 'wrongRelyingParty' = 'revoked',
  signal?: PasskeySignal,
): string {
  const t = textsOf(brand);
  const verify = brand.idType === 'alphanumeric' || brand.verifyBy === 'fullCustom';
  const [title, heading, text] =
    why === 'revoked'
      ? [t.revokedTitle, t.revokedHeading, verify ? t.revokedTextVerify(brand.name) : t.revokedText(brand.name)]
      : [t.wrongPasskeyTitle, t.wrongPasskeyHeading, t.wrongPasskeyText(brand.name)];
  return signInPage(
    title,
    `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
<div class="links">
${codeInstead(links, email, brand)}
<a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a>
</div>
${signal ? signalElement(signal) : ''}`,
    brand,
    signal ? PASSKEY_SCRIPTS : [],
  );
}

/** Issue 24: a blocked user is refused at sign-in, whatever proved who they are; Cancel returns to the app. */
export function blockedPage(links: InteractionLinks, brand: PageBrand): string {
  const t = textsOf(brand);
  return signInPage(
    t.blockedTitle,
    `<h1>${escapeHtml(t.blockedHeading)}</h1>
<p>${escapeHtml(t.blockedText(brand.name))}</p>
<div class="links">
<a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a>
</div>`,
    brand,
  );
}

/** "I have a QuickCode" (docs/decisions/0017): the address and the code shown on the user's signed-in device. */
export function quickCodeEntryPage(links: PasskeyLinks, options: { email?: string; error?: string }, brand: PageBrand): string {
  const t = textsOf(brand);
  const err = fieldError('quickcode', options.error);
  return signInPage(
    t.quickCodeTitle,
    `<h1>${escapeHtml(t.quickCodeEnterHeading)}</h1>
<p class="hint">${escapeHtml(t.quickCodeEnterHint)}</p>
<form method="post" action="${escapeHtml(links.quickCodeAction)}" novalidate>
<label for="email">${escapeHtml(brand.idLabel)}</label>
<input class="field" id="email" name="email" type="email" autocomplete="email" inputmode="email" required maxlength="${TEXT_MAX_LENGTH}" value="${escapeHtml(options.email ?? '')}">
<label for="quickcode">${escapeHtml(t.quickCodeLabel)}</label>
<input id="quickcode" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="7" required${err.attrs}>
${err.html}
<button class="primary" type="submit">${escapeHtml(t.continue)}</button>
</form>
<div class="links">
<a href="${escapeHtml(links.emailPage)}">${escapeHtml(differentIdentity(brand))}</a>
<a href="${escapeHtml(links.cancel)}">${escapeHtml(t.cancel)}</a>
</div>`,
    brand,
  );
}

/**
 * A QuickCode page: its heading, the code ("123 456") with how to use it, or `refused` (why none was
 * issued); then `next` (the way on from here).
 */
export function quickCodeShown(options: { code: string | null; minutes: number; refused: string; next: string }, brand: PageBrand): string {
  const t = textsOf(brand);
  const { code } = options;
  const shown = code
    ? `<p class="quickcode" aria-label="${escapeHtml(t.quickCodeYours)}">${escapeHtml(`${code.slice(0, 3)} ${code.slice(3)}`)}</p>
<p>${escapeHtml(t.quickCodeHowTo(brand.name, options.minutes))}</p>`
    : `<p role="alert">${escapeHtml(options.refused)}</p>`;
  return signInPage(t.quickCodeTitle, `<h1>${escapeHtml(t.quickCodeYours)}</h1>\n${shown}\n${options.next}`, brand);
}

/** The QuickCode a signed-in user asked for (or why none was issued), then Continue to the application. */
export function quickCodeShownPage(links: PasskeyLinks, options: { code: string | null; minutes: number }, brand: PageBrand): string {
  const t = textsOf(brand);
  const next = `<form method="post" action="${escapeHtml(links.quickCodeContinue)}">
<button class="primary" type="submit">${escapeHtml(t.quickCodeContinue)}</button>
</form>`;
  return quickCodeShown({ ...options, refused: t.quickCodeVerifiedOnly, next }, brand);
}
