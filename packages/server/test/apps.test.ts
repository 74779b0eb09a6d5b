import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Application, ApplicationKeys } from '@latchkey/domain';
import { anonymous, signedInAccount, type ApiResponse, type SignedIn, useTestApp } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { closeProject, createApp, createKeys, createProject, getApp, REDIRECT, setEnabled } from './support/fixtures.ts';

interface ErrorAnswer {
  error: string;
  message: string;
  issues?: Array<{ field: string; code: string; message: string }>;
}
interface AppList {
  total: number;
  list: Application[];
}

describeEachDatabase('applications', (t) => {
  const app = useTestApp(t);

  const verify = (clientId: string, secret: string) => app.services.apps.verifyClientCredentials(clientId, secret);
  const redirectAllowed = (clientId: string, uri: string) => app.services.apps.isRedirectUriAllowed(clientId, uri);

  /** A project made by its administrator (cst:{p}:*), with an apps manager, a usage viewer and an outsider. */
  async function projectWithPeople() {
    const admin = await signedInAccount(app, t.db);
    const id = await createProject(admin);
    const manager = await signedInAccount(app, t.db, [`cst:${id}:apps`]);
    const viewer = await signedInAccount(app, t.db, [`cst:${id}:usage`]);
    // Manages the apps of another project: this one must not even exist for them.
    const otherAdmin = await signedInAccount(app, t.db);
    const otherProject = await createProject(otherAdmin);
    const outsider = await signedInAccount(app, t.db, [`cst:${otherProject}:apps`]);
    return { id, admin, manager, viewer, outsider, otherAdmin, otherProject };
  }

  async function appsOfProject(projectId: string): Promise<Array<{ id: string; name: string; enabled: boolean; logo_url: string; version: number }>> {
    const { rows } = await t.db.query<{ id: string; name: string; enabled: boolean; logo_url: string; version: number }>(
      'SELECT id, name, enabled, logo_url, version FROM applications WHERE project_id = $1 ORDER BY id',
      [projectId],
    );
    return rows;
  }

  async function keysRow(appId: string): Promise<{ client_id: string; client_secret_hash: string; redirect_uris: string[] } | null> {
    const { rows } = await t.db.query<{ client_id: string; client_secret_hash: string; redirect_uris: string[] }>(
      'SELECT client_id, client_secret_hash, redirect_uris FROM application_keys WHERE application_id = $1',
      [appId],
    );
    return rows[0] ?? null;
  }

  async function auditOf(projectId: string): Promise<Array<{ event_status: string; details: Record<string, unknown>; text: string }>> {
    const { rows } = await t.db.query<{ event_status: string; details: Record<string, unknown>; text: string }>(
      'SELECT event_status, details, details::text AS text FROM audit_events WHERE project_id = $1 ORDER BY id',
      [projectId],
    );
    return rows;
  }

  /** Every call of spec §7 "Applications" against one project and one of its applications. */
  function everyCall(projectId: string, appId: string): Array<[string, (by: SignedIn) => Promise<ApiResponse>]> {
    const update = { name: 'Renamed', logoUrl: '', enabled: true };
    return [
      ['GET projects/{project}/apps', (by) => by.api.get(`/api/projects/${projectId}/apps`)],
      ['POST apps', (by) => by.api.post('/api/apps', { platformCode: 'oidc', name: 'Sneaky', url: '', projectId })],
      ['GET apps/{application}', (by) => by.api.get(`/api/apps/${appId}`)],
      ['PUT apps/{application}', (by) => by.api.put(`/api/apps/${appId}`, update)],
      ['POST {keysEndpoint}', (by) => by.api.post(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] })],
      ['GET {keysEndpoint}', (by) => by.api.get(`/api/apps/${appId}/keys`)],
      ['PUT {keysEndpoint}', (by) => by.api.put(`/api/apps/${appId}/keys`, { redirectURI: ['https://evil.example/cb'] })],
      ['POST {generateNewKeysEndpoint}', (by) => by.api.post(`/api/apps/${appId}/keys/generate`, { redirectURI: [REDIRECT] })],
    ];
  }

  describe('permissions', () => {
    const holders: Array<[string, (project: string) => string]> = [
      ['cst:{p}:apps', (p) => `cst:${p}:apps`],
      ['cst:{p}:*', (p) => `cst:${p}:*`],
      ['glb::apps', () => 'glb::apps'],
      ['glb::*', () => 'glb::*'],
    ];
    it.each(holders)('lets an account holding %s make every call', async (_label, permission) => {
      const { id, admin } = await projectWithPeople();
      const me = await signedInAccount(app, t.db, [permission(id)]);

      const created = await me.api.post<{ id: string; projectId: string; keysEndpoint: string }>('/api/apps', {
        platformCode: 'oidc',
        name: 'Mine',
        url: '',
        projectId: id,
      });
      expect(created.status).toBe(201);
      const appId = created.body.id;
      expect(created.body).toEqual({ id: appId, projectId: id, keysEndpoint: `apps/${appId}/keys` });

      const list = await me.api.get<AppList>(`/api/projects/${id}/apps`);
      expect(list.status).toBe(200);
      expect(list.body.list.map((a) => a.id)).toEqual([appId]);
      expect((await me.api.get(`/api/apps/${appId}`)).status).toBe(200);
      expect((await me.api.put(`/api/apps/${appId}`, { name: 'Mine too', logoUrl: '', enabled: true })).status).toBe(200);
      expect((await me.api.post(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] })).status).toBe(201);
      expect((await me.api.get(`/api/apps/${appId}/keys`)).status).toBe(200);
      expect((await me.api.put(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] })).status).toBe(200);
      expect((await me.api.post(`/api/apps/${appId}/keys/generate`, { redirectURI: [REDIRECT] })).status).toBe(200);
      // The project's own administrator sees it too.
      expect((await admin.api.get(`/api/apps/${appId}`)).status).toBe(200);
    });

    it('answers 403 to a member holding only cst:{p}:usage, for every call, and changes nothing', async () => {
      const { id, admin, viewer } = await projectWithPeople();
      const appId = await createApp(admin, id);
      const keys = await createKeys(admin, appId);
      for (const [call, run] of everyCall(id, appId)) {
        const res = await run(viewer);
        expect(res.status, call).toBe(403);
        expect((res.body as ErrorAnswer).error, call).toBe('forbidden');
      }
      expect((await appsOfProject(id)).map((a) => a.name)).toEqual(['Web portal']);
      expect((await keysRow(appId))?.redirect_uris).toEqual([REDIRECT]);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(true);
    });

    it("answers 404 about another project's apps, exactly as about ones that do not exist", async () => {
      const { id, admin, outsider } = await projectWithPeople();
      const appId = await createApp(admin, id);
      const keys = await createKeys(admin, appId);
      for (const [call, run] of everyCall(id, appId)) {
        const res = await run(outsider);
        expect(res.status, call).toBe(404);
        expect(res.body, call).toEqual({ error: 'not_found', message: 'Not found' });
      }
      for (const [call, run] of everyCall('no-such-project', 'no-such-app')) {
        const res = await run(outsider);
        expect(res.status, call).toBe(404);
        expect(res.body, call).toEqual({ error: 'not_found', message: 'Not found' });
      }
      // Even a global account finds no application that does not exist.
      const global = await signedInAccount(app, t.db, ['glb::*']);
      expect((await global.api.get('/api/apps/no-such-app')).status).toBe(404);
      expect((await global.api.post('/api/apps', { name: 'X', projectId: 'no-such-project' })).status).toBe(404);

      expect((await appsOfProject(id)).map((a) => a.name)).toEqual(['Web portal']);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(true);
      expect((await keysRow(appId))?.redirect_uris).toEqual([REDIRECT]);
    });

    it('answers 404 to an outsider even when the body is invalid (nothing about the project leaks)', async () => {
      const { id, admin, outsider } = await projectWithPeople();
      const appId = await createApp(admin, id);
      expect((await outsider.api.post('/api/apps', { name: '', projectId: id })).status).toBe(404);
      expect((await outsider.api.put(`/api/apps/${appId}`, { name: '' })).status).toBe(404);
      expect((await outsider.api.post(`/api/apps/${appId}/keys`, { redirectURI: [] })).status).toBe(404);
      // Without a project id there is nothing to hide: the body is simply invalid.
      const noProject = await outsider.api.post<ErrorAnswer>('/api/apps', { name: 'X' });
      expect(noProject.status).toBe(400);
      expect(noProject.body.issues).toContainEqual(expect.objectContaining({ field: 'projectId', message: 'Required' }));
    });

    it('does not let an apps manager of one project create an app in another by naming it in the body', async () => {
      const { id, manager, otherProject, otherAdmin } = await projectWithPeople();
      const res = await manager.api.post('/api/apps', { platformCode: 'oidc', name: 'Planted', url: '', projectId: otherProject });
      expect(res.status).toBe(404);
      expect(await appsOfProject(otherProject)).toEqual([]);
      expect((await otherAdmin.api.get<AppList>(`/api/projects/${otherProject}/apps`)).body.total).toBe(0);
      // …while in its own project it works.
      expect(await createApp(manager, id)).toMatch(/^[a-z2-7]{16}$/);
    });

    it('needs a session (401) and the XSRF header on every write (403 xsrf_failed, nothing stored)', async () => {
      const { id, admin, manager } = await projectWithPeople();
      const appId = await createApp(admin, id);
      const keys = await createKeys(admin, appId);
      for (const [call, run] of everyCall(id, appId)) {
        const res = await run({ ...manager, api: anonymous(app) });
        expect(res.status, call).toBe(401);
      }
      const writes: Array<[string, (xsrf: false | string) => Promise<ApiResponse>]> = [
        ['POST apps', (xsrf) => manager.api.post('/api/apps', { name: 'Forged', projectId: id }, { xsrf })],
        ['PUT apps/{application}', (xsrf) => manager.api.put(`/api/apps/${appId}`, { name: 'Forged', logoUrl: '', enabled: false }, { xsrf })],
        ['POST {keysEndpoint}', (xsrf) => manager.api.post(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] }, { xsrf })],
        ['PUT {keysEndpoint}', (xsrf) => manager.api.put(`/api/apps/${appId}/keys`, { redirectURI: ['https://evil.example/cb'] }, { xsrf })],
        ['POST {generateNewKeysEndpoint}', (xsrf) => manager.api.post(`/api/apps/${appId}/keys/generate`, { redirectURI: [REDIRECT] }, { xsrf })],
      ];
      for (const [call, run] of writes) {
        for (const xsrf of [false, 'not-the-token'] as const) {
          const res = await run(xsrf);
          expect(res.status, `${call} xsrf=${xsrf}`).toBe(403);
          expect((res.body as ErrorAnswer).error, call).toBe('xsrf_failed');
        }
      }
      expect(await appsOfProject(id)).toMatchObject([{ name: 'Web portal', enabled: true, version: 1 }]);
      expect((await keysRow(appId))?.redirect_uris).toEqual([REDIRECT]);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(true);
    });
  });

  describe('create and read', () => {
    it('creates an enabled OIDC application and answers its id, project and keys endpoint', async () => {
      const { id, manager } = await projectWithPeople();
      const res = await manager.api.post<{ id: string; projectId: string; keysEndpoint: string }>('/api/apps', {
        platformCode: 'oidc',
        name: '  Customer portal  ',
        url: ' https://portal.example.com ',
        projectId: id,
      });
      expect(res.status).toBe(201);
      const appId = res.body.id;
      expect(appId).toMatch(/^[a-z2-7]{16}$/);
      expect(res.body).toEqual({ id: appId, projectId: id, keysEndpoint: `apps/${appId}/keys` });

      const read = await manager.api.get<Application>(`/api/apps/${appId}`);
      expect(read.status).toBe(200);
      expect(read.headers.etag).toBe('"1"');
      expect(read.body).toEqual({
        id: appId,
        projectId: id,
        name: 'Customer portal',
        platformCode: 'oidc',
        // Issue 22: a web app unless chosen otherwise.
        applicationType: 'web',
        enabled: true,
        logoUrl: '',
        keysEndpoint: `apps/${appId}/keys`,
        generateNewKeysEndpoint: `apps/${appId}/keys/generate`,
      });
      const { rows } = await t.db.query<{ url: string }>('SELECT url FROM applications WHERE id = $1', [appId]);
      expect(rows[0]?.url).toBe('https://portal.example.com');

      const audit = await auditOf(id);
      expect(audit.at(-1)).toMatchObject({ event_status: 'created', details: { action: 'app.create', applicationId: appId } });
    });

    it('defaults platformCode to oidc and url to empty', async () => {
      const { id, manager } = await projectWithPeople();
      const res = await manager.api.post<{ id: string }>('/api/apps', { name: 'Minimal', projectId: id });
      expect(res.status).toBe(201);
      expect((await getApp(manager, res.body.id)).platformCode).toBe('oidc');
    });

    const bad: Array<[string, Record<string, unknown>, string, string]> = [
      ['an empty name', { name: '' }, 'name', 'Required'],
      ['a blank name', { name: '    ' }, 'name', 'Required'],
      ['a missing name', { name: undefined }, 'name', 'Required'],
      ['a 251-character name', { name: 'n'.repeat(251) }, 'name', 'Maximum input length exceeded'],
      ['an unknown platform', { platformCode: 'saml' }, 'platformCode', 'Invalid value'],
      ['a url that is not a URL', { url: 'portal.example.com' }, 'url', 'Invalid URL'],
      ['a missing project id', { projectId: undefined }, 'projectId', 'Required'],
      ['an empty project id', { projectId: '' }, 'projectId', 'Required'],
      ['an unknown application type', { applicationType: 'desktop' }, 'applicationType', 'Invalid value'],
    ];
    it.each(bad)('rejects %s with 400 and the spec message; nothing is stored', async (_what, change, field, message) => {
      const { id, manager } = await projectWithPeople();
      const res = await manager.api.post<ErrorAnswer>('/api/apps', { platformCode: 'oidc', name: 'Valid', url: '', projectId: id, ...change });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, message }));
      expect(await appsOfProject(id)).toEqual([]);
      expect((await auditOf(id)).map((a) => a.details.action)).toEqual(['project.create']);
    });

    it('accepts a name of exactly 250 characters', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id, 'a'.repeat(250));
      expect((await getApp(manager, appId)).name).toHaveLength(250);
    });
  });

  describe('update: rename, logo, disable, enable', () => {
    it('renames and sets the logo; each save bumps the ETag and is recorded', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const res = await manager.api.put<Application>(`/api/apps/${appId}`, {
        name: '  Renamed  ',
        logoUrl: 'https://cdn.example.com/logo.png',
        enabled: true,
      });
      expect(res.status).toBe(200);
      expect(res.headers.etag).toBe('"2"');
      expect(res.body).toMatchObject({ id: appId, name: 'Renamed', logoUrl: 'https://cdn.example.com/logo.png', enabled: true });
      expect(await getApp(manager, appId)).toEqual(res.body);
      expect((await auditOf(id)).at(-1)).toMatchObject({ event_status: 'success', details: { action: 'app.update', applicationId: appId } });
    });

    it('disables and enables (both saves); a disabled app takes no other change', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id, 'Toggle');
      const disabled = await manager.api.put<Application>(`/api/apps/${appId}`, { name: 'Toggle', logoUrl: '', enabled: false });
      expect(disabled.status).toBe(200);
      expect(disabled.body.enabled).toBe(false);
      expect((await auditOf(id)).at(-1)).toMatchObject({ event_status: 'disabled', details: { action: 'app.disable' } });

      // spec §4: save is disabled while the app is disabled.
      const rename = await manager.api.put<ErrorAnswer>(`/api/apps/${appId}`, { name: 'Sneaky rename', logoUrl: '', enabled: false });
      expect(rename.status).toBe(409);
      expect(rename.body).toMatchObject({ error: 'conflict' });
      expect(rename.body.message).toMatch(/disabled/);
      // Disabling again changes nothing and is answered as it is.
      const again = await manager.api.put<Application>(`/api/apps/${appId}`, { name: 'Toggle', logoUrl: '', enabled: false });
      expect(again.status).toBe(200);
      expect(again.headers.etag).toBe('"2"');
      expect(await appsOfProject(id)).toMatchObject([{ name: 'Toggle', enabled: false, version: 2 }]);

      const enabled = await manager.api.put<Application>(`/api/apps/${appId}`, { name: 'Toggle', logoUrl: '', enabled: true });
      expect(enabled.status).toBe(200);
      expect(enabled.body.enabled).toBe(true);
      expect((await auditOf(id)).at(-1)).toMatchObject({ event_status: 'success', details: { action: 'app.enable' } });
      const list = await manager.api.get<AppList>(`/api/projects/${id}/apps`);
      expect(list.body.list[0]?.enabled).toBe(true);
    });

    it('honours If-Match: a stale version is 412 conflict and changes nothing', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id, 'Versioned');
      const first = await manager.api.put(`/api/apps/${appId}`, { name: 'First', logoUrl: '', enabled: true }, { headers: { 'if-match': '"1"' } });
      expect(first.status).toBe(200);
      const stale = await manager.api.put(`/api/apps/${appId}`, { name: 'Second', logoUrl: '', enabled: true }, { headers: { 'if-match': '"1"' } });
      expect(stale.status).toBe(412);
      expect(stale.body).toMatchObject({ error: 'conflict' });
      expect((await getApp(manager, appId)).name).toBe('First');
    });

    const bad: Array<[string, Record<string, unknown>, string, string]> = [
      ['an empty name', { name: '' }, 'name', 'Required'],
      ['a 251-character name', { name: 'x'.repeat(251) }, 'name', 'Maximum input length exceeded'],
      ['a logo that is not a URL', { logoUrl: 'logo.png' }, 'logoUrl', 'Invalid URL'],
      ['a javascript: logo', { logoUrl: 'javascript:alert(1)' }, 'logoUrl', 'Invalid URL'],
      ['a missing enabled', { enabled: undefined }, 'enabled', 'Invalid value'],
      ['enabled as a string', { enabled: 'false' }, 'enabled', 'Invalid value'],
    ];
    it.each(bad)('rejects %s with 400 and the spec message; nothing is stored', async (_what, change, field, message) => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const before = await getApp(manager, appId);
      const res = await manager.api.put<ErrorAnswer>(`/api/apps/${appId}`, { name: 'Valid', logoUrl: '', enabled: false, ...change });
      expect(res.status).toBe(400);
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, message }));
      expect(await getApp(manager, appId)).toEqual(before);
      expect(await appsOfProject(id)).toMatchObject([{ version: 1 }]);
    });
  });

  describe('keys', () => {
    it('creates a client id and secret; the secret is answered once and stored only as a keyed hash', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id, 'Mobile app', 'native');
      const res = await manager.api.post<ApplicationKeys>(`/api/apps/${appId}/keys`, {
        redirectURI: [`  ${REDIRECT}  `, 'com.example.app:/oauth2redirect', 'HTTPS://Example.COM/Cb/'],
      });
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      const { clientId, clientSecret, redirectURI } = res.body;
      // 128 random bits for the id, 256 for the secret, both base64url.
      expect(clientId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Stored exactly as given, after the schema's trim: no normalisation of case or slash.
      expect(redirectURI).toEqual([REDIRECT, 'com.example.app:/oauth2redirect', 'HTTPS://Example.COM/Cb/']);

      const row = await keysRow(appId);
      // A keyed hash under the master key (docs/decisions/0028): not the secret, nor its plain SHA-256.
      expect(row).toEqual({ client_id: clientId, client_secret_hash: expect.stringMatching(/^k1:[A-Za-z0-9_-]{43}$/), redirect_uris: redirectURI });
      expect(row?.client_secret_hash).not.toContain(createHash('sha256').update(clientSecret).digest('hex'));
      expect(row?.client_secret_hash).toBe(`k1:${app.services.secretBox.hmac('client-secret', clientSecret)}`);
      const { rows } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM application_keys WHERE client_secret_hash = $1 OR client_id = $1 OR $1 = ANY (redirect_uris)`,
        [clientSecret],
      );
      expect(rows[0]?.n).toBe(0);

      const read = await manager.api.get<ApplicationKeys>(`/api/apps/${appId}/keys`);
      expect(read.status).toBe(200);
      // Issue 8: with the project's issuer address, everything a developer needs to connect.
      expect(read.body).toEqual({
        clientId,
        clientSecret: '',
        redirectURI,
        postLogoutRedirectURI: [],
        backchannelLogoutURI: '',
        issuer: `${app.config.publicUrl}/p/${id}`,
      });
      expect(res.body.issuer).toBe(`${app.config.publicUrl}/p/${id}`);

      const audit = await auditOf(id);
      expect(audit.at(-1)).toMatchObject({ event_status: 'created', details: { action: 'app.keys.create', clientId } });
      expect(audit.some((a) => a.text.includes(clientSecret))).toBe(false);
      expect(await verify(clientId, clientSecret)).toBe(true);
    });

    it('still accepts a secret stored as a plain SHA-256 before keyed hashes, and stores it keyed at its first use', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const res = await manager.api.post<ApplicationKeys>(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] });
      const { clientId, clientSecret } = res.body;
      const legacy = createHash('sha256').update(clientSecret).digest('hex');
      await t.db.query('UPDATE application_keys SET client_secret_hash = $2 WHERE client_id = $1', [clientId, legacy]);
      expect(await verify(clientId, 'not-the-secret')).toBe(false);
      expect((await keysRow(appId))?.client_secret_hash).toBe(legacy);
      expect(await verify(clientId, clientSecret)).toBe(true);
      expect((await keysRow(appId))?.client_secret_hash).toMatch(/^k1:/);
      expect(await verify(clientId, clientSecret)).toBe(true);
    });

    it('gives each application its own client id', async () => {
      const { id, manager } = await projectWithPeople();
      const ids = new Set<string>();
      for (let i = 0; i < 5; i += 1) ids.add((await createKeys(manager, await createApp(manager, id, `App ${i}`))).clientId);
      expect(ids.size).toBe(5);
    });

    it('answers 409 to a second POST of the keys and keeps the first secret', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const first = await createKeys(manager, appId);
      const second = await manager.api.post<ErrorAnswer>(`/api/apps/${appId}/keys`, { redirectURI: ['https://other.example/cb'] });
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ error: 'conflict' });
      expect(second.body.message).toMatch(/already has keys/);
      expect(await verify(first.clientId, first.clientSecret)).toBe(true);
      expect((await manager.api.get(`/api/apps/${appId}/keys`)).body).toEqual({ ...first, clientSecret: '' });
    });

    it('creates keys once even when two requests race (one 201, one 409)', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const results = await Promise.all([1, 2].map(() => manager.api.post<ApplicationKeys>(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      const winner = results.find((r) => r.status === 201)?.body as ApplicationKeys;
      expect(await verify(winner.clientId, winner.clientSecret)).toBe(true);
    });

    it('answers 404 to reading, replacing or regenerating keys that were never created', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      expect((await manager.api.get(`/api/apps/${appId}/keys`)).status).toBe(404);
      expect((await manager.api.put(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] })).status).toBe(404);
      expect((await manager.api.post(`/api/apps/${appId}/keys/generate`, { redirectURI: [REDIRECT] })).status).toBe(404);
      expect(await keysRow(appId)).toBeNull();
    });

    it('replaces the redirect URIs (PUT) without touching the secret, and never answers the secret', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const keys = await createKeys(manager, appId);
      const res = await manager.api.put<ApplicationKeys>(`/api/apps/${appId}/keys`, {
        redirectURI: ['https://app.example.com/new', 'http://localhost:3000/cb'],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        clientId: keys.clientId,
        clientSecret: '',
        redirectURI: ['https://app.example.com/new', 'http://localhost:3000/cb'],
        postLogoutRedirectURI: [],
        backchannelLogoutURI: '',
        issuer: `${app.config.publicUrl}/p/${id}`,
      });
      expect((await manager.api.get(`/api/apps/${appId}/keys`)).body).toEqual(res.body);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(true);
      expect(await redirectAllowed(keys.clientId, REDIRECT)).toBe(false);
      expect(await redirectAllowed(keys.clientId, 'http://localhost:3000/cb')).toBe(true);
      expect((await auditOf(id)).at(-1)?.details).toMatchObject({ action: 'app.keys.update' });
    });

    it('generates a new secret (same client id), answered once; the old one stops working at once', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const old = await createKeys(manager, appId);
      const res = await manager.api.post<ApplicationKeys>(`/api/apps/${appId}/keys/generate`, { redirectURI: old.redirectURI });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.clientId).toBe(old.clientId);
      expect(res.body.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(res.body.clientSecret).not.toBe(old.clientSecret);
      expect(res.body.redirectURI).toEqual(old.redirectURI);

      expect(await verify(old.clientId, res.body.clientSecret)).toBe(true);
      expect(await verify(old.clientId, old.clientSecret)).toBe(false);
      expect((await manager.api.get(`/api/apps/${appId}/keys`)).body).toEqual({ ...res.body, clientSecret: '' });
      const audit = await auditOf(id);
      expect(audit.at(-1)?.details).toMatchObject({ action: 'app.keys.generate', clientId: old.clientId });
      expect(audit.some((a) => a.text.includes(res.body.clientSecret) || a.text.includes(old.clientSecret))).toBe(false);
      const { rows } = await t.db.query<{ rotated_at: Date | null }>('SELECT rotated_at FROM application_keys WHERE application_id = $1', [appId]);
      expect(rows[0]?.rotated_at).toBeInstanceOf(Date);
    });

    it('sets the redirect URIs sent with generate new keys together with the new secret (spec §7)', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const old = await createKeys(manager, appId);
      const redirectURI = [REDIRECT, 'https://app.example.com/cb2'];
      const res = await manager.api.post<ApplicationKeys>(`/api/apps/${appId}/keys/generate`, { redirectURI });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.redirectURI).toEqual(redirectURI);
      expect((await keysRow(appId))?.redirect_uris).toEqual(redirectURI);
      expect(await verify(old.clientId, res.body.clientSecret)).toBe(true);
      expect(await redirectAllowed(old.clientId, 'https://app.example.com/cb2')).toBe(true);
      expect((await auditOf(id)).at(-1)?.details).toMatchObject({
        action: 'app.keys.generate',
        before: { redirectURI: [REDIRECT] },
        after: { redirectURI },
      });
    });

    it("sends the keys' version as ETag and honours If-Match on replace and generate: a stale edit is 412 and changes nothing", async () => {
      const { id, manager, admin } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const created = await manager.api.post<ApplicationKeys>(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] });
      expect(created.headers.etag).toBe('"1"');
      const read = await manager.api.get(`/api/apps/${appId}/keys`);
      expect(read.headers.etag).toBe('"1"');
      // Two administrators read version 1; the first one's edit wins, the second one's is refused.
      const first = await manager.api.put(
        `/api/apps/${appId}/keys`,
        { redirectURI: ['https://first.example/cb'] },
        { headers: { 'if-match': '"1"' } },
      );
      expect(first.status).toBe(200);
      expect(first.headers.etag).toBe('"2"');
      const second = await admin.api.put<ErrorAnswer>(
        `/api/apps/${appId}/keys`,
        { redirectURI: ['https://second.example/cb'] },
        { headers: { 'if-match': '"1"' } },
      );
      expect(second.status).toBe(412);
      expect(second.body.error).toBe('conflict');
      const generate = await admin.api.post<ErrorAnswer>(
        `/api/apps/${appId}/keys/generate`,
        { redirectURI: [REDIRECT] },
        { headers: { 'if-match': '"1"' } },
      );
      expect(generate.status).toBe(412);
      expect((await keysRow(appId))?.redirect_uris).toEqual(['https://first.example/cb']);
      expect(await verify(created.body.clientId, created.body.clientSecret)).toBe(true);
      const fresh = await admin.api.post<ApplicationKeys>(
        `/api/apps/${appId}/keys/generate`,
        { redirectURI: [REDIRECT] },
        { headers: { 'if-match': '"2"' } },
      );
      expect(fresh.status).toBe(200);
      // If-Match compares strongly (RFC 9110): a weak tag of the current version does not match.
      const weak = await admin.api.put(`/api/apps/${appId}/keys`, { redirectURI: [REDIRECT] }, { headers: { 'if-match': 'W/"3"' } });
      expect(weak.status).toBe(412);
      expect(fresh.headers.etag).toBe('"3"');
    });

    it('answers keysEndpoint and generateNewKeysEndpoint as links that resolve against the API base (RFC 3986)', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const application = await getApp(manager, appId);
      const base = `${app.config.publicUrl}/api/`;
      const keysUrl = new URL(application.keysEndpoint, base);
      const generateUrl = new URL(application.generateNewKeysEndpoint, base);
      expect(keysUrl.pathname).toBe(`/api/apps/${appId}/keys`);
      expect(generateUrl.pathname).toBe(`/api/apps/${appId}/keys/generate`);
      // Following the links as a client would reaches the API, not the console's HTML.
      const created = await manager.api.post<ApplicationKeys>(keysUrl.pathname, { redirectURI: [REDIRECT] });
      expect(created.status).toBe(201);
      expect(String(created.headers['content-type'])).toContain('application/json');
      expect((await manager.api.post(generateUrl.pathname, { redirectURI: [REDIRECT] })).status).toBe(200);
    });

    it('refuses to generate or create keys, or change redirect URIs, while the application is disabled (409)', async () => {
      const { id, manager } = await projectWithPeople();
      const withKeys = await createApp(manager, id, 'With keys');
      const keys = await createKeys(manager, withKeys);
      await setEnabled(manager, withKeys, false);
      const generate = await manager.api.post<ErrorAnswer>(`/api/apps/${withKeys}/keys/generate`, { redirectURI: [REDIRECT] });
      expect(generate.status).toBe(409);
      expect(generate.body).toEqual({ error: 'conflict', message: 'The application is disabled; enable it before generating new keys' });
      const replace = await manager.api.put<ErrorAnswer>(`/api/apps/${withKeys}/keys`, { redirectURI: ['https://evil.example/cb'] });
      expect(replace.status).toBe(409);
      expect((await keysRow(withKeys))?.redirect_uris).toEqual([REDIRECT]);

      const withoutKeys = await createApp(manager, id, 'Without keys');
      await setEnabled(manager, withoutKeys, false);
      const create = await manager.api.post<ErrorAnswer>(`/api/apps/${withoutKeys}/keys`, { redirectURI: [REDIRECT] });
      expect(create.status).toBe(409);
      expect(await keysRow(withoutKeys)).toBeNull();

      // The secret was not replaced: once enabled again, the old one works.
      await setEnabled(manager, withKeys, true);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(true);
    });

    const badUris: Array<[string, unknown, string, string]> = [
      ['an empty list', [], 'redirectURI', 'Required'],
      ['a missing list', undefined, 'redirectURI', 'Required'],
      ['an empty entry', [''], 'redirectURI.0', 'Required'],
      ['a blank entry', ['   '], 'redirectURI.0', 'Required'],
      ['an entry that is not a URI', [REDIRECT, 'not a uri'], 'redirectURI.1', 'Invalid URI'],
      ['a relative path', ['/callback'], 'redirectURI.0', 'Invalid URI'],
      ['a 251-character entry', [`https://app.example.com/${'p'.repeat(227)}`], 'redirectURI.0', 'Maximum input length exceeded'],
    ];
    it.each(badUris)('rejects %s on create, replace and generate with 400; nothing is stored', async (_what, redirectURI, field, message) => {
      const { id, manager } = await projectWithPeople();
      const fresh = await createApp(manager, id, 'Fresh');
      const created = await manager.api.post<ErrorAnswer>(`/api/apps/${fresh}/keys`, { redirectURI });
      expect(created.status).toBe(400);
      expect(created.body.issues).toContainEqual(expect.objectContaining({ field, message }));
      expect(await keysRow(fresh)).toBeNull();

      const withKeys = await createApp(manager, id, 'With keys');
      const keys = await createKeys(manager, withKeys);
      for (const res of [
        await manager.api.put<ErrorAnswer>(`/api/apps/${withKeys}/keys`, { redirectURI }),
        await manager.api.post<ErrorAnswer>(`/api/apps/${withKeys}/keys/generate`, { redirectURI }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.issues).toContainEqual(expect.objectContaining({ field, message }));
      }
      expect((await keysRow(withKeys))?.redirect_uris).toEqual([REDIRECT]);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(true);
    });
  });

  describe('client credentials for the provider', () => {
    it('verifies only the current secret of an enabled application in an enabled project', async () => {
      const { id, admin, manager } = await projectWithPeople();
      const appId = await createApp(manager, id);
      const keys = await createKeys(manager, appId);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(true);
      expect(await verify(keys.clientId, `${keys.clientSecret}x`)).toBe(false);
      expect(await verify(keys.clientId, keys.clientSecret.slice(0, -1))).toBe(false);
      expect(await verify(keys.clientId, '')).toBe(false);
      expect(await verify('unknown-client', keys.clientSecret)).toBe(false);
      expect(await verify('', '')).toBe(false);
      expect(await verify(keys.clientId, 'x'.repeat(10_000))).toBe(false);

      // spec §4: disabled apps reject end-user authentication…
      await setEnabled(manager, appId, false);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(false);
      await setEnabled(manager, appId, true);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(true);
      // …and closing a project ends authentication for its apps.
      await closeProject(admin, id);
      expect(await verify(keys.clientId, keys.clientSecret)).toBe(false);
    });

    it('matches redirect URIs exactly: no trailing slash, case, prefix, port or query variants', async () => {
      const { id, manager } = await projectWithPeople();
      const appId = await createApp(manager, id, 'Mobile app', 'native');
      const { clientId } = await createKeys(manager, appId, [REDIRECT, 'com.example.app:/oauth2redirect']);
      expect(await redirectAllowed(clientId, REDIRECT)).toBe(true);
      expect(await redirectAllowed(clientId, 'com.example.app:/oauth2redirect')).toBe(true);
      for (const uri of [
        `${REDIRECT}/`,
        'https://app.example.com/Callback',
        'https://APP.example.com/callback',
        'HTTPS://app.example.com/callback',
        'https://app.example.com/call',
        `${REDIRECT}/more`,
        `${REDIRECT}?next=/admin`,
        `${REDIRECT}#x`,
        'https://app.example.com:443/callback',
        'http://app.example.com/callback',
        'https://app.example.com.evil.example/callback',
        ` ${REDIRECT}`,
        '',
        '*',
      ]) {
        expect(await redirectAllowed(clientId, uri), uri).toBe(false);
      }
      expect(await redirectAllowed('unknown-client', REDIRECT)).toBe(false);
    });
  });

  describe('closed project', () => {
    it('answers 409 project_closed to every write, changes nothing, and still answers reads', async () => {
      const { id, admin, manager } = await projectWithPeople();
      const withKeys = await createApp(manager, id, 'With keys');
      const keys = await createKeys(manager, withKeys);
      const withoutKeys = await createApp(manager, id, 'Without keys');
      await closeProject(admin, id);
      const auditBefore = (await auditOf(id)).length;

      const writes: Array<[string, () => Promise<ApiResponse>]> = [
        ['POST apps', () => manager.api.post('/api/apps', { platformCode: 'oidc', name: 'Late', url: '', projectId: id })],
        ['PUT apps (rename)', () => manager.api.put(`/api/apps/${withKeys}`, { name: 'Renamed', logoUrl: '', enabled: true })],
        ['PUT apps (disable)', () => manager.api.put(`/api/apps/${withKeys}`, { name: 'With keys', logoUrl: '', enabled: false })],
        ['POST {keysEndpoint}', () => manager.api.post(`/api/apps/${withoutKeys}/keys`, { redirectURI: [REDIRECT] })],
        ['PUT {keysEndpoint}', () => manager.api.put(`/api/apps/${withKeys}/keys`, { redirectURI: ['https://evil.example/cb'] })],
        ['POST {generateNewKeysEndpoint}', () => manager.api.post(`/api/apps/${withKeys}/keys/generate`, { redirectURI: [REDIRECT] })],
      ];
      for (const [call, run] of writes) {
        const res = await run();
        expect(res.status, call).toBe(409);
        expect((res.body as ErrorAnswer).error, call).toBe('project_closed');
      }
      // A global account is refused the same way.
      const global = await signedInAccount(app, t.db, ['glb::*']);
      expect((await global.api.post('/api/apps', { name: 'Late', projectId: id })).status).toBe(409);

      expect((await appsOfProject(id)).map((a) => [a.name, a.enabled, a.version]).sort()).toEqual([
        ['With keys', true, 1],
        ['Without keys', true, 1],
      ]);
      expect(await keysRow(withoutKeys)).toBeNull();
      expect((await keysRow(withKeys))?.redirect_uris).toEqual([REDIRECT]);
      expect((await auditOf(id)).length).toBe(auditBefore);

      expect((await manager.api.get<AppList>(`/api/projects/${id}/apps`)).body.total).toBe(2);
      expect((await manager.api.get(`/api/apps/${withKeys}`)).status).toBe(200);
      expect((await manager.api.get<ApplicationKeys>(`/api/apps/${withKeys}/keys`)).body).toEqual({ ...keys, clientSecret: '' });
    });
  });

  describe('list', () => {
    // 25 applications: names chosen so that case, shared prefixes and equal names (ties broken by id)
    // all show; some disabled; created at known, partly equal times.
    const NAMES = [
      'alpha',
      'Alpine',
      'beta',
      'Gamma',
      'gamma',
      'delta',
      'Epsilon',
      'zeta',
      'eta',
      'theta',
      'iota',
      'kappa',
      'lambda',
      'mu',
      'nu',
      'xi',
      'omicron',
      'pi',
      'rho',
      'sigma',
      'tau',
      'upsilon',
      '100% sure',
      'under_score',
      'Omega',
    ];
    interface Seeded {
      id: string;
      name: string;
      enabled: boolean;
      createdAt: number;
    }
    let projectId: string;
    let manager: SignedIn;
    let seeded: Seeded[] = [];

    beforeAll(async () => {
      const people = await projectWithPeople();
      projectId = people.id;
      manager = people.manager;
      // Apps of another project never show in this one's list.
      await createApp(people.otherAdmin, people.otherProject, 'alpha of another project');
      seeded = [];
      for (const [i, name] of NAMES.entries()) {
        // Every third app shares its creation time with the one before.
        if (i % 3 !== 2) app.clock.advance(1000);
        const id = await createApp(manager, projectId, name);
        const enabled = i % 4 !== 1;
        if (!enabled) await setEnabled(manager, id, false);
        seeded.push({ id, name, enabled, createdAt: app.clock.now().getTime() });
      }
    });

    const byCodeUnit = (a: string | number | boolean, b: string | number | boolean) => (a < b ? -1 : a > b ? 1 : 0);
    function expected(
      sort: 'name' | 'enabled' | 'platformCode' | 'createdAt',
      direction: 'asc' | 'desc',
      filter: (s: Seeded) => boolean = () => true,
    ): string[] {
      const key = (s: Seeded): Array<string | number | boolean> => {
        switch (sort) {
          case 'name':
            return [s.name.toLowerCase(), s.id];
          case 'platformCode':
            return ['oidc', s.name.toLowerCase(), s.id];
          case 'enabled':
            return [s.enabled ? 1 : 0, s.name.toLowerCase(), s.id];
          case 'createdAt':
            return [s.createdAt, s.id];
        }
      };
      const sign = direction === 'asc' ? 1 : -1;
      return seeded
        .filter(filter)
        .sort((a, b) => {
          const ka = key(a);
          const kb = key(b);
          for (let i = 0; i < ka.length; i += 1) {
            const c = byCodeUnit(ka[i] as string, kb[i] as string);
            if (c !== 0) return sign * c;
          }
          return 0;
        })
        .map((s) => s.id);
    }

    async function list(query: Record<string, string | number | boolean> = {}): Promise<AppList> {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
      const res = await manager.api.get<AppList>(`/api/projects/${projectId}/apps${qs.size ? `?${qs}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }

    /** Every page of a query, in order, with the totals each page answered. */
    async function allPages(
      query: Record<string, string | number | boolean>,
      limit: number,
    ): Promise<{ ids: string[]; totals: number[]; sizes: number[] }> {
      const ids: string[] = [];
      const totals: number[] = [];
      const sizes: number[] = [];
      for (let offset = 0; offset < 100; offset += limit) {
        const page = await list({ ...query, offset, limit });
        totals.push(page.total);
        sizes.push(page.list.length);
        ids.push(...page.list.map((a) => a.id));
        if (page.list.length < limit) break;
      }
      return { ids, totals, sizes };
    }

    it('answers the first 10 by name ascending (case-insensitive) by default, with the total', async () => {
      const page = await list();
      expect(page.total).toBe(25);
      expect(page.list.map((a) => a.id)).toEqual(expected('name', 'asc').slice(0, 10));
      expect(page.list[0]).toEqual({
        id: expected('name', 'asc')[0],
        projectId,
        name: '100% sure',
        platformCode: 'oidc',
        applicationType: 'web',
        enabled: true,
        logoUrl: '',
        keysEndpoint: `apps/${expected('name', 'asc')[0]}/keys`,
        generateNewKeysEndpoint: `apps/${expected('name', 'asc')[0]}/keys/generate`,
      });
    });

    it('pages with offset and limit: 10 + 10 + 5, no repeats, the same total on every page', async () => {
      const { ids, totals, sizes } = await allPages({}, 10);
      expect(sizes).toEqual([10, 10, 5]);
      expect(totals).toEqual([25, 25, 25]);
      expect(ids).toEqual(expected('name', 'asc'));
      expect(new Set(ids).size).toBe(25);
      const past = await list({ offset: 30, limit: 10 });
      expect(past).toEqual({ total: 25, list: [] });
      expect((await list({ offset: 24, limit: 100 })).list.map((a) => a.id)).toEqual(expected('name', 'asc').slice(24));
    });

    const sorts = ['name', 'enabled', 'platformCode', 'createdAt'] as const;
    const directions = ['asc', 'desc'] as const;
    it.each(sorts.flatMap((sort) => directions.map((direction) => [sort, direction] as const)))(
      'sorts by %s %s, ties broken the same way on every page',
      async (sort, direction) => {
        const { ids, totals } = await allPages({ sort, direction }, 7);
        expect(totals.every((n) => n === 25)).toBe(true);
        expect(ids).toEqual(expected(sort, direction));
      },
    );

    it('filters by name: contains, case-insensitive; % and _ match themselves', async () => {
      const alp = await list({ name: 'ALP', limit: 100 });
      expect(alp.total).toBe(2);
      expect(alp.list.map((a) => a.name)).toEqual(['alpha', 'Alpine']);
      const amma = await list({ name: 'aMmA' });
      expect(amma.list.map((a) => a.id)).toEqual(expected('name', 'asc', (s) => s.name.toLowerCase() === 'gamma'));
      expect(amma.list.map((a) => a.name).sort()).toEqual(['Gamma', 'gamma']);
      const ta = await allPages({ name: 'ta' }, 3);
      expect(ta.ids).toEqual(expected('name', 'asc', (s) => s.name.toLowerCase().includes('ta')));
      expect(ta.totals.every((n) => n === ta.ids.length)).toBe(true);
      expect(ta.ids.length).toBe(7); // beta, delta, zeta, eta, theta, iota, tau
      expect((await list({ name: '%' })).list.map((a) => a.name)).toEqual(['100% sure']);
      expect((await list({ name: '_' })).list.map((a) => a.name)).toEqual(['under_score']);
      expect((await list({ name: 'nothing like this' })).total).toBe(0);
      expect(await list({ name: '\\' })).toEqual({ total: 0, list: [] });
      // Surrounding spaces are trimmed; an empty filter is no filter.
      expect((await list({ name: '  alpine ' })).list.map((a) => a.name)).toEqual(['Alpine']);
      expect((await list({ name: '' })).total).toBe(25);
    });

    it('filters by enabled true and false', async () => {
      const off = await allPages({ enabled: false }, 4);
      expect(off.ids).toEqual(expected('name', 'asc', (s) => !s.enabled));
      expect(off.ids.length).toBe(6);
      expect(off.totals.every((n) => n === 6)).toBe(true);
      const on = await allPages({ enabled: true, sort: 'createdAt', direction: 'desc' }, 10);
      expect(on.ids).toEqual(expected('createdAt', 'desc', (s) => s.enabled));
      expect(on.totals.every((n) => n === 19)).toBe(true);
    });

    it('filters by platformCode and combines filters', async () => {
      expect((await list({ platformCode: 'oidc' })).total).toBe(25);
      const combined = await list({ platformCode: 'oidc', enabled: true, name: 'a', sort: 'enabled', direction: 'desc', limit: 100 });
      expect(combined.list.map((a) => a.id)).toEqual(expected('enabled', 'desc', (s) => s.enabled && s.name.toLowerCase().includes('a')));
      expect(combined.total).toBe(combined.list.length);
    });

    it('keeps the kept totals (application_counts) equal to counting the rows, with no trigger', async () => {
      const keptAgainstCounted = async () =>
        (
          await t.db.query<{ kept: number; counted: number }>(
            `SELECT coalesce(c.n, 0)::int AS kept, coalesce(a.n, 0)::int AS counted
               FROM (SELECT * FROM application_counts WHERE project_id = $1) c
               FULL JOIN (SELECT platform_code, enabled, count(*) AS n FROM applications WHERE project_id = $1 GROUP BY 1, 2) a
                 ON a.platform_code = c.platform_code AND a.enabled = c.enabled`,
            [projectId],
          )
        ).rows;
      await list({});
      const rows = await keptAgainstCounted();
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.filter((r) => r.kept !== r.counted)).toEqual([]);
      const { rows: triggers } = await t.db.query("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgrelid = 'applications'::regclass");
      expect(triggers).toEqual([]);
      // A change written as the previous version writes it (the rows, and the project's clients'
      // version raised in the same transaction, with no count kept): the next list counts again.
      const bulkFlip = () =>
        t.db.transaction(async (tx) => {
          await tx.query('UPDATE projects SET clients_version = clients_version + 1 WHERE id = $1', [projectId]);
          await tx.query('UPDATE applications SET enabled = NOT enabled WHERE project_id = $1', [projectId]);
        });
      await bulkFlip();
      expect((await list({ enabled: true })).total).toBe(6);
      expect((await list({ enabled: false, platformCode: 'oidc' })).total).toBe(19);
      await bulkFlip();
      expect((await list({ enabled: true })).total).toBe(19);
      expect((await list({ enabled: false, platformCode: 'oidc' })).total).toBe(6);
      expect((await keptAgainstCounted()).filter((r) => r.kept !== r.counted)).toEqual([]);
    });

    const badQueries: Array<[string, Record<string, string>, string, string]> = [
      ['an unknown sort', { sort: 'url' }, 'sort', 'Invalid value'],
      ['an unknown direction', { direction: 'up' }, 'direction', 'Invalid value'],
      ['limit 0', { limit: '0' }, 'limit', 'Value not in the valid range'],
      ['limit 101', { limit: '101' }, 'limit', 'Value not in the valid range'],
      ['a negative offset', { offset: '-1' }, 'offset', 'Value not in the valid range'],
      ['an offset that is not a number', { offset: 'ten' }, 'offset', 'Value not a valid number'],
      ['enabled=yes', { enabled: 'yes' }, 'enabled', 'Invalid value'],
      ['an unknown platformCode', { platformCode: 'saml' }, 'platformCode', 'Invalid value'],
      ['a 251-character name', { name: 'n'.repeat(251) }, 'name', 'Maximum input length exceeded'],
    ];
    it.each(badQueries)('rejects %s with 400', async (_what, query, field, message) => {
      const res = await manager.api.get<ErrorAnswer>(`/api/projects/${projectId}/apps?${new URLSearchParams(query)}`);
      expect(res.status).toBe(400);
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, message }));
    });
  });
});
