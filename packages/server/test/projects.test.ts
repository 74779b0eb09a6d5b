import { beforeAll, expect, it, describe } from 'vitest';
import { defaultIssuer, type Issuer, type Project, type ProjectSummary } from '@latchkey/domain';
import { anonymous, signedInAccount, type SignedIn, useTestApp } from './support/app.ts';
import { describeWithDatabase } from './support/databases.ts';
import { createProject, getProject, serviceAccountKey } from './support/fixtures.ts';

describeWithDatabase('projects', (t) => {
  const app = useTestApp(t);
  /** Holds every permission (glb::*). */
  let owner: SignedIn;
  beforeAll(async () => {
    owner = await signedInAccount(app, t.db, ['glb::*']);
  });

  /** A project administered by a fresh account, plus accounts with less (or no) permission on it. */
  async function projectWithPeople() {
    const admin = await signedInAccount(app, t.db);
    const id = await createProject(admin, `Team ${Math.random().toString(36).slice(2, 8)}`);
    const viewer = await signedInAccount(app, t.db, [`cst:${id}:info`]);
    const outsider = await signedInAccount(app, t.db);
    return { id, admin, viewer, outsider };
  }

  async function countRows(table: 'projects' | 'audit_events', projectId?: string): Promise<number> {
    const where = projectId ? ' WHERE ' + (table === 'projects' ? 'id' : 'project_id') + ' = $1' : '';
    const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}${where}`, projectId ? [projectId] : []);
    return rows[0]?.n ?? 0;
  }

  describe('create', () => {
    it('lets any signed-in account create a project and grants it cst:{project}:*', async () => {
      const me = await signedInAccount(app, t.db);
      const res = await me.api.post<{ id: string }>('/api/projects', { name: '  Trimmed Name  ', pinLength: 5, email: me.account.email });
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(/^[a-z2-7]{16}$/);
      const account = await me.api.get<{ permissions: string[] }>('/api/account');
      expect(account.body.permissions).toEqual([`cst:${res.body.id}:*`]);
      const project = await getProject(me, res.body.id);
      expect(project).toMatchObject({ id: res.body.id, name: 'Trimmed Name', pinLength: 5, enabled: true });
      expect(await countRows('audit_events', res.body.id)).toBe(1);
    });

    it('defaults pinLength to 4', async () => {
      const me = await signedInAccount(app, t.db);
      const res = await me.api.post<{ id: string }>('/api/projects', { name: 'Default PIN', email: me.account.email });
      expect(res.status).toBe(201);
      expect((await getProject(me, res.body.id)).pinLength).toBe(4);
    });

    it('needs a session', async () => {
      const res = await anonymous(app).post('/api/projects', { name: 'x', pinLength: 4, email: 'a@b.cd' });
      expect(res.status).toBe(401);
    });

    const bad: Array<[string, Record<string, unknown>, string, string]> = [
      ['an empty name', { name: '', pinLength: 4 }, 'name', 'Required'],
      ['a blank name', { name: '   ', pinLength: 4 }, 'name', 'Required'],
      ['a missing name', { pinLength: 4 }, 'name', 'Required'],
      ['a 251-character name', { name: 'x'.repeat(251), pinLength: 4 }, 'name', 'Maximum input length exceeded'],
      ['pinLength 7', { name: 'P', pinLength: 7 }, 'pinLength', 'Value not in the valid range'],
      ['pinLength 3', { name: 'P', pinLength: 3 }, 'pinLength', 'Value not in the valid range'],
      ['pinLength "four"', { name: 'P', pinLength: 'four' }, 'pinLength', 'Value not a valid number'],
      ['pinLength 4.5', { name: 'P', pinLength: 4.5 }, 'pinLength', 'Value not a valid number'],
      ['a bad email', { name: 'P', pinLength: 4, email: 'nope' }, 'email', 'Invalid email'],
    ];
    it.each(bad)('rejects %s with 400 and stores nothing', async (_what, input, field, message) => {
      const me = await signedInAccount(app, t.db);
      const before = await countRows('projects');
      const res = await me.api.post<{ error: string; issues: Array<{ field: string; message: string }> }>('/api/projects', {
        email: me.account.email,
        ...input,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, message }));
      expect(await countRows('projects')).toBe(before);
      expect((await me.api.get<ProjectSummary[]>(`/api/accounts/${me.account.id}/projects`)).body).toEqual([]);
    });

    it('accepts exactly 250 characters', async () => {
      const me = await signedInAccount(app, t.db);
      const id = await createProject(me, 'y'.repeat(250));
      expect((await getProject(me, id)).name).toHaveLength(250);
    });
  });

  describe('list', () => {
    it('shows an account with no permission no project, a member its projects by name, a global account all', async () => {
      const nobody = await signedInAccount(app, t.db);
      expect((await nobody.api.get(`/api/accounts/${nobody.account.id}/projects`)).body).toEqual([]);

      const me = await signedInAccount(app, t.db);
      const b = await createProject(me, 'Beta');
      const a = await createProject(me, 'Alpha');
      const mine = await me.api.get<ProjectSummary[]>(`/api/accounts/${me.account.id}/projects`);
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual([
        { id: a, name: 'Alpha', logoUrl: '', enabled: true },
        { id: b, name: 'Beta', logoUrl: '', enabled: true },
      ]);

      const all = await owner.api.get<ProjectSummary[]>(`/api/accounts/${owner.account.id}/projects`);
      expect(all.body.map((p) => p.id)).toEqual(expect.arrayContaining([a, b]));
      expect(all.body.length).toBe(await countRows('projects'));
      const names = all.body.map((p) => p.name);
      expect(names).toEqual([...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    });

    it("lets only a global accounts manager list someone else's projects", async () => {
      const me = await signedInAccount(app, t.db);
      const other = await signedInAccount(app, t.db);
      const id = await createProject(other, 'Theirs');
      expect((await me.api.get(`/api/accounts/${other.account.id}/projects`)).status).toBe(403);
      const manager = await signedInAccount(app, t.db, ['glb::accounts']);
      const listed = await manager.api.get<ProjectSummary[]>(`/api/accounts/${other.account.id}/projects`);
      expect(listed.status).toBe(200);
      expect(listed.body.map((p) => p.id)).toEqual([id]);
      expect((await manager.api.get('/api/accounts/no-such-account/projects')).status).toBe(404);
    });

    it('includes closed projects (the console filters them)', async () => {
      const me = await signedInAccount(app, t.db);
      const id = await createProject(me, 'To close');
      expect((await me.api.put(`/api/projects/${id}/meta`, { enabled: false })).status).toBe(200);
      const list = await me.api.get<ProjectSummary[]>(`/api/accounts/${me.account.id}/projects`);
      expect(list.body).toEqual([{ id, name: 'To close', logoUrl: '', enabled: false }]);
    });
  });

  describe('read', () => {
    it('answers any member with the project and its version as ETag; others get 404', async () => {
      const { id, admin, viewer, outsider } = await projectWithPeople();
      const res = await viewer.api.get<Project>(`/api/projects/${id}`);
      expect(res.status).toBe(200);
      expect(res.headers.etag).toBe('"1"');
      expect(res.body.id).toBe(id);
      expect((await admin.api.get(`/api/projects/${id}`)).status).toBe(200);

      const hidden = await outsider.api.get(`/api/projects/${id}`);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ error: 'not_found', message: 'Not found' });
      expect((await owner.api.get('/api/projects/doesnotexist')).status).toBe(404);
      expect((await anonymous(app).get(`/api/projects/${id}`)).status).toBe(401);
    });
  });

  describe('update', () => {
    it('lets a project admin replace the settings; derived rules are applied; enabled is ignored', async () => {
      const { id, admin } = await projectWithPeople();
      const project = await getProject(admin, id);
      const res = await admin.api.put<Project>(`/api/projects/${id}`, {
        ...project,
        enabled: false,
        name: '  Renamed  ',
        logoUrl: 'https://cdn.example.com/logo.png',
        supportPhone: '+40123456',
        loginOptions: { ...project.loginOptions, mobileLoginEnabled: false, primary: 'mobileLogin', qrCodeEnabled: true },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.etag).toBe('"2"');
      expect(res.body).toMatchObject({ name: 'Renamed', enabled: true, logoUrl: 'https://cdn.example.com/logo.png' });
      // spec §4: mobile login off turns QR off and makes browser login primary.
      expect(res.body.loginOptions).toMatchObject({ mobileLoginEnabled: false, qrCodeEnabled: false, primary: 'browserLogin' });
      expect(await getProject(admin, id)).toEqual(res.body);
      expect((await admin.api.get<ProjectSummary[]>(`/api/accounts/${admin.account.id}/projects`)).body[0]?.logoUrl).toBe(
        'https://cdn.example.com/logo.png',
      );
    });

    it('is 403 for a member without the admin permission and 404 for an outsider', async () => {
      const { id, admin, viewer, outsider } = await projectWithPeople();
      const project = await getProject(admin, id);
      const forbidden = await viewer.api.put(`/api/projects/${id}`, { ...project, name: 'Hijacked' });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toMatchObject({ error: 'forbidden' });
      expect((await outsider.api.put(`/api/projects/${id}`, { ...project, name: 'Hijacked' })).status).toBe(404);
      // Even invalid input reveals nothing to an outsider.
      expect((await outsider.api.put(`/api/projects/${id}`, { name: '' })).status).toBe(404);
      expect((await getProject(admin, id)).name).toBe(project.name);
    });

    const badSettings: Array<[string, Partial<Project>, string, string]> = [
      ['an empty name', { name: '' }, 'name', 'Required'],
      ['a 251-character name', { name: 'n'.repeat(251) }, 'name', 'Maximum input length exceeded'],
      ['pinLength 9', { pinLength: 9 }, 'pinLength', 'Value not in the valid range'],
      ['a logo that is not a URL', { logoUrl: 'logo.png' }, 'logoUrl', 'Invalid URL'],
      ['a help URL with a bad scheme', { helpUrl: 'ftp://help.example.com' }, 'helpUrl', 'Invalid URL'],
      ['a support email', { supportEmail: 'support' }, 'supportEmail', 'Invalid email'],
      ['a phone with spaces', { supportPhone: '+40 123' }, 'supportPhone', 'Invalid phone number'],
      ['a CORS entry that is not a URI', { allowedCORSDomains: ['not a uri'] }, 'allowedCORSDomains.0', 'Invalid URI'],
      [
        'a push key that is not a service account key file',
        {
          pushOptions: {
            allowed: false,
            enabled: false,
            projectId: '',
            platforms: [{ name: 'firebase', projectId: '', config: '{"private_key":"x"}' }],
          },
        },
        'pushOptions.platforms.0.config',
        'This is not a Firebase service account key file: choose the JSON file of type "service_account" with project_id, client_email and private_key',
      ],
      ['an empty CORS entry', { allowedCORSDomains: [''] }, 'allowedCORSDomains.0', 'Required'],
      ['an Android location', { mobileAndroidLocation: 'market' }, 'mobileAndroidLocation', 'Invalid URL'],
      ['a javascript: CORS entry', { allowedCORSDomains: ['javascript:alert(1)'] }, 'allowedCORSDomains.0', 'Invalid URI'],
      [
        'no login method at all',
        {
          loginOptions: {
            mobileLoginEnabled: false,
            browserLoginEnabled: false,
            primary: 'browserLogin',
            qrCodeEnabled: false,
            pushAuthEnabled: false,
          },
        },
        'loginOptions',
        'You must select at least one login method',
      ],
      [
        'push enabled without a Firebase project id',
        { pushOptions: { allowed: false, enabled: true, projectId: '', platforms: [] } },
        'pushOptions.projectId',
        'Required',
      ],
    ];
    it.each(badSettings)('rejects %s with 400 and the spec message; nothing is stored', async (_what, change, field, message) => {
      const { id, admin } = await projectWithPeople();
      const before = await getProject(admin, id);
      const res = await admin.api.put<{ issues: Array<{ field: string; message: string }> }>(`/api/projects/${id}`, { ...before, ...change });
      expect(res.status).toBe(400);
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, message }));
      expect(await getProject(admin, id)).toEqual(before);
      expect((await admin.api.get(`/api/projects/${id}`)).headers.etag).toBe('"1"');
    });

    it('never reads back the push service-account key, and keeps it when a write leaves it empty', async () => {
      const { id, admin, viewer } = await projectWithPeople();
      const global = await signedInAccount(app, t.db, ['glb::projects']);
      const project = await getProject(admin, id);
      const key = serviceAccountKey('fb-1', 'first');
      const pushOptions = {
        allowed: true,
        enabled: true,
        projectId: 'fb-1',
        platforms: [{ name: 'firebase' as const, projectId: 'fb-1', config: key }],
      };
      const saved = await global.api.put<Project>(`/api/projects/${id}`, { ...project, pushOptions });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(JSON.stringify(saved.body)).not.toContain('PRIVATE KEY');
      for (const reader of [admin, viewer, global]) {
        const read = await reader.api.get<Project>(`/api/projects/${id}`);
        expect(read.headers['cache-control']).toBe('no-store');
        expect(JSON.stringify(read.body)).not.toContain('PRIVATE KEY');
      }
      // The console sends back what it read (an empty key): the stored key stays.
      const again = await getProject(admin, id);
      expect((await admin.api.put(`/api/projects/${id}`, { ...again, name: 'Renamed' })).status).toBe(200);
      // Stored sealed (issue 7, defect 8): the row holds no trace of the key, and the server's key opens it.
      const { rows } = await t.db.query<{ settings: Project; text: string }>('SELECT settings, settings::text AS text FROM projects WHERE id = $1', [
        id,
      ]);
      expect(rows[0]?.text).not.toContain('PRIVATE KEY');
      const sealed = rows[0]?.settings.pushOptions.platforms[0]?.config ?? '';
      expect(app.services.secretBox.open(sealed, `project:${id}:push:firebase`)).toBe(key);
      // A new key replaces it; an emptied platform list removes it.
      const replaced = await global.api.put(`/api/projects/${id}`, {
        ...(await getProject(admin, id)),
        pushOptions: { ...pushOptions, platforms: [{ ...pushOptions.platforms[0], config: serviceAccountKey('fb-1', 'second') }] },
      });
      expect(replaced.status).toBe(200);
      const { rows: after } = await t.db.query<{ settings: Project }>('SELECT settings FROM projects WHERE id = $1', [id]);
      expect(app.services.secretBox.open(after[0]?.settings.pushOptions.platforms[0]?.config ?? '', `project:${id}:push:firebase`)).toBe(
        serviceAccountKey('fb-1', 'second'),
      );
    });

    it('records the caller as the creator, whatever email the body names', async () => {
      const { admin } = await projectWithPeople();
      const res = await admin.api.post<{ id: string }>('/api/projects', { name: 'Mine', pinLength: 4, email: 'ceo@victim.example' });
      expect(res.status).toBe(201);
      const { rows } = await t.db.query<{ email: string }>('SELECT email FROM projects WHERE id = $1', [res.body.id]);
      expect(rows[0]?.email).toBe(admin.account.email);
    });

    it('keeps the global-unlock fields for global accounts (403 naming the field for others)', async () => {
      const { id, admin } = await projectWithPeople();
      const project = await getProject(admin, id);
      const domain = await admin.api.put<{ message: string }>(`/api/projects/${id}`, { ...project, customDomain: 'https://login.acme.example' });
      expect(domain.status).toBe(403);
      expect(domain.body.message).toContain('customDomain');
      const confirmation = await admin.api.put<{ message: string }>(`/api/projects/${id}`, {
        ...project,
        verificationOptions: { ...project.verificationOptions, confirmationURL: 'https://acme.example/confirm' },
      });
      expect(confirmation.status).toBe(403);
      expect(confirmation.body.message).toContain('verificationOptions.confirmationURL');
      expect(await getProject(admin, id)).toEqual(project);

      const global = await signedInAccount(app, t.db, ['glb::projects']);
      const ok = await global.api.put<Project>(`/api/projects/${id}`, {
        ...project,
        customDomain: 'https://login.acme.example',
        associationIOS: '{"applinks":{}}',
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ customDomain: 'https://login.acme.example', associationIOS: '{"applinks":{}}' });

      // Unchanged locked fields do not need the global permission.
      const fresh = await getProject(admin, id);
      expect((await admin.api.put(`/api/projects/${id}`, { ...fresh, displayName: 'Acme' })).status).toBe(200);
    });

    it('honours If-Match: a stale version is 412 conflict and changes nothing', async () => {
      const { id, admin } = await projectWithPeople();
      const project = await getProject(admin, id);
      const first = await admin.api.put(`/api/projects/${id}`, { ...project, displayName: 'First' }, { headers: { 'if-match': '"1"' } });
      expect(first.status).toBe(200);
      expect(first.headers.etag).toBe('"2"');
      const stale = await admin.api.put(`/api/projects/${id}`, { ...project, displayName: 'Second' }, { headers: { 'if-match': '"1"' } });
      expect(stale.status).toBe(412);
      expect(stale.body).toMatchObject({ error: 'conflict' });
      expect((await getProject(admin, id)).displayName).toBe('First');
    });

    it('applies concurrent writes one after the other (no lost update inside the transaction)', async () => {
      const { id, admin } = await projectWithPeople();
      const project = await getProject(admin, id);
      const results = await Promise.all(
        ['One', 'Two', 'Three'].map((displayName) =>
          admin.api.put(`/api/projects/${id}`, { ...project, displayName }, { headers: { 'if-match': '"1"' } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412]);
      expect((await admin.api.get(`/api/projects/${id}`)).headers.etag).toBe('"2"');
    });
  });

  describe('close and reopen (meta)', () => {
    it('closes: enabled false, purchaseOrder and referrer cleared; then every write is 409 project_closed', async () => {
      const { id, admin } = await projectWithPeople();
      // Billing details are set by an administrator of all projects; a project admin may not.
      expect((await admin.api.put(`/api/projects/${id}/meta`, { enabled: true, purchaseOrder: 'PO-1', referrer: 'partner' })).status).toBe(403);
      const billing = await signedInAccount(app, t.db, ['glb::projects']);
      const withPo = await billing.api.put<Project>(`/api/projects/${id}/meta`, { enabled: true, purchaseOrder: 'PO-1', referrer: 'partner' });
      expect(withPo.status).toBe(200);
      expect(withPo.body).toMatchObject({ purchaseOrder: 'PO-1', referrer: 'partner' });

      const closed = await admin.api.put<Project>(`/api/projects/${id}/meta`, { enabled: false, purchaseOrder: 'ignored', referrer: 'ignored' });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ enabled: false, purchaseOrder: '', referrer: '' });

      const project = await getProject(admin, id);
      const update = await admin.api.put(`/api/projects/${id}`, { ...project, name: 'Changed' });
      expect(update.status).toBe(409);
      expect(update.body).toMatchObject({ error: 'project_closed' });
      const issuer = await admin.api.put(`/api/projects/${id}/issuer`, defaultIssuer());
      expect(issuer.status).toBe(409);
      expect((await admin.api.put(`/api/projects/${id}/meta`, { enabled: false })).status).toBe(409);
      expect(await getProject(admin, id)).toEqual(project);
      expect((await admin.api.get(`/api/projects/${id}/issuer`)).status).toBe(200);
    });

    it('keeps billing fields and push entitlement to administrators of all projects', async () => {
      const { id, admin } = await projectWithPeople();
      const project = await getProject(admin, id);
      for (const patch of [{ purchaseOrder: 'PO-9' }, { referrer: 'me' }, { pushOptions: { ...project.pushOptions, allowed: true } }]) {
        const res = await admin.api.put<{ issues: Array<{ field: string }> }>(`/api/projects/${id}`, { ...project, ...patch });
        expect(res.status).toBe(403);
      }
      expect(await getProject(admin, id)).toEqual(project);
      const global = await signedInAccount(app, t.db, ['glb::projects']);
      const ok = await global.api.put<Project>(`/api/projects/${id}`, { ...project, purchaseOrder: 'PO-9' });
      expect(ok.status).toBe(200);
      expect(ok.body.purchaseOrder).toBe('PO-9');
    });

    it('lets only glb::projects reopen a closed project', async () => {
      const { id, admin, viewer } = await projectWithPeople();
      expect((await viewer.api.put(`/api/projects/${id}/meta`, { enabled: false })).status).toBe(403);
      expect((await admin.api.put(`/api/projects/${id}/meta`, { enabled: false })).status).toBe(200);
      const reopen = await admin.api.put(`/api/projects/${id}/meta`, { enabled: true });
      expect(reopen.status).toBe(403);
      expect((await getProject(admin, id)).enabled).toBe(false);
      const global = await signedInAccount(app, t.db, ['glb::projects']);
      const ok = await global.api.put<Project>(`/api/projects/${id}/meta`, { enabled: true, purchaseOrder: 'PO-2', referrer: '' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ enabled: true, purchaseOrder: 'PO-2' });
    });

    it('records closing in the audit log', async () => {
      const { id, admin } = await projectWithPeople();
      await admin.api.put(`/api/projects/${id}/meta`, { enabled: false });
      const { rows } = await t.db.query<{ event_status: string; user_id: string; details: { action: string } }>(
        'SELECT event_status, user_id, details FROM audit_events WHERE project_id = $1 ORDER BY id',
        [id],
      );
      expect(rows.map((r) => r.details.action)).toEqual(['project.create', 'project.close']);
      expect(rows[1]).toMatchObject({ event_status: 'disabled', user_id: admin.account.email });
    });
  });

  describe('issuer', () => {
    // docs/decisions/0047: where the address is, read-only; this server (PUBLIC_URL 127.0.0.1) gives no own host.
    const onSharedPath = { placement: 'sharedPath', own_host: '', passkey_domain: '127.0.0.1', moves: [] } as const;
    it('answers the defaults, then what was saved', async () => {
      const { id, admin } = await projectWithPeople();
      const initial = await admin.api.get<Issuer>(`/api/projects/${id}/issuer`);
      expect(initial.status).toBe(200);
      // issue 8: the address is the project's issuer URL, read-only (a PUT's address is ignored).
      const address = `${app.baseUrl}/p/${id}`;
      expect(initial.body).toEqual({ ...defaultIssuer(), address, ...onSharedPath });
      const next: Issuer = {
        address: 'https://id.acme.example',
        id_token_signing_alg: 'ES256',
        token_endpoint_auth_methods: ['client_secret_post'],
        code_challenge_methods: ['S256', 'plain'],
        allow_pkce_only_token_exchange: true,
        require_pkce_for_confidential_clients: true,
        access_token_ttl: 300,
        id_token_ttl: 900,
        refresh_token_idle_ttl: 2 * 86400,
        refresh_token_absolute_ttl: 30 * 86400,
      };
      const saved = await admin.api.put<Issuer>(`/api/projects/${id}/issuer`, next);
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual({ ...next, address, ...onSharedPath });
      expect((await admin.api.get(`/api/projects/${id}/issuer`)).body).toEqual({ ...next, address, ...onSharedPath });
    });

    it("reads a document saved before a field existed with that field's default (issue 22: no 500 after the upgrade)", async () => {
      const { id, admin } = await projectWithPeople();
      await t.db.query(`UPDATE projects SET issuer = '{"id_token_signing_alg": "ES256"}'::jsonb WHERE id = $1`, [id]);
      const read = await admin.api.get<Issuer>(`/api/projects/${id}/issuer`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ ...defaultIssuer(), id_token_signing_alg: 'ES256', address: `${app.baseUrl}/p/${id}`, ...onSharedPath });
      const keys = await admin.api.post<{ keys: Array<{ alg: string }> }>(`/api/projects/${id}/issuer/keys/rotation`, {});
      expect(keys.status).toBe(200);
      expect(keys.body.keys[0]?.alg).toBe('ES256');
    });

    const badIssuers: Array<[string, Partial<Issuer>, string, string]> = [
      ['no auth method', { token_endpoint_auth_methods: [] }, 'token_endpoint_auth_methods', 'Select at least one method'],
      ['no challenge method', { code_challenge_methods: [] }, 'code_challenge_methods', 'Select at least one method'],
      ['an address that is not a URL', { address: 'id.acme' }, 'address', 'Invalid URL'],
      ['an access token living under a minute', { access_token_ttl: 59 }, 'access_token_ttl', 'Value not in the valid range'],
      ['an ID token living over a day', { id_token_ttl: 86401 }, 'id_token_ttl', 'Value not in the valid range'],
      ['a refresh token idle for over a year', { refresh_token_idle_ttl: 366 * 86400 }, 'refresh_token_idle_ttl', 'Value not in the valid range'],
      ['a lifetime that is not a whole number', { refresh_token_absolute_ttl: 86400.5 }, 'refresh_token_absolute_ttl', 'Value not a valid number'],
    ];
    it.each(badIssuers)('rejects %s and stores nothing', async (_what, change, field, message) => {
      const { id, admin } = await projectWithPeople();
      const res = await admin.api.put<{ issues: Array<{ field: string; message: string }> }>(`/api/projects/${id}/issuer`, {
        ...defaultIssuer(),
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, message }));
      expect((await admin.api.get(`/api/projects/${id}/issuer`)).body).toEqual({
        ...defaultIssuer(),
        address: `${app.baseUrl}/p/${id}`,
        ...onSharedPath,
      });
    });

    it('needs the admin permission (403) on a project one can see, 404 otherwise', async () => {
      const { id, viewer, outsider } = await projectWithPeople();
      expect((await viewer.api.get(`/api/projects/${id}/issuer`)).status).toBe(403);
      expect((await viewer.api.put(`/api/projects/${id}/issuer`, defaultIssuer())).status).toBe(403);
      expect((await outsider.api.get(`/api/projects/${id}/issuer`)).status).toBe(404);
      expect((await outsider.api.put(`/api/projects/${id}/issuer`, defaultIssuer())).status).toBe(404);
    });
  });
});

describeWithDatabase('projects per account (issue 7, defect 11)', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '3' } });

  const create = (by: SignedIn, name: string) =>
    by.api.post<{ id?: string; error?: string; message?: string }>('/api/projects', { name, pinLength: 4, email: by.account.email });

  it('lets an account without a global permission create PROJECTS_PER_ACCOUNT projects, then answers 403 with a clear message and stores nothing', async () => {
    const me = await signedInAccount(app, t.db);
    for (const name of ['One', 'Two', 'Three']) expect((await create(me, name)).status).toBe(201);
    const fourth = await create(me, 'Four');
    expect(fourth.status).toBe(403);
    expect(fourth.body).toEqual({
      error: 'forbidden',
      message: 'You have created the most projects an account may create (3); ask an administrator of all projects for more',
    });
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE created_by = $1', [me.account.id]);
    expect(rows[0]?.n).toBe(3);
    expect((await me.api.get<{ permissions: string[] }>('/api/account')).body.permissions).toHaveLength(3);
  });

  it('holds the cap when many requests race (the count is taken under a lock on the account)', async () => {
    const me = await signedInAccount(app, t.db);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create(me, `Race ${i}`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403)).toHaveLength(5);
  });

  it('does not cap an account holding a global permission', async () => {
    const admin = await signedInAccount(app, t.db, ['glb::projects']);
    for (let i = 0; i < 5; i += 1) expect((await create(admin, `Admin ${i}`)).status).toBe(201);
  });

  it('is read from PROJECTS_PER_ACCOUNT, defaults to 10 and refuses a value that is not a whole number', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(loadConfig({}).projectsPerAccount).toBe(10);
    expect(loadConfig({ PROJECTS_PER_ACCOUNT: '0' }).projectsPerAccount).toBe(0);
    expect(() => loadConfig({ PROJECTS_PER_ACCOUNT: 'many' })).toThrow('PROJECTS_PER_ACCOUNT must be a whole number from 0 to 999999');
  });
});
