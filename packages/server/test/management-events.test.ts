import { describe, expect, it } from 'vitest';
import { appsApi, devicesApi, projectsApi, REVOCATION_REASON, type ApplicationKeys, type Issuer, type Project } from '@latchkey/domain';
import { changesBetween, SECRET_CHANGED } from '../src/modules/audit/changes.ts';
import { userIdForEmail } from '../src/people/end-users.repository.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, REDIRECT, serviceAccountKey, storeDevice } from './support/fixtures.ts';

/** A public address the GeoIP database places in Great Britain, sent as a proxy would (the test app trusts loopback). */
const CLIENT_IP = '81.2.69.160';
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) ManagementEventsTest/1.0';
const FROM = { headers: { 'x-forwarded-for': CLIENT_IP, 'user-agent': USER_AGENT } };

interface ConsoleEvent {
  user_id: string | null;
  device_name: string | null;
  scope: string;
  event_status: string;
  ip: string | null;
  country: string | null;
  user_agent: string | null;
  client_id: string | null;
  details: { action: string; accountId: string; via: string; changes?: Record<string, unknown> } & Record<string, unknown>;
  text: string;
}

// docs/decisions/0014 "Management actions": every console/API write is an event of scope `console`
// with who (account), from where (ip, country, user agent) and what changed (never a secret).
describeWithDatabase('management actions in the audit log', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '100' } });

  async function eventsOf(projectId: string): Promise<ConsoleEvent[]> {
    const { rows } = await t.db.query<ConsoleEvent>(
      `SELECT user_id, device_name, scope, event_status, ip, country, user_agent, client_id, details, details::text AS text
         FROM audit_events WHERE project_id = $1 ORDER BY created_at, id`,
      [projectId],
    );
    return rows;
  }
  const lastEventOf = async (projectId: string): Promise<ConsoleEvent> => (await eventsOf(projectId)).at(-1) as ConsoleEvent;

  /** Who did it and from where: the acting account and the request's address, country and user agent. */
  function expectFrom(event: ConsoleEvent, by: SignedIn, action: string, result: string): void {
    expect(event).toMatchObject({
      scope: 'console',
      event_status: result,
      user_id: by.account.email,
      device_name: null,
      ip: CLIENT_IP,
      country: 'GB',
      user_agent: USER_AGENT,
      client_id: null,
    });
    expect(event.details).toMatchObject({ action, accountId: by.account.id, via: 'session' });
  }

  async function newProject(by: SignedIn): Promise<string> {
    const res = await by.api.post<{ id: string }>(apiPath(projectsApi.createProject), { name: 'Acme', pinLength: 6, email: by.account.email }, FROM);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  }

  async function project(by: SignedIn, id: string): Promise<Project> {
    return (await by.api.get<Project>(apiPath(projectsApi.getProject, { project: id }))).body;
  }

  async function newApp(by: SignedIn, projectId: string): Promise<string> {
    const res = await by.api.post<{ id: string }>(
      apiPath(appsApi.createApp),
      { platformCode: 'oidc', name: 'Web portal', url: 'https://app.example.com', projectId },
      FROM,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  }

  describe('projects', () => {
    it('records a created project: the fields it was created with and the permission granted', async () => {
      const admin = await signedInAccount(app, t.db);
      const id = await newProject(admin);
      const events = await eventsOf(id);
      expect(events).toHaveLength(1);
      const [created] = events as [ConsoleEvent];
      expectFrom(created, admin, 'project.create', 'created');
      expect(created.details.changes).toEqual({
        name: { before: null, after: 'Acme' },
        pinLength: { before: null, after: 6 },
        email: { before: null, after: admin.account.email },
      });
      expect(created.details.granted).toEqual([`cst:${id}:*`]);
    });

    it('records a settings update as before/after of exactly the changed fields, nested ones as dotted paths', async () => {
      const admin = await signedInAccount(app, t.db);
      const id = await newProject(admin);
      const current = await project(admin, id);
      expect(current.loginOptions.primary).toBe('mobileLogin');
      const res = await admin.api.put<Project>(
        apiPath(projectsApi.updateProject, { project: id }),
        {
          ...current,
          displayName: 'Acme Sign-in',
          loginOptions: { ...current.loginOptions, primary: 'browserLogin' },
          allowedCORSDomains: ['https://a.example.com'],
          // customText is cleared for any method but Custom (spec §4): sent, not stored, not a change.
          verificationOptions: { ...current.verificationOptions, customText: 'Hello', identityTypeLabel: 'Member number' },
        },
        FROM,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const event = await lastEventOf(id);
      expectFrom(event, admin, 'project.update', 'success');
      expect(event.details.changes).toEqual({
        displayName: { before: '', after: 'Acme Sign-in' },
        'loginOptions.primary': { before: 'mobileLogin', after: 'browserLogin' },
        allowedCORSDomains: { before: [], after: ['https://a.example.com'] },
        'verificationOptions.identityTypeLabel': { before: '', after: 'Member number' },
      });
      expect(event.details.version).toBe(Number(String(res.headers.etag).replaceAll('"', '')));
    });

    it('shows a push service-account key as "(changed)", never its value, and only when a new key is written', async () => {
      const admin = await signedInAccount(app, t.db);
      const id = await newProject(admin);
      const current = await project(admin, id);
      const key = serviceAccountKey('fb-1', 'one');
      const put = (pushOptions: Project['pushOptions']) =>
        admin.api.put<Project>(apiPath(projectsApi.updateProject, { project: id }), { ...current, pushOptions }, FROM);
      const platform = { name: 'firebase' as const, projectId: 'fb-1', config: key };

      expect((await put({ ...current.pushOptions, projectId: 'fb-1', platforms: [platform] })).status).toBe(200);
      let event = await lastEventOf(id);
      expect(event.details.changes).toEqual({
        'pushOptions.projectId': { before: '', after: 'fb-1' },
        'pushOptions.platforms.0.name': { before: null, after: 'firebase' },
        'pushOptions.platforms.0.projectId': { before: null, after: 'fb-1' },
        'pushOptions.platforms.0.config': SECRET_CHANGED,
      });

      // An empty key keeps the stored one: no change of the key is recorded.
      expect((await put({ ...current.pushOptions, projectId: 'fb-1', platforms: [{ ...platform, projectId: 'fb-2', config: '' }] })).status).toBe(
        200,
      );
      event = await lastEventOf(id);
      expect(event.details.changes).toEqual({ 'pushOptions.platforms.0.projectId': { before: 'fb-1', after: 'fb-2' } });

      const newKey = serviceAccountKey('fb-1', 'two');
      expect((await put({ ...current.pushOptions, projectId: 'fb-1', platforms: [{ ...platform, projectId: 'fb-2', config: newKey }] })).status).toBe(
        200,
      );
      event = await lastEventOf(id);
      expect(event.details.changes).toEqual({ 'pushOptions.platforms.0.config': SECRET_CHANGED });

      // Removing the platform names its fields going, the key still only as "(changed)".
      expect((await put({ ...current.pushOptions, projectId: 'fb-1', platforms: [] })).status).toBe(200);
      event = await lastEventOf(id);
      expect(event.details.changes).toEqual({
        'pushOptions.platforms.0.name': { before: 'firebase', after: null },
        'pushOptions.platforms.0.projectId': { before: 'fb-2', after: null },
        'pushOptions.platforms.0.config': SECRET_CHANGED,
      });

      const all = await eventsOf(id);
      expect(
        all.some((e) => e.text.includes('PRIVATE KEY') || e.text.includes('key-one') || e.text.includes('key-two') || e.text.includes('private_key')),
      ).toBe(false);
    });

    it('records closing and reopening with the fields they change (enabled, the billing fields cleared)', async () => {
      const admin = await signedInAccount(app, t.db);
      const global = await signedInAccount(app, t.db, ['glb::projects']);
      const id = await newProject(admin);
      const current = await project(admin, id);
      expect((await global.api.put(apiPath(projectsApi.updateProject, { project: id }), { ...current, purchaseOrder: 'PO-7' }, FROM)).status).toBe(
        200,
      );
      expect((await lastEventOf(id)).details.changes).toEqual({ purchaseOrder: { before: '', after: 'PO-7' } });

      expect((await admin.api.put(apiPath(projectsApi.updateProjectMeta, { project: id }), { enabled: false }, FROM)).status).toBe(200);
      const closed = await lastEventOf(id);
      expectFrom(closed, admin, 'project.close', 'disabled');
      expect(closed.details.changes).toEqual({ enabled: { before: true, after: false }, purchaseOrder: { before: 'PO-7', after: '' } });

      const reopen = await global.api.put(
        apiPath(projectsApi.updateProjectMeta, { project: id }),
        { enabled: true, purchaseOrder: 'PO-8', referrer: 'partner' },
        FROM,
      );
      expect(reopen.status).toBe(200);
      const reopened = await lastEventOf(id);
      expectFrom(reopened, global, 'project.reopen', 'success');
      expect(reopened.details.changes).toEqual({
        enabled: { before: false, after: true },
        purchaseOrder: { before: '', after: 'PO-8' },
        referrer: { before: '', after: 'partner' },
      });
    });

    it('records an issuer update with the changed settings, not the read-only address', async () => {
      const admin = await signedInAccount(app, t.db);
      const id = await newProject(admin);
      const path = apiPath(projectsApi.updateIssuer, { project: id });
      const current = (await admin.api.get<Issuer>(path)).body;
      const res = await admin.api.put<Issuer>(
        path,
        { ...current, id_token_signing_alg: 'ES256', code_challenge_methods: ['S256', 'plain'], address: 'https://elsewhere.example.com' },
        FROM,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const event = await lastEventOf(id);
      expectFrom(event, admin, 'issuer.update', 'success');
      expect(event.details.changes).toEqual({
        id_token_signing_alg: { before: 'RS256', after: 'ES256' },
        code_challenge_methods: { before: ['S256'], after: ['S256', 'plain'] },
      });
    });
  });

  describe('applications and keys', () => {
    it('records creating, renaming, disabling and enabling an application with what changed', async () => {
      const admin = await signedInAccount(app, t.db);
      const id = await newProject(admin);
      const appId = await newApp(admin, id);
      const created = await lastEventOf(id);
      expectFrom(created, admin, 'app.create', 'created');
      expect(created.details).toMatchObject({ applicationId: appId });
      expect(created.details.changes).toEqual({
        name: { before: null, after: 'Web portal' },
        platformCode: { before: null, after: 'oidc' },
        applicationType: { before: null, after: 'web' },
        url: { before: null, after: 'https://app.example.com' },
      });

      const path = apiPath(appsApi.updateApp, { application: appId });
      const steps: Array<[{ name: string; logoUrl: string; enabled: boolean }, string, string, Record<string, unknown>]> = [
        [
          { name: 'Portal', logoUrl: 'https://cdn.example.com/logo.png', enabled: true },
          'app.update',
          'success',
          { name: { before: 'Web portal', after: 'Portal' }, logoUrl: { before: '', after: 'https://cdn.example.com/logo.png' } },
        ],
        [
          { name: 'Portal', logoUrl: 'https://cdn.example.com/logo.png', enabled: false },
          'app.disable',
          'disabled',
          { enabled: { before: true, after: false } },
        ],
        [
          { name: 'Portal', logoUrl: 'https://cdn.example.com/logo.png', enabled: true },
          'app.enable',
          'success',
          { enabled: { before: false, after: true } },
        ],
      ];
      for (const [body, action, result, changes] of steps) {
        const res = await admin.api.put(path, body, FROM);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const event = await lastEventOf(id);
        expectFrom(event, admin, action, result);
        expect(event.details.changes).toEqual(changes);
      }
    });

    it('records keys created, redirect URIs replaced and new keys generated; the client secret only as "(changed)"', async () => {
      const admin = await signedInAccount(app, t.db);
      const id = await newProject(admin);
      const appId = await newApp(admin, id);
      const keysPath = apiPath(appsApi.createAppKeys, { application: appId });

      const created = await admin.api.post<ApplicationKeys>(keysPath, { redirectURI: [REDIRECT] }, FROM);
      expect(created.status).toBe(201);
      let event = await lastEventOf(id);
      expectFrom(event, admin, 'app.keys.create', 'created');
      expect(event.details.changes).toEqual({
        clientId: { before: null, after: created.body.clientId },
        redirectURI: { before: null, after: [REDIRECT] },
        postLogoutRedirectURI: { before: null, after: [] },
        backchannelLogoutURI: { before: null, after: '' },
        clientSecret: SECRET_CHANGED,
      });

      const second = 'https://app.example.com/cb2';
      expect((await admin.api.put(apiPath(appsApi.updateAppKeys, { application: appId }), { redirectURI: [REDIRECT, second] }, FROM)).status).toBe(
        200,
      );
      event = await lastEventOf(id);
      expectFrom(event, admin, 'app.keys.update', 'success');
      expect(event.details.changes).toEqual({ redirectURI: { before: [REDIRECT], after: [REDIRECT, second] } });

      const logout = 'https://app.example.com/backchannel-logout';
      const body = { redirectURI: [REDIRECT, second], backchannelLogoutURI: logout };
      expect((await admin.api.put(apiPath(appsApi.updateAppKeys, { application: appId }), body, FROM)).status).toBe(200);
      expect((await lastEventOf(id)).details.changes).toEqual({ backchannelLogoutURI: { before: '', after: logout } });

      const generated = await admin.api.post<ApplicationKeys>(
        apiPath(appsApi.generateAppKeys, { application: appId }),
        { redirectURI: [REDIRECT, second] },
        FROM,
      );
      expect(generated.status).toBe(200);
      event = await lastEventOf(id);
      expectFrom(event, admin, 'app.keys.generate', 'success');
      expect(event.details.changes).toEqual({ clientSecret: SECRET_CHANGED });

      const texts = (await eventsOf(id)).map((e) => e.text);
      expect(texts.some((text) => text.includes(created.body.clientSecret) || text.includes(generated.body.clientSecret))).toBe(false);
    });
  });

  describe('device revocation', () => {
    it("names the device's owner and the device; the acting account, its address and what changed in the event", async () => {
      const admin = await signedInAccount(app, t.db);
      const id = await newProject(admin);
      const owner = uniqueEmail('end-user');
      const userId = await userIdForEmail(t.db, { projectId: id, email: owner, now: app.clock.now() });
      const mpinId = await storeDevice(t.db, { projectId: id, userId, createdAt: app.clock.now() });
      const res = await admin.api.post(apiPath(devicesApi.revokeDevice, { project: id, mpinId }), { reason: REVOCATION_REASON }, FROM);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const event = await lastEventOf(id);
      expect(event).toMatchObject({
        scope: 'console',
        event_status: 'success',
        // The owner by their person's id (docs/decisions/0046); the audit log shows their identity.
        user_id: userId,
        device_name: 'Chrome on Linux',
        ip: CLIENT_IP,
        country: 'GB',
        user_agent: USER_AGENT,
      });
      expect(event.details).toMatchObject({ action: 'device.revoke', accountId: admin.account.id, accountEmail: admin.account.email, mpinId });
      expect(event.details.changes).toEqual({ revoked: { before: false, after: true }, revokeReason: { before: null, after: REVOCATION_REASON } });

      // A second revocation changes nothing (409) and records nothing.
      const count = (await eventsOf(id)).length;
      const again = await admin.api.post(apiPath(devicesApi.revokeDevice, { project: id, mpinId }), { reason: REVOCATION_REASON }, FROM);
      expect(again.status).toBe(409);
      expect(await eventsOf(id)).toHaveLength(count);
    });
  });

  describe('who and where', () => {
    it("records the socket's address without a proxy header, and no user agent when none is sent", async () => {
      const admin = await signedInAccount(app, t.db);
      const res = await admin.api.post<{ id: string }>(
        apiPath(projectsApi.createProject),
        { name: 'Direct', pinLength: 4, email: 'x@example.test' },
        { headers: { 'user-agent': '' } },
      );
      expect(res.status).toBe(201);
      const [event] = (await eventsOf(res.body.id)) as [ConsoleEvent];
      expect(event).toMatchObject({ user_id: admin.account.email, ip: '127.0.0.1', country: 'ZZ', user_agent: null });
    });

    it('keeps at most 512 characters of a user agent', async () => {
      const admin = await signedInAccount(app, t.db);
      const res = await admin.api.post<{ id: string }>(
        apiPath(projectsApi.createProject),
        { name: 'Long agent', pinLength: 4, email: admin.account.email },
        { headers: { 'x-forwarded-for': '2a02:c7c:1234::1', 'user-agent': 'A'.repeat(2000) } },
      );
      expect(res.status).toBe(201);
      const [event] = (await eventsOf(res.body.id)) as [ConsoleEvent];
      expect(event.user_agent).toBe('A'.repeat(512));
      expect(event.ip).toBe('2a02:c7c:1234::1');
      expect(event.country).toMatch(/^[A-Z]{2}$/);
      expect(event.country).not.toBe('ZZ');
    });
  });

  describe('refused writes record nothing', () => {
    it('403, 404, 400, 412, 409 and a closed project leave the log as it was', async () => {
      const admin = await signedInAccount(app, t.db);
      const id = await newProject(admin);
      const appId = await newApp(admin, id);
      const appsOnly = await signedInAccount(app, t.db, [`cst:${id}:apps`]);
      const outsider = await signedInAccount(app, t.db);
      const current = await project(admin, id);
      const before = await eventsOf(id);
      const settingsPath = apiPath(projectsApi.updateProject, { project: id });

      const refusals: Array<[number, () => Promise<{ status: number }>]> = [
        [403, () => appsOnly.api.put(settingsPath, { ...current, displayName: 'Nope' }, FROM)],
        [404, () => outsider.api.put(settingsPath, { ...current, displayName: 'Nope' }, FROM)],
        [400, () => admin.api.put(settingsPath, { ...current, name: '' }, FROM)],
        [412, () => admin.api.put(settingsPath, { ...current, displayName: 'Stale' }, { headers: { ...FROM.headers, 'if-match': '"999"' } })],
        [403, () => admin.api.put(settingsPath, { ...current, customDomain: 'https://auth.acme.example' }, FROM)],
        [404, () => admin.api.post(apiPath(appsApi.generateAppKeys, { application: appId }), { redirectURI: [REDIRECT] }, FROM)],
        [201, () => admin.api.post(apiPath(appsApi.createAppKeys, { application: appId }), { redirectURI: [REDIRECT] }, FROM)],
        [409, () => admin.api.post(apiPath(appsApi.createAppKeys, { application: appId }), { redirectURI: [REDIRECT] }, FROM)],
        [400, () => admin.api.post(apiPath(appsApi.createApp), { platformCode: 'oidc', name: '', url: '', projectId: id }, FROM)],
        [404, () => admin.api.post(apiPath(devicesApi.revokeDevice, { project: id, mpinId: 'no-such-device' }), { reason: REVOCATION_REASON }, FROM)],
      ];
      for (const [status, call] of refusals) expect((await call()).status).toBe(status);
      // The one write that went through (201, the keys) is the one new event.
      expect((await eventsOf(id)).map((e) => e.details.action)).toEqual([...before.map((e) => e.details.action), 'app.keys.create']);

      expect((await admin.api.put(apiPath(projectsApi.updateProjectMeta, { project: id }), { enabled: false }, FROM)).status).toBe(200);
      const closed = await eventsOf(id);
      expect(closed.at(-1)?.details.action).toBe('project.close');
      expect((await admin.api.put(settingsPath, { ...current, displayName: 'Closed' }, FROM)).status).toBe(409);
      expect((await admin.api.put(apiPath(appsApi.updateApp, { application: appId }), { name: 'X', logoUrl: '', enabled: false }, FROM)).status).toBe(
        409,
      );
      expect((await admin.api.put(apiPath(projectsApi.updateProjectMeta, { project: id }), { enabled: false }, FROM)).status).toBe(409);
      expect(await eventsOf(id)).toEqual(closed);
    });
  });
});

// The rule itself, as a table (docs/decisions/0014 "Management actions").
describe('changesBetween', () => {
  it.each([
    ['equal documents', { a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'x' } }, [], {}],
    ['a top-level value', { a: 1, b: 2 }, { a: 1, b: 3 }, [], { b: { before: 2, after: 3 } }],
    ['a nested value as a dotted path', { o: { p: 'x', q: true } }, { o: { p: 'y', q: true } }, [], { 'o.p': { before: 'x', after: 'y' } }],
    ['a list of values, whole', { l: ['a'] }, { l: ['a', 'b'] }, [], { l: { before: ['a'], after: ['a', 'b'] } }],
    [
      'a list of objects, by position',
      { l: [{ n: 1 }] },
      { l: [{ n: 2 }, { n: 3 }] },
      [],
      { 'l.0.n': { before: 1, after: 2 }, 'l.1.n': { before: null, after: 3 } },
    ],
    ['a field added and one gone', { a: 1 }, { b: 2 }, [], { a: { before: 1, after: null }, b: { before: null, after: 2 } }],
    ['a secret, changed', { s: 'old', t: 1 }, { s: 'new', t: 1 }, ['s'], { s: SECRET_CHANGED }],
    ['a secret, unchanged', { s: 'same' }, { s: 'same' }, ['s'], {}],
    ['a secret in a list of objects', { l: [{ k: 'a', n: 1 }] }, { l: [{ k: 'b', n: 1 }] }, ['l.*.k'], { 'l.0.k': SECRET_CHANGED }],
  ])('%s', (_label, before, after, secrets, expected) => {
    expect(changesBetween(before, after, secrets)).toEqual(expected);
  });

  it('answers every field of what was created, before null, a secret as "(changed)"', () => {
    expect(changesBetween(null, { name: 'A', o: { p: 1 }, s: 'key' }, ['s'])).toEqual({
      name: { before: null, after: 'A' },
      'o.p': { before: null, after: 1 },
      s: SECRET_CHANGED,
    });
  });
});
