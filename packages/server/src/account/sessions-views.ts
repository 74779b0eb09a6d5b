import { escapeHtml, type PageBrand } from '../oidc/pages/views.ts';
import { accountTextsOf, facts, hidden, pathOf, when, type AccountLinks } from './account-views.ts';

export interface AccountSession {
  id: string;
  startedAt: Date | null;
  expiresAt: Date | null;
  current: boolean;
  passkeyName: string | null;
  applications: string[];
}

function sessionItem(links: AccountLinks, csrf: string, s: AccountSession, brand: PageBrand): string {
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
    : `<form method="post" action="${escapeHtml(pathOf(links, 'sessions', s.id, 'end'))}">${hidden('csrf', csrf)}<button class="secondary" type="submit">${escapeHtml(t.signOutSession)}</button></form>`;
  return `<li class="item">
<p class="item-title"><span>${escapeHtml(title)}</span></p>
${facts(rows)}
${signOut ? `<div class="actions">${signOut}</div>\n` : ''}</li>`;
}

/** The account page's sessions (sessions-step.ts): each with its sign-out, then everywhere else, then here. */
export function sessionsSection(links: AccountLinks, csrf: string, sessions: AccountSession[], brand: PageBrand): string {
  const t = accountTextsOf(brand);
  const others = sessions.filter((s) => !s.current);
  return `<h2>${escapeHtml(t.sessionsHeading)}</h2>
<ul class="items">
${sessions.map((s) => sessionItem(links, csrf, s, brand)).join('\n')}
</ul>
<div class="row">
${
  others.length > 0
    ? `<form method="post" action="${escapeHtml(pathOf(links, 'sessions', 'others', 'end'))}">${hidden('csrf', csrf)}<button class="secondary" type="submit">${escapeHtml(t.signOutOthers)}</button></form>`
    : `<p class="hint">${escapeHtml(t.noOtherSessions)}</p>`
}
<form method="post" action="${escapeHtml(pathOf(links, 'sign-out'))}">${hidden('csrf', csrf)}<button class="primary" type="submit">${escapeHtml(t.signOutHere)}</button></form>
</div>`;
}
