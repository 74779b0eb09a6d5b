import { recoveryTextsOf } from '../oidc/recovery-codes.ts';
import { PASSKEY_NAME_MAX } from '@latchkey/domain';
import { PASSKEY_SCRIPTS } from '../oidc/pages/passkey-views.ts';
import { escapeHtml, fieldError, signalElement, signInPage, type PageBrand, type PasskeySignal } from '../oidc/pages/views.ts';
import type { FallbackVerification } from './account-texts.ts';
import { accountTextsOf, facts, hidden, pathOf, when, type AccountLinks } from './account-views.ts';
import { sessionsSection, type AccountSession } from './sessions-views.ts';

export interface AccountPasskey {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** ISO 3166-1 alpha-2 where it was registered (ZZ unknown), or null. */
  country: string | null;
  /** The passkey this browser's session was signed in with. */
  current: boolean;
  /**
   * docs/decisions/0050: kept by a synced passkey provider (the credential's BE flag), or on this
   * one device only (false); null: registered before the flags were stored.
   */
  synced: boolean | null;
}

export interface AccountView {
  identity: string;
  /** The form token every change posts (bound to this browser's session). */
  csrf: string;
  passkeys: AccountPasskey[];
  sessions: AccountSession[];
  /** The project offers QuickCodes (docs/decisions/0017). */
  quickCodes: boolean;
  /** The person's recovery codes (docs/decisions/0051): how many are left of a set, or no set. */
  recoveryCodes: { left: number; total: number; hasSet: boolean };
  /** What the last change did, said once at the top. */
  notice?: string;
  /** A rename refused, with what was typed. */
  renaming?: { id: string; value: string; error: string };
  /** WebAuthn Signal API calls for the page script (the accepted passkeys, the user's name). */
  signals?: PasskeySignal[];
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
  ...(p.synced === null ? [] : [[t.kept, p.synced ? t.synced : t.deviceBound] as [string, string]]),
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

/** The recovery codes: how many are left, and a set to create (shown once, recovery-codes-step.ts). */
function recoveryCodesSection(links: AccountLinks, view: AccountView, brand: PageBrand): string {
  const r = recoveryTextsOf(brand);
  const { left, total, hasSet } = view.recoveryCodes;
  return `<h2>${escapeHtml(r.codesHeading)}</h2>
<p class="hint">${escapeHtml(r.codesIntro)}</p>
<p id="recovery-codes-left">${escapeHtml(hasSet ? r.codesLeft(left, total) : r.noCodes)}</p>
<form method="post" action="${escapeHtml(pathOf(links, 'recovery-codes'))}">${hidden('csrf', view.csrf)}<button class="secondary" type="submit">${escapeHtml(hasSet ? r.replaceCodes : r.createCodes)}</button></form>
`;
}

/** The account page: who is signed in, their passkeys, a way to add a device, their sessions, sign out. */
export function accountPage(links: AccountLinks, view: AccountView, brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const passkeys =
    view.passkeys.length === 0
      ? `<p>${escapeHtml(t.noPasskeys)}</p>`
      : `<p class="hint">${escapeHtml(t.passkeysIntro)}</p>
${
  // Every passkey on one device only: losing it leaves only the fallback, so a second one is suggested.
  view.passkeys.every((p) => p.synced === false) ? `<div class="notice" role="note"><p>${escapeHtml(t.secondPasskey)}</p></div>\n` : ''
}<ul class="items">
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
${recoveryCodesSection(links, view, brand)}${sessionsSection(links, view.csrf, view.sessions, brand)}${(view.signals ?? []).map(signalElement).join('')}`,
    brand,
    view.signals?.length ? PASSKEY_SCRIPTS : [],
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
