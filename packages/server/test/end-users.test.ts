import * as client from 'openid-client';
import { expect, it } from 'vitest';
import { buildPath, endUsersApi, type EndUser, type EndUserData, type EndUserDetail, type EndUserList, type Endpoint } from '@latchkey/domain';
import { userIdForEmail, userIdForIdentity } from '../src/people/end-users.repository.ts';
import { anonymous, signedInAccount, uniqueEmail, useTestApp, type ApiResponse, type SignedIn, type TestApp } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeEachDatabase, describeWithDatabase } from './support/databases.ts';
import { endUserSignIns } from './support/end-user-sign-in.ts';
import { closeProject, createProject, storeDevice } from './support/fixtures.ts';
import { OFFLINE, projectWithRelyingParty, refusal } from './support/relying-party.ts';
import { submitEmail } from './support/sign-in.ts';
import type { Db } from '../src/db/db.ts';

interface ErrorAnswer {
  error: string;
  message: string;
}

const path = (e: Pick<Endpoint, 'path'>, params: Record<string, string>) => `/api${buildPath(e.path, params)}`;

/** A project's end user made the way a first sign-in makes one, with `devices` passkeys (the first `revoked` of them revoked). */
async function endUserIn(app: TestApp, db: Db, projectId: string, o: { email?: string; devices?: number; revoked?: number } = {}) {
  const email = o.email ?? uniqueEmail('person');
  const id = await userIdForEmail(db, { projectId, email, now: app.clock.now() });
  const mpinIds: string[] = [];
  for (let i = 0; i < (o.devices ?? 0); i += 1)
    mpinIds.push(await storeDevice(db, { projectId, userId: id, createdAt: app.clock.now(), name: `Phone ${i}` }));
  for (const mpinId of mpinIds.slice(0, o.revoked ?? 0)) {
    await db.query(`UPDATE devices SET revoked = true, revoked_at = now(), revoke_reason = 'PORTAL_REVOKE' WHERE project_id = $1 AND id = $2`, [
      projectId,
      mpinId,
    ]);
  }
  return { id, email, mpinIds };
}

/** Every call of the users API, on `user` of `project`: GETs read, the others change. */
function calls(project: string, user: string): Array<[string, (by: { api: SignedIn['api'] }) => Promise<ApiResponse<unknown>>, 'read' | 'change']> {
  const p = { project, user };
  return [
    ['list', (by) => by.api.get(path(endUsersApi.listEndUsers, p)), 'read'],
    ['export the list', (by) => by.api.get(`${path(endUsersApi.exportEndUsers, p)}?format=jsonl`), 'read'],
    ['get', (by) => by.api.get(path(endUsersApi.getEndUser, p)), 'read'],
    ['export the data', (by) => by.api.get(path(endUsersApi.exportEndUserData, p)), 'read'],
    ['end the sessions', (by) => by.api.post(path(endUsersApi.endEndUserSessions, p)), 'change'],
    // Issue 37: the re-enrollment link, guarded as the other changes (docs/decisions/0051).
    ['create a re-enrollment link', (by) => by.api.post(path(endUsersApi.createReenrollmentLink, p)), 'change'],
    ['block', (by) => by.api.post(path(endUsersApi.blockEndUser, p)), 'change'],
    ['unblock', (by) => by.api.post(path(endUsersApi.unblockEndUser, p)), 'change'],
    ['delete', (by) => by.api.call('DELETE', path(endUsersApi.deleteEndUser, p)), 'change'],
  ];
}

// Issue 24 "Users in the console"; the guards: docs/decisions/0038.
describeWithDatabase('end users: who may do what', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '100' } });

  it('lets cst:{p}:revocation do everything, cst:{p}:audit read only (403 on changes), answers 403 to cst:{p}:apps alone, 404 to another project’s admin, 401 to no one', async () => {
    const owner = await signedInAccount(app, t.db);
    const projectId = await createProject(owner);
    const revocation = await signedInAccount(app, t.db, [`cst:${projectId}:revocation`]);
    const auditor = await signedInAccount(app, t.db, [`cst:${projectId}:audit`]);
    const appsOnly = await signedInAccount(app, t.db, [`cst:${projectId}:apps`]);
    const outsider = await signedInAccount(app, t.db);
    await createProject(outsider);
    const { id } = await endUserIn(app, t.db, projectId, { devices: 1 });

    for (const [name, call, kind] of calls(projectId, id)) {
      if (kind === 'read') expect((await call(auditor)).status, `audit: ${name}`).toBe(200);
      else expect((await call(auditor)).status, `audit: ${name}`).toBe(403);
      expect((await call(appsOnly)).status, `apps: ${name}`).toBe(403);
      expect((await call(outsider)).status, `outsider: ${name}`).toBe(404);
      expect((await call({ api: anonymous(app) })).status, `anonymous: ${name}`).toBe(401);
    }
    // Nothing changed meanwhile; the one holding revocation changes it, in the calls' order (delete last).
    expect((await revocation.api.get<EndUserDetail>(path(endUsersApi.getEndUser, { project: projectId, user: id }))).body.status).toBe('active');
    for (const [name, call] of calls(projectId, id)) expect((await call(revocation)).status, `revocation: ${name}`).toBe(200);
    expect((await revocation.api.get(path(endUsersApi.getEndUser, { project: projectId, user: id }))).status).toBe(404);
  });

  it('answers 404 about a user of another project, even to an admin of both, and 409 in a closed project — nothing changes', async () => {
    const admin = await signedInAccount(app, t.db);
    const a = await createProject(admin);
    const b = await createProject(admin);
    const { id } = await endUserIn(app, t.db, a);
    for (const [name, call] of calls(b, id).filter(([n]) => n !== 'list' && n !== 'export the list')) {
      const res = await call(admin);
      expect(res.status, name).toBe(404);
      expect((res.body as ErrorAnswer).error).toBe('not_found');
    }
    await closeProject(admin, a);
    const blocked = await admin.api.post<ErrorAnswer>(path(endUsersApi.blockEndUser, { project: a, user: id }));
    expect(blocked.status).toBe(409);
    expect((await admin.api.get<EndUser>(path(endUsersApi.getEndUser, { project: a, user: id }))).body.status).toBe('active');
  });

  it('finds a user by the start of their identity or their id in the search, for whom may see users only', async () => {
    const owner = await signedInAccount(app, t.db);
    const projectId = await createProject(owner);
    const { id, email } = await endUserIn(app, t.db, projectId);
    const search = (by: SignedIn, q: string) =>
      by.api.get<{ results: Array<{ kind: string; id: string; exact: boolean; blocked?: boolean }> }>(`/api/search?${new URLSearchParams({ q })}`);
    const auditor = await signedInAccount(app, t.db, [`cst:${projectId}:audit`]);
    const appsOnly = await signedInAccount(app, t.db, [`cst:${projectId}:apps`]);
    const users = (r: { body: { results: Array<{ kind: string; id: string; exact: boolean }> } }) => r.body.results.filter((x) => x.kind === 'user');
    expect(users(await search(auditor, email.slice(0, 12).toUpperCase()))).toEqual([expect.objectContaining({ id, exact: false })]);
    expect(users(await search(owner, id))).toEqual([expect.objectContaining({ id, exact: true, blocked: false })]);
    expect(users(await search(appsOnly, email))).toEqual([]);
  });

  it('needs the XSRF header on a cookie session for a change (403 xsrf_failed, nothing changes)', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const { id } = await endUserIn(app, t.db, projectId);
    const res = await admin.api.post<ErrorAnswer>(path(endUsersApi.blockEndUser, { project: projectId, user: id }), undefined, { xsrf: false });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('xsrf_failed');
    expect((await admin.api.get<EndUser>(path(endUsersApi.getEndUser, { project: projectId, user: id }))).body.status).toBe('active');
  });
});

describeWithDatabase('end users: blocking, sessions, at the issuer', (t) => {
  const app = useTestApp(t, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  const { open, signedInStraightAway, newUserWithPasskey, passkeyAnswer, signInWithPasskey, signInWithCode } = endUserSignIns(app);

  const userOf = async (projectId: string, email: string) =>
    (await t.db.query<{ id: string }>('SELECT id FROM project_users WHERE project_id = $1 AND email = $2', [projectId, email])).rows[0]?.id as string;
  const eventsOf = async (projectId: string, action: string) =>
    (
      await t.db.query<{ event_status: string; user_id: string; details: Record<string, unknown> }>(
        `SELECT event_status, user_id, details FROM audit_events WHERE project_id = $1 AND details->>'action' = $2 ORDER BY id`,
        [projectId, action],
      )
    ).rows;

  it('shows the user’s passkeys, open sessions and last sign-in on their page', async () => {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    const { email, passkey } = await newUserWithPasskey(new Browser(), p);
    const before = app.clock.now();
    await signInWithPasskey(new Browser(), p, email, passkey);
    const id = await userOf(p.projectId, email);
    const page = await admin.api.get<EndUserDetail>(path(endUsersApi.getEndUser, { project: p.projectId, user: id }));
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ id, identity: email, identityType: 'email', status: 'active', activeDevices: 1, blockedAt: null });
    expect(new Date(page.body.lastSignInAt as string).getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(page.body.devices.map((d) => d.mpinId)).toEqual([passkey.id]);
    // Two provider sessions, both started with the passkey: its creation's and its sign-in's.
    expect(page.body.sessions.map((s) => [s.mpinId, s.deviceName])).toEqual([
      [passkey.id, page.body.devices[0]?.deviceName],
      [passkey.id, page.body.devices[0]?.deviceName],
    ]);
    // Each session names the test app by its client id and its name.
    expect(page.body.sessions.every((s) => s.applications.some((a) => a.clientId === p.keys.clientId && a.name !== null))).toBe(true);
  });

  it('blocks a user: their sessions and tokens end, every sign-in is refused with a page (denied) until unblocked', async () => {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    const signedIn = new Browser();
    const { email, passkey } = await newUserWithPasskey(signedIn, p);
    const offline = await signInWithPasskey(new Browser(), p, email, passkey, OFFLINE);
    const id = await userOf(p.projectId, email);
    const user = { project: p.projectId, user: id };

    const blocked = await admin.api.post<EndUser>(path(endUsersApi.blockEndUser, user));
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(blocked.body).toMatchObject({ status: 'blocked', blockedAt: app.clock.now().toISOString() });
    expect((await admin.api.post<ErrorAnswer>(path(endUsersApi.blockEndUser, user))).status).toBe(409);
    expect((await eventsOf(p.projectId, 'user.block'))[0]).toMatchObject({ event_status: 'success', user_id: id, details: { sessionsEnded: 2 } });

    // Tokens and sessions ended.
    expect(await refusal(client.refreshTokenGrant(p.config, offline.refresh_token as string))).toBe('invalid_grant');
    expect(signedInStraightAway((await open(signedIn, p)).end)).toBe(false);
    // A passkey sign-in and an emailed code are refused with the page, each a denied event.
    const { after } = await passkeyAnswer(new Browser(), p, email, passkey);
    expect(after.status).toBe(403);
    expect(after.text).toContain('You cannot sign in');
    const browser = new Browser();
    const { end: page1 } = await open(browser, p);
    const passkeyPage = await submitEmail(browser, page1, email);
    expect(passkeyPage.status).toBe(200);
    await expect(signInWithCode(new Browser(), p, email)).rejects.toThrow();
    const denied = (await eventsOf(p.projectId, 'sign_in')).filter((e) => e.event_status === 'denied');
    expect(denied.map((e) => e.details.reason)).toEqual(['user_blocked', 'user_blocked']);

    const unblocked = await admin.api.post<EndUser>(path(endUsersApi.unblockEndUser, user));
    expect(unblocked.body).toMatchObject({ status: 'active', blockedAt: null });
    expect((await admin.api.post(path(endUsersApi.unblockEndUser, user))).status).toBe(409);
    expect((await signInWithPasskey(new Browser(), p, email, passkey)).claims()?.sub).toBe(id);
  });

  it('ends one session of the user, or all of them', async () => {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    const first = new Browser();
    const { email, passkey } = await newUserWithPasskey(first, p);
    const second = new Browser();
    await signInWithPasskey(second, p, email, passkey);
    const user = { project: p.projectId, user: await userOf(p.projectId, email) };
    const page = await admin.api.get<EndUserDetail>(path(endUsersApi.getEndUser, user));
    expect(page.body.sessions).toHaveLength(2);
    const session = page.body.sessions[0]?.id as string;

    const one = await admin.api.post(path(endUsersApi.endEndUserSession, { ...user, session }));
    expect(one.body).toEqual({ ended: 1 });
    // One browser is asked to sign in again, the other is not.
    const straight = [signedInStraightAway((await open(first, p)).end), signedInStraightAway((await open(second, p)).end)];
    expect(straight.sort()).toEqual([false, true]);
    expect((await admin.api.post(path(endUsersApi.endEndUserSession, { ...user, session }))).status).toBe(404);

    expect((await admin.api.post(path(endUsersApi.endEndUserSessions, user))).body).toEqual({ ended: 1 });
    for (const browser of [first, second]) expect(signedInStraightAway((await open(browser, p)).end)).toBe(false);
    expect((await admin.api.get<EndUserDetail>(path(endUsersApi.getEndUser, user))).body.sessions).toEqual([]);
  });
});

describeEachDatabase('end users: the list, the data export, erasure', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '100' } });

  it('lists every user by default, newest first, with active passkeys counted; filters by identity start and status; sorts by identity', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const made: Array<{ id: string; email: string }> = [];
    for (const [name, devices, revoked] of [
      ['carol', 2, 1],
      ['alice', 1, 0],
      ['bob', 0, 0],
    ] as const) {
      made.push(await endUserIn(app, t.db, projectId, { email: `${name}-${made.length}@example.test`, devices, revoked }));
    }
    const byId = await userIdForIdentity(t.db, { projectId, identity: { type: 'alphanumeric', value: 'dave42' }, now: app.clock.now() });
    // Created more than a year apart, the oldest years ago: no default range hides any of them.
    for (const [i, user] of [...made, { id: byId }].entries()) {
      await t.db.query(`UPDATE project_users SET created_at = now() - make_interval(days => $3::int) WHERE project_id = $1 AND id = $2`, [
        projectId,
        user.id,
        (3 - i) * 400,
      ]);
    }
    const list = (query = '') => admin.api.get<EndUserList>(`${path(endUsersApi.listEndUsers, { project: projectId })}${query}`);

    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.list.map((u) => u.identity)).toEqual(['dave42', 'bob-2@example.test', 'alice-1@example.test', 'carol-0@example.test']);
    expect(all.body.list.map((u) => u.activeDevices)).toEqual([0, 0, 1, 1]);
    expect(all.body.list[0]).toMatchObject({ id: byId, identityType: 'alphanumeric', status: 'active', lastSignInAt: null });

    expect((await list('?identity=ALI')).body.list.map((u) => u.id)).toEqual([made[1]?.id]);
    await admin.api.post(path(endUsersApi.blockEndUser, { project: projectId, user: made[2]?.id as string }));
    expect((await list('?status=blocked')).body.list.map((u) => u.identity)).toEqual(['bob-2@example.test']);
    expect((await list('?status=active')).body.total).toBe(3);
    expect((await list('?sort=identity&direction=asc')).body.list.map((u) => u.identity)).toEqual([
      'alice-1@example.test',
      'bob-2@example.test',
      'carol-0@example.test',
      'dave42',
    ]);
    const bad = await list('?status=gone');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'validation_failed' });
  });

  it('exports everything held about a user as one JSON document: the user, their passkeys and their events', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const { id, email, mpinIds } = await endUserIn(app, t.db, projectId, { devices: 2 });
    await admin.api.post(path(endUsersApi.blockEndUser, { project: projectId, user: id }));
    const res = await admin.api.get<EndUserData>(path(endUsersApi.exportEndUserData, { project: projectId, user: id }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ projectId, user: { id, identity: email, status: 'blocked' } });
    expect(res.body.devices.map((d) => d.mpinId).sort()).toEqual([...mpinIds].sort());
    expect(res.body.events.map((e) => (e.details as { action: string }).action)).toEqual(['user.block']);
  });

  it('erases a user: no copy of the identity stays in any table; their events stay under a pseudonym, without address or user agent; usage unchanged', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const email = uniqueEmail('erased');
    const { id, mpinIds } = await endUserIn(app, t.db, projectId, { email, devices: 2 });
    // Their events as the issuer writes them: a sign-in (counted in usage) and a refusal.
    const { projectEvents } = await import('../src/events/project-events.ts');
    const events = projectEvents({ db: t.db, clock: app.clock, secretBox: app.services.secretBox, countries: { countryOf: () => 'RO' }, projectId });
    const origin = { ip: '203.0.113.9', userAgent: 'Firefox/130', clientId: null };
    await events.recordNow(origin, {
      scope: 'oidc',
      status: 'success',
      action: 'sign_in',
      userId: email,
      usage: 'oidc',
      details: { method: 'passkey', mpinId: mpinIds[0] },
    });
    await events.refusal(origin, { scope: 'oidc', status: 'failed', action: 'sign_in', userId: email, details: { method: 'email_code', email } });
    const usage = async () =>
      (await t.db.query<{ n: number }>('SELECT coalesce(sum(count), 0)::int AS n FROM usage_daily WHERE project_id = $1', [projectId])).rows[0]?.n;
    const usageBefore = await usage();
    expect(usageBefore).toBe(1);
    const other = await endUserIn(app, t.db, projectId, { devices: 1 });

    const res = await admin.api.call<{ id: string; deleted: boolean; pseudonym: string }>(
      'DELETE',
      path(endUsersApi.deleteEndUser, { project: projectId, user: id }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id, deleted: true, pseudonym: expect.stringMatching(/^deleted-/) });
    expect((await admin.api.get(path(endUsersApi.getEndUser, { project: projectId, user: id }))).status).toBe(404);

    // A dump of every table: the address is nowhere, in any case.
    const { rows: tables } = await t.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')`,
    );
    const dump: string[] = [];
    for (const { name } of tables) {
      const { rows } = await t.db.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
      dump.push(...rows.map((r) => r.row));
    }
    expect(dump.filter((row) => row.toLowerCase().includes(email.toLowerCase()))).toEqual([]);
    expect(dump.filter((row) => row.includes(id))).toEqual([]);
    // Nor their passkeys' credential ids (an event's details named one).
    expect(dump.filter((row) => mpinIds.some((mpinId) => row.includes(mpinId)))).toEqual([]);

    const { rows: kept } = await t.db.query<{
      user_id: string;
      ip: string | null;
      user_agent: string | null;
      country: string | null;
      details: Record<string, unknown>;
    }>(`SELECT user_id, ip, user_agent, country, details FROM audit_events WHERE project_id = $1 AND scope = 'oidc' ORDER BY id`, [projectId]);
    expect(kept).toHaveLength(2);
    expect(kept.every((e) => e.user_id === res.body.pseudonym && e.ip === null && e.user_agent === null && e.country === 'RO')).toBe(true);
    expect(kept[1]?.details).toMatchObject({ action: 'sign_in', email: res.body.pseudonym });
    expect(kept[0]?.details).toMatchObject({ action: 'sign_in', method: 'passkey', mpinId: null });
    expect(await usage()).toBe(usageBefore);
    // The deletion is an event too, naming the pseudonym only; the other user is untouched.
    const { rows: deletion } = await t.db.query<{ user_id: string }>(
      `SELECT user_id FROM audit_events WHERE project_id = $1 AND details->>'action' = 'user.delete'`,
      [projectId],
    );
    expect(deletion).toEqual([{ user_id: res.body.pseudonym }]);
    expect((await admin.api.get<EndUserDetail>(path(endUsersApi.getEndUser, { project: projectId, user: other.id }))).body.activeDevices).toBe(1);
  });
});
