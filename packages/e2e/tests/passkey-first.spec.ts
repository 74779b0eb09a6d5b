import { join } from 'node:path';
import { api } from '@latchkey/domain';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import {
  callApiOk,
  closeProjectThroughApi,
  createAppWithKeysThroughApi,
  createProjectThroughApi,
  revokeDeviceThroughApi,
} from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { resolveLocalhostNames } from '../support/localhost-names.ts';
import {
  addVirtualAuthenticator,
  clickCreatePasskey,
  expectPasskeyOffer,
  expectSignedInAtApp,
  fillEmailedCodeAndSignIn,
  fillIdentityAndContinue,
  goToAppSignIn,
  type VirtualAuthenticator,
} from '../support/passkey-pages.ts';
import {
  clickPasskeyButton,
  clickUsePhone,
  expectInvalidAddress,
  expectNoPasskeyUsed,
  expectNoWebAuthn,
  expectPasskeyFirstPage,
  expectProjectClosed,
  expectRevokedWithFallback,
} from '../support/passkey-first-pages.ts';
import { startRelyingParty, type RelyingParty } from '../support/relying-party.ts';
import { countCodesSentTo, newEmail, readCode, signIn } from '../support/sign-in.ts';
import { startServer, type StartedServer } from '../support/start-server.ts';
import { expectSignInBlocked } from '../support/users-pages.ts';
import { recordWebAuthn, type WebAuthnRecord } from '../support/webauthn-record.ts';

// docs/decisions/0047: the passkey-first page of a project on its own host, {project}.localhost:{port}
// (Chromium resolves *.localhost to loopback itself and treats it as a secure context). The suite's
// server keeps ISSUER_DOMAIN=none (its scenarios' projects stay on the shared path); this file starts
// a server of its own with ISSUER_DOMAIN=localhost and an embedded database, shared by its scenarios
// (run in order in one worker).
resolveLocalhostNames();
test.describe.configure({ mode: 'serial' });

let server: StartedServer;
let app: RelyingParty;
let developer: BrowserContext;
let admin: Page;
let projectId = '';
/** The test app's client at the project's own host. */
let ownHostClient = { issuer: '', clientId: '', clientSecret: '' };
const projectName = `Passkey first ${Date.now().toString(36)}`;

test.beforeAll(async ({ browser }) => {
  [server, app] = await Promise.all([startServer({ ISSUER_DOMAIN: 'localhost', TRUST_PROXY: '127.0.0.1,::1' }), startRelyingParty()]);
  developer = await browser.newContext({ baseURL: server.url });
  admin = await developer.newPage();
  await signIn(admin, newEmail('developer'), '/', server);
  projectId = await createProjectThroughApi(admin, projectName);
  const issuer = await callApiOk(admin, api.getIssuer, { params: { project: projectId } });
  // A new project's issuer is its own host.
  expect(issuer.address).toBe(`http://${projectId}.localhost:${new URL(server.url).port}`);
  const keys = await createAppWithKeysThroughApi(admin, projectId, [app.redirectUri]);
  ownHostClient = { issuer: issuer.address as string, clientId: keys.clientId, clientSecret: keys.clientSecret };
  app.useClient(ownHostClient);
});

test.afterAll(async () => {
  await developer?.close();
  await app?.close();
  if (server && server.child.exitCode === null) {
    const exited = new Promise((ok) => server.child.once('exit', ok));
    server.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((ok) => setTimeout(ok, 5000))]);
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
});

/** An end user's own browser, with a platform authenticator holding discoverable passkeys. */
interface EndUser {
  context: BrowserContext;
  user: Page;
  device: VirtualAuthenticator;
  webauthn: WebAuthnRecord;
}
async function endUserBrowser(browser: Browser, options: { locale?: string } = {}): Promise<EndUser> {
  const context = await browser.newContext(options.locale ? { locale: options.locale } : {});
  const webauthn = await recordWebAuthn(context);
  webauthn.holdAutofill = true;
  const user = await context.newPage();
  const device = await addVirtualAuthenticator(user);
  return { context, user, device, webauthn };
}

/** SHOTS_R2=<dir>: the page as a person sees it, light and dark, and at a phone's width. */
async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_R2;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(dir, `${name}-${scheme}.png`), fullPage: true });
  }
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(dir, `${name}-phone-dark.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: join(dir, `${name}-phone-light.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: null });
  if (size) await page.setViewportSize(size);
}

/**
 * https on 127.0.0.1:443 for every *.localhost name and the custom domain `name` (a self-signed
 * certificate the scenario's browser is told to accept), passing each request to the server at
 * `port` with its own host's Host: what an operator's TLS front does for {project}.{ISSUER_DOMAIN}.
 * Answers the paths it served. While it runs, this process's TLS clients (the test app's token call
 * at the custom domain) trust its certificate, and only it, besides the usual authorities.
 */
async function startTlsProxy(port: number, name: string): Promise<{ served: string[]; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=DNS:${name},DNS:localhost`,
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    {
      stdio: 'ignore',
    },
  );
  const served: string[] = [];
  const proxy = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (incoming, outgoing) => {
    served.push(incoming.url ?? '');
    // An own host keeps its origin's port; a custom domain is https at 443, said by X-Forwarded-Proto (the server trusts loopback).
    const name = (incoming.headers.host ?? '').replace(/:\d+$/, '');
    const headers = name.endsWith('.localhost')
      ? { ...incoming.headers, host: `${name}:${port}` }
      : { ...incoming.headers, 'x-forwarded-proto': 'https' };
    const forward = httpRequest({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forward);
  });
  await new Promise<void>((ok, fail) => {
    proxy.once('error', fail);
    proxy.listen(443, '127.0.0.1', ok);
  });
  const authorities = getCACertificates('default');
  setDefaultCACertificates([...authorities, readFileSync(join(dir, 'cert.pem'), 'utf8')]);
  return {
    served,
    close: () => {
      setDefaultCACertificates(authorities);
      return new Promise((ok) => proxy.close(() => ok()));
    },
  };
}

let email = '';
let subject = '';
let holder: EndUser;

test('a new user on the own host verifies by code and creates a discoverable passkey; page 1 starts the autofill request', async ({ browser }) => {
  holder = await endUserBrowser(browser);
  holder.webauthn.holdAutofill = false;
  const { user } = holder;
  email = newEmail('passkey-first');
  await goToAppSignIn(user, app.url, projectName);
  expect(new URL(user.url()).host).toBe(`${projectId}.localhost:${new URL(server.url).port}`);
  await expectPasskeyFirstPage(user);
  // The autofill (conditional mediation) request is under way as soon as the page has loaded.
  await expect.poll(() => holder.webauthn.requests).toContainEqual({ mediation: 'conditional', hints: [] });
  await expectAccessible(user);
  await shots(user, 'page1-en');

  await fillIdentityAndContinue(user, email);
  await fillEmailedCodeAndSignIn(user, await readCode(email, 0, server.logFile));
  await expectPasskeyOffer(user);
  await clickCreatePasskey(user);
  subject = await expectSignedInAtApp(user);
  expect(await holder.device.passkeyIds()).toHaveLength(1);
});

test('the autofill path: a returning user opens the app and the conditional request signs them in (no address typed)', async () => {
  const { context, user, webauthn } = holder;
  await context.clearCookies(); // a new browser session; the passkey stays on the device
  const before = webauthn.requests.length;
  const signalsBefore = webauthn.signals.length;
  await user.goto(app.url);
  expect(await expectSignedInAtApp(user)).toBe(subject);
  // Page 1's only request was the conditional one: no button was pressed.
  expect(webauthn.requests.slice(before)).toEqual([{ mediation: 'conditional', hints: [] }]);
  // docs/decisions/0048: before it left for the app, the page told the browser which passkeys this
  // relying party accepts for the user, and their name (Signal API).
  const [passkeyId] = await holder.device.passkeyIds();
  const userId = Buffer.from(subject).toString('base64url');
  expect(webauthn.signals.slice(signalsBefore)).toEqual([
    { name: 'signalAllAcceptedCredentials', options: { rpId: `${projectId}.localhost`, userId, allAcceptedCredentialIds: [passkeyId] } },
    { name: 'signalCurrentUserDetails', options: { rpId: `${projectId}.localhost`, userId, name: email, displayName: email } },
  ]);
});

test('a returning user signs in with "Sign in with a passkey" without typing anything', async () => {
  const { context, user, webauthn } = holder;
  webauthn.holdAutofill = true; // the person does not pick from the autofill: they press the button
  await context.clearCookies();
  await goToAppSignIn(user, app.url, projectName);
  const before = webauthn.requests.length;
  await clickPasskeyButton(user);
  expect(await expectSignedInAtApp(user)).toBe(subject);
  // One code was ever mailed: the one before the passkey was made.
  expect(countCodesSentTo(email, server.logFile)).toBe(1);
  // Immediate mediation where Chromium offers it (getClientCapabilities().immediateGet), then or else the modal request.
  const asked = webauthn.requests.slice(before).map((r) => r.mediation);
  expect(asked.at(-1) === 'optional' || asked.at(-1) === 'immediate', asked.join()).toBe(true);
  console.log(`the button's requests: ${asked.join(', ')}`);
});

test('page 1 after a bad address keeps the passkey button, which still signs in', async () => {
  const { context, user } = holder;
  await context.clearCookies();
  await goToAppSignIn(user, app.url, projectName);
  await fillIdentityAndContinue(user, 'not an address');
  await expectInvalidAddress(user);
  await expectPasskeyFirstPage(user);
  await shots(user, 'page1-bad-address-en');
  await clickPasskeyButton(user);
  expect(await expectSignedInAtApp(user)).toBe(subject);
});

test('"Use a phone or another device" asks with the hint hybrid', async () => {
  const { context, user } = holder;
  await context.clearCookies();
  await goToAppSignIn(user, app.url, projectName);
  await clickUsePhone(user);
  // The virtual authenticator is this device's (transport internal): Chromium answers with it all the same.
  expect(await expectSignedInAtApp(user)).toBe(subject);
  expect(holder.webauthn.requests.at(-1)).toEqual({ mediation: 'optional', hints: ['hybrid'] });
});

test('no passkey on this device: the page says what to do next, and the fallback is one click away', async ({ browser }) => {
  const { context, user } = await endUserBrowser(browser);
  await goToAppSignIn(user, app.url, projectName);
  await clickPasskeyButton(user);
  await expectNoPasskeyUsed(user);
  await expectAccessible(user);
  await shots(user, 'no-passkey-here-en');
  await context.close();
});

test('a browser without WebAuthn: the passkey buttons are hidden and the page says so', async ({ browser }) => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  });
  const user = await context.newPage();
  await goToAppSignIn(user, app.url, projectName);
  await expectNoWebAuthn(user);
  await expectAccessible(user);
  await shots(user, 'no-webauthn-en');
  await context.close();
});

test('a blocked user is refused after their passkey, with a page that says so', async () => {
  const { context, user } = holder;
  await callApiOk(admin, api.blockEndUser, { params: { project: projectId, user: subject }, body: {} });
  await context.clearCookies();
  await goToAppSignIn(user, app.url, projectName);
  await clickPasskeyButton(user);
  // The refusal is a page the script shows (the answer was posted by fetch).
  await expectSignInBlocked(user);
  await expectAccessible(user);
  await shots(user, 'blocked-en');
  await callApiOk(admin, api.unblockEndUser, { params: { project: projectId, user: subject }, body: {} });
});

test('a revoked passkey is refused, and the browser is told it is unknown (Signal API)', async () => {
  const { context, user, device, webauthn } = holder;
  const [passkeyId] = await device.passkeyIds();
  await revokeDeviceThroughApi(admin, projectId, passkeyId as string);
  await context.clearCookies();
  const signalsBefore = webauthn.signals.length;
  await goToAppSignIn(user, app.url, projectName);
  await clickPasskeyButton(user);
  await expectRevokedWithFallback(user);
  await user.waitForLoadState('load');
  // The refusal is a page: the script posted the answer by fetch (the browser has the Signal API) and shows it.
  await expect
    .poll(() => webauthn.signals.slice(signalsBefore))
    .toEqual([{ name: 'signalUnknownCredential', options: { rpId: `${projectId}.localhost`, credentialId: passkeyId } }]);
  // Chromium's virtual authenticator forgets it (the signal reached the authenticator).
  await expect.poll(() => device.passkeyIds()).toEqual([]);
  await expectAccessible(user);
  await shots(user, 'revoked-en');
});

test("a project moved to a custom domain: its users' passkeys still work there (Related Origin Requests)", async ({ browser: _shared }, testInfo) => {
  // Chromium reads https://{rpID}/.well-known/webauthn (port 443, TLS) before it lets the custom
  // origin use the own host's rpID: a TLS proxy on 443 answers for *.localhost with the server's
  // answer, and a browser of its own maps *.test to loopback and treats the custom origin (plain
  // http here) as secure.
  // The custom domain served over https by the same proxy (what an operator's TLS front does): a secure context.
  const custom = `https://signin-${projectId}.test`;
  const proxy = await startTlsProxy(Number(new URL(server.url).port), new URL(custom).hostname).catch((error: unknown) => error as Error);
  test.skip(proxy instanceof Error, `Related Origin Requests need https on port 443: ${proxy instanceof Error ? proxy.message : ''}`);
  if (proxy instanceof Error) return;
  const port = new URL(server.url).port;
  const launchOptions = testInfo.project.use.launchOptions ?? {};
  const own = await chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), '--host-resolver-rules=MAP *.test 127.0.0.1', '--ignore-certificate-errors'],
  });
  try {
    const person = await endUserBrowser(own);
    person.webauthn.holdAutofill = false;
    const address = newEmail('moved');
    await goToAppSignIn(person.user, app.url, projectName);
    await fillIdentityAndContinue(person.user, address);
    await fillEmailedCodeAndSignIn(person.user, await readCode(address, 0, server.logFile));
    await clickCreatePasskey(person.user);
    const sub = await expectSignedInAtApp(person.user);

    // The project moves to its custom domain; the app finds its issuer there.
    const project = await callApiOk(admin, api.getProject, { params: { project: projectId } });
    await callApiOk(admin, api.updateProject, { params: { project: projectId }, body: { ...project, customDomain: custom } });
    const keys = await createAppWithKeysThroughApi(admin, projectId, [app.redirectUri]);
    app.useClient({ issuer: custom, clientId: keys.clientId, clientSecret: keys.clientSecret });
    expect(await (await fetch(`http://${projectId}.localhost:${port}/.well-known/webauthn`)).json()).toEqual({
      origins: [`http://${projectId}.localhost:${port}`, custom],
    });

    await person.context.clearCookies();
    // The test app exchanges the code at the custom domain, through the proxy.
    const before = person.webauthn.requests.length;
    await person.user.goto(app.url);
    // The autofill request at the custom origin, for the own host's rpID, answered by the same passkey.
    const signedIn = await expectSignedInAtApp(person.user).catch(async (error: unknown) => {
      const dir = process.env.SHOTS_R2;
      if (dir) await person.user.screenshot({ path: join(dir, 'related-origins-failed.png'), fullPage: true });
      throw new Error(
        `at ${person.user.url()}; requests ${JSON.stringify(person.webauthn.requests.slice(before))}; proxy served ${JSON.stringify(proxy.served)}`,
        {
          cause: error,
        },
      );
    });
    expect(signedIn).toBe(sub);
    expect(person.webauthn.requests.slice(before)).toEqual([{ mediation: 'conditional', hints: [] }]);
    expect(proxy.served).toContain('/.well-known/webauthn');
    expect(countCodesSentTo(address, server.logFile)).toBe(1);
  } finally {
    // Back on the own host for the scenarios after this one (the suite's browser does not resolve *.test).
    const project = await callApiOk(admin, api.getProject, { params: { project: projectId } });
    await callApiOk(admin, api.updateProject, { params: { project: projectId }, body: { ...project, customDomain: '' } });
    app.useClient(ownHostClient);
    await own.close();
    await proxy.close();
  }
});

test('a custom domain in a browser without Related Origin Requests: a passkey made there for the domain itself signs in there', async ({
  browser: _shared,
}, testInfo) => {
  // docs/decisions/0049. The custom domain over https by the TLS proxy, as in the scenario above
  // (Chromium's --unsafely-treat-insecure-origin-as-secure did not give this browser WebAuthn at a
  // plain-http origin); a browser of its own maps *.test to loopback. Its getClientCapabilities is
  // patched to lack relatedOrigins (this Chromium has them), as a browser without them answers.
  const custom = `https://signin-${projectId}.test`;
  const proxy = await startTlsProxy(Number(new URL(server.url).port), new URL(custom).hostname).catch((error: unknown) => error as Error);
  test.skip(proxy instanceof Error, `the custom domain is served over https on port 443: ${proxy instanceof Error ? proxy.message : ''}`);
  if (proxy instanceof Error) return;
  const launchOptions = testInfo.project.use.launchOptions ?? {};
  const own = await chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), '--host-resolver-rules=MAP *.test 127.0.0.1', '--ignore-certificate-errors'],
  });
  try {
    // The test app exchanges the code at the custom domain, through the proxy.
    const project = await callApiOk(admin, api.getProject, { params: { project: projectId } });
    await callApiOk(admin, api.updateProject, { params: { project: projectId }, body: { ...project, customDomain: custom } });
    const keys = await createAppWithKeysThroughApi(admin, projectId, [app.redirectUri]);
    app.useClient({ issuer: custom, clientId: keys.clientId, clientSecret: keys.clientSecret });

    const person = await endUserBrowser(own);
    await person.context.addInitScript(() => {
      const pkc = window.PublicKeyCredential as unknown as { getClientCapabilities?: () => Promise<Record<string, boolean>> } | undefined;
      const original = pkc?.getClientCapabilities?.bind(pkc);
      if (pkc && original)
        pkc.getClientCapabilities = async () => {
          const { relatedOrigins: _lacking, ...capabilities } = await original();
          return capabilities;
        };
    });
    person.webauthn.holdAutofill = false;
    const address = newEmail('no-related-origins');
    await goToAppSignIn(person.user, app.url, projectName);
    expect(new URL(person.user.url()).origin).toBe(custom);
    await fillIdentityAndContinue(person.user, address);
    await fillEmailedCodeAndSignIn(person.user, await readCode(address, 0, server.logFile));
    await expectPasskeyOffer(person.user);
    await clickCreatePasskey(person.user);
    const sub = await expectSignedInAtApp(person.user);
    // Made for the custom domain's own rpID, not the own host's.
    expect(await person.device.passkeyRpIds()).toEqual([`signin-${projectId}.test`]);

    await person.context.clearCookies();
    const before = person.webauthn.requests.length;
    await person.user.goto(app.url);
    // The autofill request at the custom domain for its own rpID, answered by that passkey: no code mailed.
    expect(await expectSignedInAtApp(person.user)).toBe(sub);
    expect(person.webauthn.requests.slice(before)).toEqual([{ mediation: 'conditional', hints: [] }]);
    expect(countCodesSentTo(address, server.logFile)).toBe(1);
    // The sign-in never needed the own host's related-origins file (after it, the Signal API's
    // accepted credentials of the own host's rpID make this Chromium, which has them, read it).
    const answered = proxy.served.findIndex((path) => path.endsWith('/passkey/discover'));
    expect(answered).toBeGreaterThan(-1);
    expect(proxy.served.slice(0, answered)).not.toContain('/.well-known/webauthn');
  } finally {
    const project = await callApiOk(admin, api.getProject, { params: { project: projectId } });
    await callApiOk(admin, api.updateProject, { params: { project: projectId }, body: { ...project, customDomain: '' } });
    app.useClient(ownHostClient);
    await own.close();
    await proxy.close();
  }
});

test('page 1 in French and Romanian, and a closed project', async ({ browser }) => {
  for (const language of ['fr', 'ro'] as const) {
    const { context, user } = await endUserBrowser(browser, { locale: language });
    await user.goto(app.url);
    await expectPasskeyFirstPage(user, language);
    await expectAccessible(user);
    await shots(user, `page1-${language}`);
    await clickPasskeyButton(user, language);
    await expectNoPasskeyUsed(user, language);
    await shots(user, `no-passkey-here-${language}`);
    await context.close();
  }
  await closeProjectThroughApi(admin, projectId);
  const context = await browser.newContext();
  const user = await context.newPage();
  await user.goto(app.url);
  await expectProjectClosed(user);
  await shots(user, 'closed-project-en');
  await context.close();
});
