import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import type * as client from 'openid-client';
import { api, type ApplicationKeys } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, createApp, createProject, REDIRECT } from './support/fixtures.ts';
import { resolveLocalNames } from './support/localhost-names.ts';
import { declinePasskey, formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

// The example's issuer is a project's own host, {project}.localhost (docs/decisions/0047).
resolveLocalNames();

const README = resolve(import.meta.dirname, '../../../README.md');

/** The first ```js block of the README's "Sign users in to your app" section, as written there. */
export function readmeExample(markdown = readFileSync(README, 'utf8')): string {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Sign users in to your app\n'));
  if (!section) throw new Error('README.md has no "## Sign users in to your app" section');
  const block = /^```js\n([\s\S]*?)^```$/m.exec(section);
  if (!block) throw new Error('the section has no ```js example');
  return block[1] as string;
}

// The example's placeholders: the console's values, and the callback the user came back to.
const LOCAL_ISSUER = /'http:\/\/PROJECT_ID\.localhost:8080'/;
const SEND_THE_USER = /^\/\/ Send the user to `url`.*$/m;
const CALLBACK = 'callbackUrlTheUserCameBackTo';
// The post-logout redirect URL the example names, registered with the keys here.
const SIGNED_OUT = 'https://app.example.com/';

// The README's example, run as written: only the placeholders (issuer, client id and secret) take a
// test project's values, and the line where the user goes away to sign in does so here.
describeWithDatabase("the README's 'Sign users in to your app' example", (d) => {
  // As `npm start` runs it: PUBLIC_URL at localhost, so ISSUER_DOMAIN is localhost (the tests' PUBLIC_URL is 127.0.0.1).
  const t = useTestApp(d, { listen: true, env: { ISSUER_DOMAIN: 'localhost' } });
  let admin: SignedIn;
  let written: string | null = null;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });
  afterEach(() => {
    if (written) rmSync(written, { force: true });
    written = null;
    vi.restoreAllMocks();
  });

  /** The end user at the authorization URL: their address, the mailed code, "Not now" to the passkey. */
  async function signIn(url: URL, email: string): Promise<string> {
    const browser = new Browser();
    const toApp = (location: string) => location.startsWith(REDIRECT);
    const until = async (first: BrowserResponse) => (await browser.follow(first, toApp)).at(-1) as BrowserResponse;
    const emailPage = await until(await browser.get(url.href));
    const codePage = await submitEmail(browser, emailPage, email);
    let last = await until(await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    if (isPasskeyOffer(last)) last = await until(await declinePasskey(browser, last));
    expect(last.location ?? '', last.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    return last.location as string;
  }

  it('has the placeholders this test fills, and the redirect URI registered here', () => {
    const example = readmeExample();
    expect(example).toMatch(/^import \* as client from 'openid-client';$/m);
    expect(example).toMatch(LOCAL_ISSUER);
    expect(example).toContain("'CLIENT_ID', 'CLIENT_SECRET'");
    expect(example).toMatch(SEND_THE_USER);
    expect(example).toContain(CALLBACK);
    expect(example).toContain(`const redirect_uri = '${REDIRECT}';`);
  });

  it('signs a user in, refreshes the tokens and builds the logout address, as written, against a project made through the API', async () => {
    const projectId = await createProject(admin);
    const appId = await createApp(admin, projectId);
    const created = await admin.api.post<ApplicationKeys>(apiPath(api.createAppKeys, { application: appId }), {
      redirectURI: [REDIRECT],
      postLogoutRedirectURI: [SIGNED_OUT],
    });
    expect(created.status).toBe(201);
    const keys = created.body;
    const email = uniqueEmail('readme');
    const hook = `__readmeSignIn_${randomBytes(4).toString('hex')}`;
    (globalThis as Record<string, unknown>)[hook] = (url: URL) => signIn(url, email);

    const openidClient = pathToFileURL(createRequire(import.meta.url).resolve('openid-client')).href;
    const runnable = readmeExample()
      .replace("from 'openid-client'", `from '${openidClient}'`)
      .replace(LOCAL_ISSUER, `'${keys.issuer}'`)
      .replace("'CLIENT_ID', 'CLIENT_SECRET'", `'${keys.clientId}', '${keys.clientSecret}'`)
      .replace(SEND_THE_USER, `const ${CALLBACK} = await globalThis.${hook}(url);`)
      // What the example made, for the checks below.
      .concat('\nexport { tokens, refreshed, logoutUrl };\n');
    written = join(tmpdir(), `latchkey-readme-example-${randomBytes(6).toString('hex')}.mjs`);
    writeFileSync(written, runnable);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});

    let made: { tokens: client.TokenEndpointResponse; refreshed: client.TokenEndpointResponse; logoutUrl: URL };
    try {
      made = (await import(/* @vite-ignore */ pathToFileURL(written).href)) as typeof made;
    } finally {
      delete (globalThis as Record<string, unknown>)[hook];
    }
    // The last line prints the userinfo of the user who signed in.
    expect(log).toHaveBeenCalledTimes(1);
    const [userinfo] = log.mock.calls[0] as [Record<string, unknown>];
    expect(userinfo).toMatchObject({ email, email_verified: true, preferred_username: email, locale: 'en' });
    const { rows } = await d.db.query<{ id: string }>('SELECT id FROM project_users WHERE project_id = $1 AND email = $2', [projectId, email]);
    expect(userinfo.sub).toBe(rows[0]?.id);
    // The refresh answered new tokens; the logout address names the issuer's end_session_endpoint.
    expect(made.refreshed.refresh_token).toEqual(expect.any(String));
    expect(made.refreshed.refresh_token).not.toBe(made.tokens.refresh_token);
    expect(keys.issuer).toBe(`http://${projectId}.localhost:${new URL(t.baseUrl).port}`);
    expect(made.logoutUrl.href.startsWith(`${keys.issuer}/session/end?`)).toBe(true);
    expect(made.logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(SIGNED_OUT);
  });
});
