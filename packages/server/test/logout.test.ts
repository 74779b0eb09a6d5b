import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { api, type ApplicationKeys } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, personOf, REDIRECT } from './support/fixtures.ts';
import {
  authorizationRequest,
  logoutForm,
  OFFLINE,
  projectWithRelyingParty,
  refusal,
  signInForTokens,
  untilApp,
  type RelyingParty,
} from './support/relying-party.ts';

const SIGNED_OUT = 'https://app.example.com/signed-out';

// Issue 22 "Logout": RP-Initiated Logout 1.0 at a project's issuer, with openid-client as the
// relying party (buildEndSessionUrl), post-logout redirect URIs registered per application.
describeEachDatabase('RP-initiated logout at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  /** A relying party whose keys also register SIGNED_OUT as a post-logout redirect URI. */
  async function relyingPartyWithLogout(): Promise<RelyingParty> {
    const p = await projectWithRelyingParty(t, admin);
    const path = apiPath(api.updateAppKeys, { application: p.appId });
    const keys = await admin.api.get<ApplicationKeys>(path);
    const res = await admin.api.put<ApplicationKeys>(path, { redirectURI: keys.body.redirectURI, postLogoutRedirectURI: [SIGNED_OUT] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.postLogoutRedirectURI).toEqual([SIGNED_OUT]);
    return p;
  }

  const xsrfOf = (page: BrowserResponse) => logoutForm(page).xsrf;
  const formActionOf = (page: BrowserResponse) => logoutForm(page).action;

  /** The browser opens the end-session URL; answers the page it shows. */
  const openLogout = (browser: Browser, url: URL) => browser.get(url.href);

  async function eventsOf(projectId: string, action: string) {
    const { rows } = await d.db.query<{ user_id: string | null }>(
      `SELECT user_id FROM audit_events WHERE project_id = $1 AND details->>'action' = $2`,
      [projectId, action],
    );
    return rows;
  }

  it('discovery states the end_session_endpoint', async () => {
    const p = await projectWithRelyingParty(t, admin);
    expect(p.config.serverMetadata().end_session_endpoint).toBe(`${t.baseUrl}/p/${p.projectId}/session/end`);
  });

  it('with the ID token as hint, the browser is signed out without a question and sent to the registered post-logout URI with its state', async () => {
    const p = await relyingPartyWithLogout();
    const browser = new Browser();
    const email = uniqueEmail('logout');
    const tokens = await signInForTokens(t, browser, p, email);
    const sub = tokens.claims()?.sub as string;

    const url = client.buildEndSessionUrl(p.config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'st-1',
    });
    const page = await openLogout(browser, url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script>');
    // Chromium applies the page's form-action to the redirect after the form: the post-logout origin is allowed.
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self' https:\/\/app\.example\.com/);
    const confirmed = await browser.request(formActionOf(page), { form: { xsrf: xsrfOf(page), logout: 'yes' } });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe(`${SIGNED_OUT}?state=st-1`);

    // Signed out: the next authorization asks again; the tokens of that sign-in stop working.
    const again = await untilApp(browser, await browser.get((await authorizationRequest(p)).url.href));
    expect(again.text).toContain('name="email"');
    expect(await refusal(client.fetchUserInfo(p.config, tokens.access_token, sub))).toBe('invalid_token');
    expect(await eventsOf(p.projectId, 'sign_out')).toEqual([{ user_id: await personOf(d.db, p.projectId, email) }]);
  });

  it('an offline refresh token outlives the logout (OpenID Connect Core §11); the session does not', async () => {
    const p = await relyingPartyWithLogout();
    const browser = new Browser();
    const tokens = await signInForTokens(t, browser, p, uniqueEmail('offline'), OFFLINE);
    const page = await openLogout(browser, client.buildEndSessionUrl(p.config, { id_token_hint: tokens.id_token as string }));
    const done = await browser.request(formActionOf(page), { form: { xsrf: xsrfOf(page), logout: 'yes' } });
    expect(done.location).toMatch(/\/session\/end\/success$/);
    const success = await browser.get(done.location as string);
    expect(success.text).toContain('You are signed out');
    expect((await client.refreshTokenGrant(p.config, tokens.refresh_token as string)).access_token).toEqual(expect.any(String));
  });

  it('without a hint the person is asked, in the language of ui_locales; an unregistered post-logout URI is refused with a page', async () => {
    const p = await relyingPartyWithLogout();
    const browser = new Browser();
    await signInForTokens(t, browser, p, uniqueEmail('asked'));
    const asked = await openLogout(
      browser,
      client.buildEndSessionUrl(p.config, { client_id: p.keys.clientId, post_logout_redirect_uri: SIGNED_OUT, ui_locales: 'fr' }),
    );
    expect(asked.status).toBe(200);
    expect(asked.text).not.toContain('<script>');
    expect(asked.text).toContain('Se déconnecter de');
    expect(asked.text).toContain('name="logout" value="yes"');
    // Not confirmed: still signed in.
    const still = await untilApp(browser, await browser.get((await authorizationRequest(p)).url.href));
    expect(still.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?code=`));

    const unregistered = await openLogout(
      browser,
      client.buildEndSessionUrl(p.config, { client_id: p.keys.clientId, post_logout_redirect_uri: 'https://evil.example/' }),
    );
    expect(unregistered.status).toBe(400);
    expect(unregistered.location).toBeNull();
  });

  it('post-logout redirect URIs are registered with the keys: checked like redirect URIs, kept by a PUT that does not name them', async () => {
    const p = await relyingPartyWithLogout();
    const path = apiPath(api.updateAppKeys, { application: p.appId });
    for (const [uri, code] of [
      ['https://app.example.com/out#x', 'validation.redirect_uri_fragment'],
      ['com.example.app:/out', 'validation.redirect_uri_app_scheme'],
    ]) {
      const bad = await admin.api.put<{ issues: Array<{ field: string; code: string }> }>(path, {
        redirectURI: [REDIRECT],
        postLogoutRedirectURI: [SIGNED_OUT, uri],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.issues.map((i) => [i.field, i.code])).toEqual([['postLogoutRedirectURI.1', code]]);
    }
    const kept = await admin.api.put<ApplicationKeys>(path, { redirectURI: [REDIRECT] });
    expect(kept.status).toBe(200);
    expect(kept.body.postLogoutRedirectURI).toEqual([SIGNED_OUT]);
  });
});
