import { beforeAll, describe, expect, it } from 'vitest';
import { api, type Account, type AccountList, type Application, type ServiceAccountToken } from '@latchkey/domain';
import { anonymous, signedInAccount, uniqueEmail, useTestApp, type ApiResponse, type SignedIn } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, closeProject, createApp, createProject, databaseFingerprint } from './support/fixtures.ts';
import { HOUR } from './support/fakes.ts';
import { signInThroughProvider } from './support/sign-in.ts';

interface ErrorAnswer {
  error: string;
  message: string;
  issues?: Array<{ field: string; message: string }>;
}

// spec §7 "Accounts", §5 staff and service account rules, §6; issue 12 (docs/decisions/0022).
describeEachDatabase('accounts and service accounts', (t) => {
  const app = useTestApp(t, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });

  let owner: SignedIn;
  let projectId: string;

  const accountsPath = (project: string) => apiPath(api.listAccounts, { project });
  const accountPath = (project: string, account: string) => apiPath(api.updateAccount, { project, account });
  const serviceAccountsPath = (project: string) => apiPath(api.createServiceAccount, { project });
  const tokenPath = (project: string, account: string) => apiPath(api.rotateServiceToken, { project, account });
  const revokePath = (project: string, account: string) => apiPath(api.revokeServiceToken, { project, account });

  async function addStaff(by: SignedIn, project: string, email: string, permissions: string[], active = true) {
    return by.api.post<{ id: string } & ErrorAnswer>(accountsPath(project), { email, permissions, active });
  }
  async function accountOf(project: string, id: string): Promise<Account> {
    const res = await owner.api.get<Account>(accountPath(project, id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  async function newServiceAccount(
    project: string,
    permissions: string[],
    extra: Record<string, unknown> = {},
  ): Promise<{ id: string; token: string }> {
    const res = await owner.api.post<ServiceAccountToken>(serviceAccountsPath(project), { name: 'CI deploy', permissions, active: true, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.token).toEqual(expect.any(String));
    return { id: res.body.id, token: res.body.token as string };
  }
  /** A call to the API with a bearer token, as a service account's script makes it (no cookie, no XSRF). */
  async function withBearer<T>(token: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<ApiResponse<T & ErrorAnswer>> {
    return anonymous(app).call<T & ErrorAnswer>(method, path, body, { headers: { authorization: `Bearer ${token}` } });
  }

  beforeAll(async () => {
    owner = await signedInAccount(app, t.db);
    projectId = await createProject(owner, 'Accounts shop');
  });

  describe('staff accounts', () => {
    it('adds a person by email with View Usage only; they are invited by mail and find the permission at their first sign-in', async () => {
      const email = uniqueEmail('invited');
      const res = await addStaff(owner, projectId, `  ${email.toUpperCase()} `, [`cst:${projectId}:usage`]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(await accountOf(projectId, res.body.id)).toEqual({
        id: res.body.id,
        email,
        name: '',
        active: true,
        isServiceAccount: false,
        permissions: [`cst:${projectId}:usage`],
        invited: true,
      });
      expect(app.mailer.invitations.at(-1)).toEqual({
        email,
        invitation: { consoleUrl: app.config.publicUrl, projectName: 'Accounts shop', invitedBy: owner.account.email },
      });

      const browser = new Browser();
      expect((await signInThroughProvider(app, browser, email)).status).toBe(200);
      const account = await browser.get(`${app.baseUrl}/api/account`);
      expect(account.json()).toMatchObject({ email, permissions: [`cst:${projectId}:usage`] });
      expect((await accountOf(projectId, res.body.id)).invited).toBe(false);
      // View Usage: the dashboard's call answers, the applications list does not.
      expect((await browser.get(`${app.baseUrl}${apiPath(api.getUsage, { project: projectId })}`)).status).toBe(200);
      expect((await browser.get(`${app.baseUrl}${apiPath(api.listApps, { project: projectId })}`)).status).toBe(403);
    });

    it('lists the project’s accounts by email, filters by email and status, shows permissions by scope (a parent alone)', async () => {
      const project = await createProject(owner);
      const emails = ['bea@example.test', 'al@example.test', 'cy@example.test'];
      for (const [i, email] of emails.entries()) {
        expect((await addStaff(owner, project, email, [`cst:${project}:*`, `cst:${project}:apps`], i !== 2)).status).toBe(201);
      }
      const all = await owner.api.get<AccountList>(accountsPath(project));
      expect(all.body.list.map((a) => a.email)).toEqual(['al@example.test', 'bea@example.test', 'cy@example.test', owner.account.email]);
      expect(all.body.list[0]?.permissions).toEqual([`cst:${project}:*`]);
      expect(all.body.total).toBe(4);
      const filtered = await owner.api.get<AccountList>(`${accountsPath(project)}?email=B&active=true`);
      expect(filtered.body.list.map((a) => a.email)).toEqual(['bea@example.test']);
      const inactive = await owner.api.get<AccountList>(`${accountsPath(project)}?active=false`);
      expect(inactive.body.list.map((a) => a.email)).toEqual(['cy@example.test']);
      const desc = await owner.api.get<AccountList>(`${accountsPath(project)}?direction=desc&limit=1`);
      expect(desc.body).toMatchObject({ total: 4, list: [{ email: owner.account.email }] });
    });

    it.each<[string, (p: string) => Record<string, unknown>, string]>([
      ['no email', (p) => ({ email: '', permissions: [`cst:${p}:usage`] }), 'email'],
      ['an invalid email', (p) => ({ email: 'not-an-email', permissions: [`cst:${p}:usage`] }), 'email'],
      ['no permission', () => ({ email: 'x@example.test', permissions: [] }), 'permissions'],
      ['a permission not in the catalogue', (p) => ({ email: 'x@example.test', permissions: [`cst:${p}:root`] }), 'permissions.0'],
      ['another project’s permission', () => ({ email: 'x@example.test', permissions: ['cst:elsewhere:usage'] }), 'permissions'],
    ])('refuses %s with 400, changing nothing', async (_, body, field) => {
      const before = await databaseFingerprint(t.db);
      const res = await owner.api.post<ErrorAnswer>(accountsPath(projectId), body(projectId));
      expect(res.status).toBe(400);
      expect(res.body.issues?.map((i) => i.field)).toContain(field);
      expect(await databaseFingerprint(t.db)).toEqual(before);
    });

    it('honours If-Match: the account’s ETag moves with each change, and a stale one is 412 changing nothing', async () => {
      const added = await addStaff(owner, projectId, uniqueEmail('versioned'), [`cst:${projectId}:usage`]);
      const read = await owner.api.get<Account>(accountPath(projectId, added.body.id));
      const etag = String(read.headers.etag);
      expect(etag).toMatch(/^"\d+"$/);
      const first = await owner.api.put<Account>(
        accountPath(projectId, added.body.id),
        { permissions: [`cst:${projectId}:audit`], active: true },
        { headers: { 'if-match': etag } },
      );
      expect(first.status).toBe(200);
      expect(first.headers.etag).not.toBe(etag);
      const stale = await owner.api.put<ErrorAnswer>(
        accountPath(projectId, added.body.id),
        { permissions: [`cst:${projectId}:apps`], active: true },
        { headers: { 'if-match': etag } },
      );
      expect(stale.status).toBe(412);
      expect((await accountOf(projectId, added.body.id)).permissions).toEqual([`cst:${projectId}:audit`]);
    });

    it('refuses an address that already has an account in the project (409)', async () => {
      const email = uniqueEmail('twice');
      expect((await addStaff(owner, projectId, email, [`cst:${projectId}:usage`])).status).toBe(201);
      expect((await addStaff(owner, projectId, email, [`cst:${projectId}:apps`])).status).toBe(409);
    });
  });

  describe('no one grants what they do not hold', () => {
    let manager: SignedIn;
    let project: string;
    beforeAll(async () => {
      project = await createProject(owner);
      manager = await signedInAccount(app, t.db, [`cst:${project}:accounts`, `cst:${project}:usage`]);
    });

    it.each<[string, (p: string) => string[], string[]]>([
      ['Manage Apps', (p) => [`cst:${p}:apps`], ['apps']],
      ['select all', (p) => [`cst:${p}:*`], ['*']],
      ['a global permission', () => ['glb::usage'], ['glb::usage']],
      ['the global wildcard', () => ['glb::*'], ['glb::*']],
      ['one held and one not', (p) => [`cst:${p}:usage`, `cst:${p}:audit`], ['audit']],
    ])('refuses to grant %s: 403 naming it, nothing changed', async (_, permissions, named) => {
      const before = await databaseFingerprint(t.db);
      const res = await addStaff(manager, project, uniqueEmail('escalate'), permissions(project));
      expect(res.status).toBe(403);
      for (const n of named) expect(res.body.message).toContain(n);
      expect(await databaseFingerprint(t.db)).toEqual(before);
      const service = await manager.api.post<ErrorAnswer>(serviceAccountsPath(project), {
        name: 'x',
        permissions: permissions(project),
        active: true,
      });
      expect(service.status).toBe(403);
      expect(await databaseFingerprint(t.db)).toEqual(before);
    });

    it('grants what it holds; cannot take from or deactivate an account holding more', async () => {
      const added = await addStaff(manager, project, uniqueEmail('viewer'), [`cst:${project}:usage`]);
      expect(added.status).toBe(201);
      const admin = await signedInAccount(app, t.db, [`cst:${project}:*`]);
      const demote = await manager.api.put<ErrorAnswer>(accountPath(project, admin.account.id), {
        permissions: [`cst:${project}:usage`],
        active: true,
      });
      expect(demote.status).toBe(403);
      expect(demote.body.message).toContain(`cst:${project}:*`);
      const lockOut = await manager.api.put<ErrorAnswer>(accountPath(project, admin.account.id), {
        permissions: [`cst:${project}:*`],
        active: false,
      });
      expect(lockOut.status).toBe(403);
    });

    it('adds an existing person beside what they hold elsewhere, never taking their global permissions', async () => {
      const global = await signedInAccount(app, t.db, ['glb::*']);
      try {
        expect((await addStaff(manager, project, global.account.email as string, [`cst:${project}:usage`])).status).toBe(201);
        const { rows } = await t.db.query<{ permission: string }>('SELECT permission FROM account_permissions WHERE account_id = $1 ORDER BY 1', [
          global.account.id,
        ]);
        expect(rows.map((r) => r.permission)).toEqual([`cst:${project}:usage`, 'glb::*']);
      } finally {
        await t.db.query(`DELETE FROM account_permissions WHERE account_id = $1`, [global.account.id]);
      }
    });

    it('cannot reactivate, or make or revoke a token for, an account holding more than it holds (here or in another project)', async () => {
      const powerful = await signedInAccount(app, t.db, ['glb::usage']);
      expect((await addStaff(owner, project, powerful.account.email as string, [`cst:${project}:usage`])).status).toBe(201);
      await t.db.query('UPDATE accounts SET active = false WHERE id = $1', [powerful.account.id]);
      const revive = await manager.api.put<ErrorAnswer>(accountPath(project, powerful.account.id), {
        permissions: [`cst:${project}:usage`],
        active: true,
      });
      expect(revive.status).toBe(403);
      expect(revive.body.message).toContain('glb::usage');

      const service = await owner.api.post<ServiceAccountToken>(serviceAccountsPath(project), {
        name: 'two-project CI',
        permissions: [`cst:${project}:usage`],
        active: true,
      });
      expect(service.status).toBe(201);
      const other = await createProject(owner);
      await t.db.query(`INSERT INTO account_permissions (account_id, permission, project_id) VALUES ($1, $2, $3)`, [
        service.body.id,
        `cst:${other}:*`,
        other,
      ]);
      expect((await manager.api.post<ErrorAnswer>(tokenPath(project, service.body.id), {})).status).toBe(403);
      expect((await manager.api.post<ErrorAnswer>(revokePath(project, service.body.id))).status).toBe(403);
      expect((await withBearer(service.body.token as string, 'GET', apiPath(api.getUsage, { project }))).status).toBe(200);
    });
  });

  describe('the last administrator and oneself', () => {
    it('refuses the change that leaves the project without an active account holding select all (409), and deactivating oneself (403)', async () => {
      const alone = await signedInAccount(app, t.db);
      const project = await createProject(alone);
      const self = alone.account.id;
      const before = await databaseFingerprint(t.db);
      const demote = await alone.api.put<ErrorAnswer>(accountPath(project, self), { permissions: [`cst:${project}:accounts`], active: true });
      expect(demote.status).toBe(409);
      expect(demote.body.message).toContain('at least one active account');
      const quit = await alone.api.put<ErrorAnswer>(accountPath(project, self), { permissions: [`cst:${project}:*`], active: false });
      expect(quit.status).toBe(403);
      expect(quit.body.message).toBe('You cannot deactivate your own account');
      expect(await databaseFingerprint(t.db)).toEqual(before);
    });

    it('refuses a change in one project that leaves another without an active administrator (a global permission reaches every project)', async () => {
      const globalAdmin = await signedInAccount(app, t.db, ['glb::projects']);
      const here = await createProject(globalAdmin);
      const creator = await signedInAccount(app, t.db);
      await createProject(creator);
      // The other project's own administrator is gone: the global one is all it has.
      await t.db.query('UPDATE accounts SET active = false WHERE id = $1', [creator.account.id]);
      try {
        const res = await globalAdmin.api.put<ErrorAnswer>(accountPath(here, globalAdmin.account.id), {
          permissions: [`cst:${here}:*`],
          active: true,
        });
        expect(res.status).toBe(409);
        expect((await globalAdmin.api.get<Account>(accountPath(here, globalAdmin.account.id))).body.permissions).toContain('glb::projects');
      } finally {
        await t.db.query(`DELETE FROM account_permissions WHERE account_id = $1 AND permission = 'glb::projects'`, [globalAdmin.account.id]);
      }
    });
  });

  describe('deactivation', () => {
    it('ends the account’s sessions at once; reactivating does not revive them', async () => {
      const project = await createProject(owner);
      const member = await signedInAccount(app, t.db);
      expect((await addStaff(owner, project, member.account.email as string, [`cst:${project}:usage`])).status).toBe(201);
      expect((await member.api.get(apiPath(api.getUsage, { project }))).status).toBe(200);
      const off = await owner.api.put<Account>(accountPath(project, member.account.id), { permissions: [`cst:${project}:usage`], active: false });
      expect(off.status).toBe(200);
      expect(off.body.active).toBe(false);
      expect((await member.api.get(apiPath(api.getUsage, { project }))).status).toBe(401);
      expect((await owner.api.put(accountPath(project, member.account.id), { permissions: [`cst:${project}:usage`], active: true })).status).toBe(
        200,
      );
      expect((await member.api.get(apiPath(api.getUsage, { project }))).status).toBe(401);
    });
  });

  describe('service accounts and their tokens', () => {
    it('creates one with its token shown once; the token lists the project’s apps by bearer, no cookie or XSRF needed', async () => {
      const appId = await createApp(owner, projectId, 'Deployed app');
      const created = await newServiceAccount(projectId, [`cst:${projectId}:apps`]);
      expect(created.token).toMatch(/^lks_[A-Za-z0-9_-]{43}$/);
      const apps = await withBearer<{ list: Application[] }>(created.token, 'GET', apiPath(api.listApps, { project: projectId }));
      expect(apps.status).toBe(200);
      expect(apps.body.list.map((a) => a.id)).toContain(appId);
      // A write with the bearer needs no XSRF header.
      const renamed = await withBearer<Application>(created.token, 'PUT', apiPath(api.updateApp, { application: appId }), {
        name: 'Renamed by CI',
        logoUrl: '',
        enabled: true,
      });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      // Its permissions hold: the devices list is not one of them.
      expect((await withBearer(created.token, 'GET', apiPath(api.listDevices, { project: projectId }))).status).toBe(403);

      const account = await accountOf(projectId, created.id);
      expect(account).toMatchObject({ isServiceAccount: true, name: 'CI deploy', email: null, permissions: [`cst:${projectId}:apps`] });
      expect(account.token).toMatchObject({ prefix: created.token.slice(0, 10), expiresAt: null, lastUsedIp: '127.0.0.1' });
      expect(account.token?.lastUsedAt).toEqual(expect.any(String));
      expect(JSON.stringify(account)).not.toContain(created.token);
      // Stored as a keyed hash only: no row of the database holds the token.
      const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM service_account_tokens WHERE token_hash = $1 OR prefix = $1`, [
        created.token,
      ]);
      expect(rows[0]?.n).toBe(0);
      const { rows: events } = await t.db.query<{ text: string }>(`SELECT details::text AS text FROM audit_events WHERE project_id = $1`, [
        projectId,
      ]);
      expect(events.some((e) => e.text.includes(created.token))).toBe(false);
    });

    it('answers 401 for a malformed, unknown, revoked, rotated, expired or inactive token — whatever cookie comes with it', async () => {
      const list = apiPath(api.listApps, { project: projectId });
      for (const bad of ['', 'lks_', 'lks_' + 'x'.repeat(43), 'not-a-token', 'x'.repeat(300)]) {
        expect((await withBearer(bad, 'GET', list)).status, bad).toBe(401);
      }
      // A valid cookie does not rescue a bad bearer token: the token alone decides.
      const mixed = await owner.api.get(list, { headers: { authorization: 'Bearer lks_unknown' } });
      expect(mixed.status).toBe(401);

      const rotated = await newServiceAccount(projectId, [`cst:${projectId}:apps`]);
      const next = await owner.api.post<ServiceAccountToken>(tokenPath(projectId, rotated.id), {});
      expect(next.status).toBe(200);
      expect((await withBearer(rotated.token, 'GET', list)).status).toBe(401);
      expect((await withBearer(next.body.token as string, 'GET', list)).status).toBe(200);

      const revoked = await newServiceAccount(projectId, [`cst:${projectId}:apps`]);
      expect((await owner.api.post(revokePath(projectId, revoked.id))).status).toBe(200);
      expect((await withBearer(revoked.token, 'GET', list)).status).toBe(401);
      expect((await accountOf(projectId, revoked.id)).token).toBeNull();
      expect((await owner.api.post(revokePath(projectId, revoked.id))).status).toBe(409);

      const expiring = await newServiceAccount(projectId, [`cst:${projectId}:apps`], {
        expiresAt: new Date(app.clock.now().getTime() + HOUR).toISOString(),
      });
      expect((await withBearer(expiring.token, 'GET', list)).status).toBe(200);
      app.clock.advance(HOUR + 1);
      expect((await withBearer(expiring.token, 'GET', list)).status).toBe(401);

      const deactivated = await newServiceAccount(projectId, [`cst:${projectId}:apps`]);
      expect((await owner.api.put(accountPath(projectId, deactivated.id), { permissions: [`cst:${projectId}:apps`], active: false })).status).toBe(
        200,
      );
      expect((await withBearer(deactivated.token, 'GET', list)).status).toBe(401);
      expect((await owner.api.put(accountPath(projectId, deactivated.id), { permissions: [`cst:${projectId}:apps`], active: true })).status).toBe(
        200,
      );
      expect((await withBearer(deactivated.token, 'GET', list)).status).toBe(401);
    });

    it('an account created inactive gets no token; activating it makes none work, its first token is made on its page (issue 21)', async () => {
      const list = apiPath(api.listApps, { project: projectId });
      const res = await owner.api.post<ServiceAccountToken>(serviceAccountsPath(projectId), {
        name: 'Dormant',
        permissions: [`cst:${projectId}:apps`],
        active: false,
      });
      expect(res.status).toBe(201);
      expect(res.body.token).toBeNull();
      const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM service_account_tokens WHERE account_id = $1', [res.body.id]);
      expect(rows[0]?.n).toBe(0);
      expect((await owner.api.post<ErrorAnswer>(tokenPath(projectId, res.body.id), {})).status).toBe(409);
      const activated = await owner.api.put(accountPath(projectId, res.body.id), { permissions: [`cst:${projectId}:apps`], active: true });
      expect(activated.status).toBe(200);
      expect((await accountOf(projectId, res.body.id)).token).toBeNull();
      const first = await owner.api.post<ServiceAccountToken>(tokenPath(projectId, res.body.id), {});
      expect(first.status).toBe(200);
      expect((await withBearer(first.body.token as string, 'GET', list)).status).toBe(200);
    });

    it('a service account creates no project (403), and an account keeps a permission on its project (400)', async () => {
      const created = await newServiceAccount(projectId, [`cst:${projectId}:apps`]);
      const res = await withBearer<ErrorAnswer>(created.token, 'POST', '/api/projects', { name: 'Mine', pinLength: 4, email: 'ci@example.test' });
      expect(res.status).toBe(403);
      const onlyGlobal = await owner.api.put<ErrorAnswer>(accountPath(projectId, created.id), { permissions: ['glb::usage'], active: true });
      expect(onlyGlobal.status).toBe(400);
    });

    it('refuses an expiry in the past and a service account without a name (400)', async () => {
      const past = await owner.api.post<ErrorAnswer>(serviceAccountsPath(projectId), {
        name: 'x',
        permissions: [`cst:${projectId}:apps`],
        active: true,
        expiresAt: new Date(app.clock.now().getTime() - 1000).toISOString(),
      });
      expect(past.status).toBe(400);
      const unnamed = await owner.api.post<ErrorAnswer>(serviceAccountsPath(projectId), {
        name: ' ',
        permissions: [`cst:${projectId}:apps`],
        active: true,
      });
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.issues?.[0]).toMatchObject({ field: 'name', message: 'Required' });
    });
  });

  // 401 without a session, 404 for another project and 403 without `accounts`, for every call: the
  // contract walk (api-modules.test.ts) reads them from the contract entries.
  describe('a closed project', () => {
    let closed: string;
    beforeAll(async () => {
      closed = await createProject(owner);
      await closeProject(owner, closed);
    });

    it('a closed project’s accounts are read, and every write is 409 project_closed', async () => {
      expect((await owner.api.get(accountsPath(closed))).status).toBe(200);
      const valid: Array<['POST' | 'PUT', string, unknown]> = [
        ['POST', accountsPath(closed), { email: uniqueEmail('late'), permissions: [`cst:${closed}:usage`] }],
        ['PUT', accountPath(closed, owner.account.id), { permissions: [`cst:${closed}:*`], active: true }],
        ['POST', serviceAccountsPath(closed), { name: 'late', permissions: [`cst:${closed}:apps`], active: true }],
      ];
      for (const [method, path, body] of valid) {
        const res = await owner.api.call<ErrorAnswer>(method, path, body);
        expect(res.status, path).toBe(409);
        expect(res.body.error).toBe('project_closed');
      }
    });
  });
});
