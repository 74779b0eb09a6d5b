import { performance } from 'node:perf_hooks';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, projectIssuerPath, type ApplicationKeys, type ApplicationType, type Issuer } from '@latchkey/domain';
import type { Db } from '../src/db/db.ts';
import { ApiClient, signedInAccount, startTestApp, uniqueEmail, type SignedIn, type TestApp } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { createTestDatabase } from './support/databases.ts';
import { apiPath, createApp, createKeys, createProject, REDIRECT, setEnabled } from './support/fixtures.ts';
import { formAction, isPasskeyOffer } from './support/sign-in.ts';

type Instance = 'A' | 'B';

/**
 * Issue 8: two server instances on one PostgreSQL behind one PUBLIC_URL (a load balancer in front),
 * every step of a sign-in sent to a named instance, and a settings change made through one
 * instance honoured by the other within a second. PostgreSQL only: PGlite lives in one process.
 */
describe('two server instances on one PostgreSQL [postgres]', () => {
  let drop: (() => Promise<void>) | null = null;
  let db: Db;
  const instances = {} as Record<Instance, TestApp>;
  let admin: SignedIn;
  /** The same account's console session, calling B's API. */
  let adminAtB: ApiClient;

  beforeAll(async () => {
    const scratch = await createTestDatabase('postgres');
    drop = scratch.drop;
    db = scratch.db;
    instances.A = await startTestApp(db, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
    // B answers the same public address: the address A's URL names is where both are reached.
    instances.B = await startTestApp(db, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100', PUBLIC_URL: instances.A.baseUrl } });
    admin = await signedInAccount(instances.A, db);
    adminAtB = new ApiClient(instances.B.app, admin.session);
  });
  afterAll(async () => {
    await instances.B?.close();
    await instances.A?.close();
    await drop?.();
  });

  const publicUrl = () => instances.A.baseUrl;
  const portOf = (i: Instance) => String(instances[i].config.port);

  /**
   * The load balancer: every request (the browser's and the relying party's) goes to `current`,
   * and each one is logged, so a test asserts where each step really ran.
   */
  function loadBalancer() {
    const lb = {
      current: 'A' as Instance,
      log: [] as Array<{ instance: Instance; method: string; path: string }>,
      to(url: URL, method = 'GET'): URL {
        const target = new URL(url);
        expect(target.origin).toBe(publicUrl());
        target.port = portOf(lb.current);
        lb.log.push({ instance: lb.current, method, path: target.pathname });
        return target;
      },
      /** The instances that served the log entries since `from`. */
      servedSince(from: number): Instance[] {
        return [...new Set(lb.log.slice(from).map((entry) => entry.instance))];
      },
    };
    return lb;
  }
  type LoadBalancer = ReturnType<typeof loadBalancer>;

  /** Runs `step` with every request sent to `instance`; asserts that it sent some, all there. */
  async function at<T>(lb: LoadBalancer, instance: Instance, step: () => Promise<T>): Promise<T> {
    lb.current = instance;
    const from = lb.log.length;
    const result = await step();
    expect(lb.log.length, `the step at ${instance} sent no request`).toBeGreaterThan(from);
    expect(lb.servedSince(from)).toEqual([instance]);
    return result;
  }

  async function projectWithKeys(type: ApplicationType = 'web'): Promise<{ projectId: string; appId: string; keys: ApplicationKeys }> {
    const projectId = await createProject(admin);
    const appId = await createApp(admin, projectId, 'Web portal', type);
    return { projectId, appId, keys: await createKeys(admin, appId) };
  }

  /** openid-client for the application, discovered at `instance`, then sending each call where the load balancer says. */
  async function relyingParty(lb: LoadBalancer, projectId: string, keys: ApplicationKeys, auth?: client.ClientAuth) {
    const issuer = new URL(`${publicUrl()}${projectIssuerPath(projectId)}`);
    const route: client.CustomFetch = (url, options) => fetch(lb.to(new URL(url), options.method), options);
    const config = await client.discovery(issuer, keys.clientId, keys.clientSecret, auth, {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: route,
    });
    config[client.customFetch] = route;
    return config;
  }

  async function authorizationRequest(config: client.Configuration, method: 'S256' | 'plain' = 'S256') {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email',
      code_challenge: method === 'S256' ? await client.calculatePKCECodeChallenge(verifier) : verifier,
      code_challenge_method: method,
    });
    return { url, verifier };
  }

  const toApp = (location: string) => location.startsWith(REDIRECT);
  const last = async (browser: Browser, first: BrowserResponse) => (await browser.follow(first, toApp)).at(-1) as BrowserResponse;
  /** The code mailed to `to`, by whichever instance sent it. */
  const codeOf = (to: string) =>
    [...instances.A.mailer.sent, ...instances.B.mailer.sent].filter((m) => m.email === to).at(-1)?.code ?? 'no code was mailed';

  it('completes a sign-in whose steps alternate between the instances, then a passkey-only sign-in alternating the other way', async () => {
    const lb = loadBalancer();
    const { projectId, keys } = await projectWithKeys();
    const config = await at(lb, 'A', () => relyingParty(lb, projectId, keys));
    const email = uniqueEmail('alternating');

    // New user: authorization request at A, email page at B, code at A, passkey at B, return and token at A, userinfo at B.
    const browser = new Browser({ via: (url) => lb.to(url) });
    const start = await authorizationRequest(config);
    const toInteraction = await at(lb, 'A', () => browser.get(start.url.href));
    expect(toInteraction.status, toInteraction.text).toBe(303);
    const emailPage = await at(lb, 'B', async () => {
      const page = await last(browser, toInteraction);
      expect(page.text).toContain('<label for="email">Email</label>');
      return last(browser, await browser.request(formAction(page), { form: { email } }));
    });
    expect(emailPage.text).toContain('We sent a 6-digit code to');
    const offer = await at(lb, 'A', async () => last(browser, await browser.request(formAction(emailPage), { form: { code: codeOf(email) } })));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    let passkey: Passkey | null = null;
    const registered = await at(lb, 'B', async () => {
      const made = createPasskey(pageOptions<CreationOptions>(offer.text), publicUrl());
      passkey = made.passkey;
      return browser.request(formAction(offer), { form: { response: JSON.stringify(made.response) } });
    });
    expect(registered.status, registered.text).toBe(303);
    const tokens = await at(lb, 'A', async () => {
      const back = await last(browser, registered);
      expect(back.location ?? '', back.text).toMatch(new RegExp(`^${REDIRECT}\\?code=`));
      return client.authorizationCodeGrant(config, new URL(back.location as string), { pkceCodeVerifier: start.verifier });
    });
    const { sub } = tokens.claims() as { sub: string };
    const info = await at(lb, 'B', () => client.fetchUserInfo(config, tokens.access_token, sub));
    expect(info).toMatchObject({ sub, email, email_verified: true });
    const { rows: devices } = await db.query('SELECT id FROM devices WHERE project_id = $1 AND user_id = $2', [projectId, sub]);
    expect(devices).toEqual([{ id: (passkey as unknown as Passkey).id }]);

    // Returning user, the passkey alone: authorization at B, email page at A, passkey page at B,
    // assertion at A, return and token at B, userinfo at A.
    const again = new Browser({ via: (url) => lb.to(url) });
    const next = await authorizationRequest(config);
    const redirected = await at(lb, 'B', () => again.get(next.url.href));
    const emailPage2 = await at(lb, 'A', () => last(again, redirected));
    expect(emailPage2.text).toContain('<label for="email">Email</label>');
    const passkeyPage = await at(lb, 'B', async () => last(again, await again.request(formAction(emailPage2), { form: { email } })));
    expect(passkeyPage.text).toContain('Sign in with a passkey');
    const mailed = codeOf(email);
    const asserted = await at(lb, 'A', () =>
      again.request(formAction(passkeyPage), {
        form: { response: JSON.stringify(usePasskey(passkey as unknown as Passkey, pageOptions<RequestOptions>(passkeyPage.text), publicUrl())) },
      }),
    );
    expect(asserted.status, asserted.text).toBe(303);
    const second = await at(lb, 'B', async () => {
      const back = await last(again, asserted);
      expect(back.location ?? '', back.text).toMatch(new RegExp(`^${REDIRECT}\\?code=`));
      return client.authorizationCodeGrant(config, new URL(back.location as string), { pkceCodeVerifier: next.verifier });
    });
    expect(second.claims()?.sub).toBe(sub);
    expect(await at(lb, 'A', () => client.fetchUserInfo(config, second.access_token, sub))).toMatchObject({ sub, email });
    expect(codeOf(email)).toBe(mailed); // no second code: the passkey alone signed in
  });

  /**
   * Polls `probe` at B until it answers `expected`; answers the milliseconds from the change (made
   * just before the call) to the first answer that honours it. B gives the old answer before.
   */
  async function delayUntil<T>(probe: () => Promise<T>, expected: T, change: () => Promise<void>): Promise<number> {
    const before = await probe();
    expect(before, 'B already answered as after the change').not.toEqual(expected);
    await change();
    const changed = performance.now();
    for (;;) {
      const answer = await probe();
      const elapsed = performance.now() - changed;
      if (JSON.stringify(answer) === JSON.stringify(expected)) return elapsed;
      if (elapsed > 5_000) throw new Error(`B still answers ${JSON.stringify(answer)} 5 s after the change`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function setIssuerAtA(projectId: string, change: Partial<Issuer>): Promise<void> {
    const path = apiPath(api.getIssuer, { project: projectId });
    const current = await admin.api.get<Issuer>(path);
    const res = await admin.api.put(path, { ...current.body, ...change });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  /** The OAuth error B's token endpoint answers for a made-up code, or 'accepted' (client authenticated, code refused). */
  async function tokenProbe(projectId: string, keys: ApplicationKeys, how: 'post' | 'public'): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: 'not-a-code',
      redirect_uri: REDIRECT,
      code_verifier: client.randomPKCECodeVerifier(),
      client_id: keys.clientId,
    });
    if (how === 'post') form.set('client_secret', keys.clientSecret);
    const res = await fetch(`http://127.0.0.1:${portOf('B')}${projectIssuerPath(projectId)}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(res.status).toBeLessThan(500);
    const { error } = (await res.json()) as { error: string };
    return error === 'invalid_grant' ? 'accepted' : error;
  }

  /** Where B sends the browser for an authorization request: 'sign-in page', a refusal status, or the client's error. */
  async function authorizationProbe(config: client.Configuration, method: 'S256' | 'plain' = 'S256'): Promise<string> {
    const lb = loadBalancer();
    lb.current = 'B';
    const res = await new Browser({ via: (url) => lb.to(url) }).get((await authorizationRequest(config, method)).url.href);
    if (res.status === 303 && res.location?.startsWith(`${publicUrl()}/p/`)) return 'sign-in page';
    if (res.location?.startsWith(REDIRECT)) return `back to the client: ${new URL(res.location).searchParams.get('error')}`;
    return `${res.status}`;
  }

  it('honours at B, within a second, each setting changed through A', async () => {
    const lb = loadBalancer();
    // A single-page app: it authenticates with its secret, or with PKCE alone where the project allows it.
    const { projectId, appId, keys } = await projectWithKeys('spa');
    const config = await relyingParty(lb, projectId, keys);
    lb.current = 'B';
    const delays: Record<string, number> = {};

    delays['client_secret_post switched off'] = await delayUntil(
      () => tokenProbe(projectId, keys, 'post'),
      'invalid_client',
      () => setIssuerAtA(projectId, { token_endpoint_auth_methods: ['client_secret_basic'] }),
    );
    delays['PKCE-only exchange allowed'] = await delayUntil(
      () => tokenProbe(projectId, keys, 'public'),
      'accepted',
      () => setIssuerAtA(projectId, { allow_pkce_only_token_exchange: true }),
    );
    delays['plain PKCE allowed'] = await delayUntil(
      () => authorizationProbe(config, 'plain'),
      'sign-in page',
      () => setIssuerAtA(projectId, { code_challenge_methods: ['S256', 'plain'] }),
    );

    // CORS: B answers userinfo to a browser origin once A saved it among the Allowed CORS Origins.
    const browser = new Browser({ via: (url) => lb.to(url) });
    const start = await authorizationRequest(config);
    const emailPage = await last(browser, await browser.get(start.url.href));
    const email = uniqueEmail('cors');
    const codePage = await last(browser, await browser.request(formAction(emailPage), { form: { email } }));
    const offer = await last(browser, await browser.request(formAction(codePage), { form: { code: codeOf(email) } }));
    const back = await last(browser, await browser.request(formAction(offer, 1), { form: { skip: '1' } }));
    const tokens = await client.authorizationCodeGrant(config, new URL(back.location as string), { pkceCodeVerifier: start.verifier });
    const spa = 'https://spa.example.com';
    delays['CORS origin allowed'] = await delayUntil(
      async () => {
        const res = await fetch(`http://127.0.0.1:${portOf('B')}${projectIssuerPath(projectId)}/me`, {
          headers: { authorization: `Bearer ${tokens.access_token}`, origin: spa },
        });
        return `${res.status} ${res.headers.get('access-control-allow-origin')}`;
      },
      `200 ${spa}`,
      async () => {
        const path = apiPath(api.getProject, { project: projectId });
        const { id: _id, enabled: _enabled, ...settings } = (await admin.api.get<Record<string, unknown>>(path)).body;
        const saved = await admin.api.put(apiPath(api.updateProject, { project: projectId }), { ...settings, allowedCORSDomains: [spa] });
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      },
    );

    // B keeps the clients it read (issuer/client-cache.ts) only while their version is the one it reads.
    let renewed = keys;
    delays['new client secret'] = await delayUntil(
      () => tokenProbe(projectId, keys, 'post'),
      'invalid_client',
      async () => {
        await setIssuerAtA(projectId, { token_endpoint_auth_methods: ['client_secret_basic', 'client_secret_post'] });
        expect(await tokenProbe(projectId, keys, 'post')).toBe('accepted');
        const res = await admin.api.post<ApplicationKeys>(apiPath(api.generateAppKeys, { application: appId }), { redirectURI: [REDIRECT] });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        renewed = res.body;
      },
    );
    expect(await tokenProbe(projectId, renewed, 'post')).toBe('accepted');

    delays['application disabled'] = await delayUntil(
      () => authorizationProbe(config),
      '403',
      () => setEnabled(admin, appId, false),
    );
    // And back, through B's API this time, honoured by A.
    await setEnabled({ ...admin, api: adminAtB }, appId, true);
    lb.current = 'A';
    const res = await new Browser({ via: (url) => lb.to(url) }).get((await authorizationRequest(config)).url.href);
    expect(res.status).toBe(303);

    for (const [change, ms] of Object.entries(delays)) expect(ms, `${change}: ${ms.toFixed(1)} ms`).toBeLessThan(1_000);
  });
});
