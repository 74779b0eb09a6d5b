import { beforeAll, describe, expect, it } from 'vitest';
import { api, type SearchParams, type SearchResponse, type SearchResult, type ServiceAccountToken } from '@latchkey/domain';
import { userIdForEmail } from '../src/people/end-users.repository.ts';
import { anonymous, signedInAccount, useTestApp, type ApiClient, type ApiResponse, type SignedIn } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, closeProject, createApp, createKeys, createProject, storeAuditEvent, storeDevice } from './support/fixtures.ts';

interface ErrorAnswer {
  error: string;
  issues?: Array<{ field: string; code: string }>;
}

/** Issue 13 "Find anything" (docs/decisions/0023): GET /search across the projects the caller can see. */
describeEachDatabase('search', (t) => {
  const app = useTestApp(t);

  function searchWith(client: ApiClient, query: SearchParams | Record<string, string>): Promise<ApiResponse<SearchResponse & ErrorAnswer>> {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    return client.get<SearchResponse & ErrorAnswer>(`${apiPath(api.search)}?${params}`);
  }
  async function found(by: SignedIn | ApiClient, query: SearchParams): Promise<SearchResult[]> {
    const res = await searchWith('api' in by ? by.api : by, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.results;
  }
  /** kind:id of each result, to compare what was found. */
  const keys = (results: SearchResult[]) => results.map((r) => `${r.kind}:${r.id}`);

  // A word no other test's names start with, so each test's searches see its own data only.
  const word = () => `w${Math.random().toString(36).slice(2, 9)}`;

  /**
   * Project A (made by its admin) with an app and its keys, a service account, a device and an
   * audit event, all named after `tag`; project B of another admin with the same kinds of things.
   */
  async function world() {
    const tag = word();
    const adminA = await signedInAccount(app, t.db, [], `${tag}-admin-a@example.test`);
    const a = await createProject(adminA, `${tag} Alpha`);
    const appA = await createApp(adminA, a, `${tag} portal`);
    const keysA = await createKeys(adminA, appA);
    const adminB = await signedInAccount(app, t.db, [], `${tag}-admin-b@example.test`);
    const b = await createProject(adminB, `${tag} Beta`);
    const appB = await createApp(adminB, b, `${tag} portal`);
    const service = await adminA.api.post<ServiceAccountToken>(apiPath(api.createServiceAccount, { project: a }), {
      name: `${tag} deployer`,
      permissions: [`cst:${a}:apps`],
      active: true,
    });
    expect(service.status, JSON.stringify(service.body)).toBe(201);
    const at = app.clock.now();
    const person = `${tag}.person@example.test`;
    const deviceA = await storeDevice(t.db, {
      projectId: a,
      userId: await userIdForEmail(t.db, { projectId: a, email: person, now: at }),
      createdAt: at,
      name: 'Pixel 8',
    });
    const deviceB = await storeDevice(t.db, {
      projectId: b,
      userId: await userIdForEmail(t.db, { projectId: b, email: person, now: at }),
      createdAt: at,
    });
    await storeAuditEvent(t.db, a, {
      action: `sign_in`,
      at,
      userId: person,
      deviceName: 'Pixel 8',
      scope: 'oidc',
      result: 'success',
      details: { tag },
    });
    await storeAuditEvent(t.db, b, {
      action: `sign_in`,
      at,
      userId: person,
      deviceName: 'Pixel 8',
      scope: 'oidc',
      result: 'failed',
      details: { tag },
    });
    const eventOf = async (project: string) =>
      (await t.db.query<{ id: string }>(`SELECT id::text AS id FROM audit_events WHERE project_id = $1 AND details->>'tag' = $2`, [project, tag]))
        .rows[0]?.id as string;
    return {
      tag,
      at,
      person,
      adminA,
      adminB,
      a,
      b,
      appA,
      appB,
      clientIdA: keysA.clientId,
      service: service.body,
      deviceA,
      deviceB,
      eventA: await eventOf(a),
      eventB: await eventOf(b),
    };
  }

  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world();
  });

  describe('finds each kind by each of its fields', () => {
    it('a project by its id (any case) and by the start of its name (any case); its name and state come with it', async () => {
      for (const q of [w.a, w.a.toUpperCase()]) {
        const results = await found(w.adminA, { q });
        expect(results[0]).toEqual({
          kind: 'project',
          id: w.a,
          projectId: w.a,
          projectName: `${w.tag} Alpha`,
          projectEnabled: true,
          title: `${w.tag} Alpha`,
          detail: null,
          exact: true,
        });
      }
      expect(keys(await found(w.adminA, { q: `${w.tag.toUpperCase()} al` }))).toEqual([`project:${w.a}`]);
      // Not the middle of a name: "Alpha" is not how the name starts.
      expect(keys(await found(w.adminA, { q: 'Alpha' })).filter((k) => k === `project:${w.a}`)).toEqual([]);
    });

    it('an application by its id, its client id, the start of its client id, and the start of its name', async () => {
      const expected = {
        kind: 'app',
        id: w.appA,
        projectId: w.a,
        projectName: `${w.tag} Alpha`,
        projectEnabled: true,
        title: `${w.tag} portal`,
        detail: w.clientIdA,
        clientId: w.clientIdA,
        enabled: true,
      };
      expect((await found(w.adminA, { q: w.appA.toUpperCase() })).find((r) => r.kind === 'app')).toEqual({ ...expected, exact: true });
      expect((await found(w.adminA, { q: w.clientIdA })).find((r) => r.kind === 'app')).toEqual({ ...expected, exact: true });
      expect((await found(w.adminA, { q: w.clientIdA.slice(0, 10) })).find((r) => r.kind === 'app')).toEqual({ ...expected, exact: false });
      expect((await found(w.adminA, { q: `${w.tag} PORT` })).filter((r) => r.kind === 'app')).toEqual([{ ...expected, exact: false }]);
    });

    it('an account by its id, the start of its email, a service account by the start of its name', async () => {
      const staff = {
        kind: 'account',
        id: w.adminA.account.id,
        projectId: w.a,
        title: `${w.tag}-admin-a@example.test`,
        email: `${w.tag}-admin-a@example.test`,
        serviceAccount: false,
        active: true,
      };
      expect((await found(w.adminA, { q: w.adminA.account.id })).find((r) => r.kind === 'account')).toMatchObject({ ...staff, exact: true });
      expect((await found(w.adminA, { q: `${w.tag}-ADMIN-a@` })).filter((r) => r.kind === 'account')).toMatchObject([{ ...staff, exact: false }]);
      expect((await found(w.adminA, { q: `${w.tag}-admin-a@example.test` })).filter((r) => r.kind === 'account')).toMatchObject([
        { ...staff, exact: true },
      ]);
      expect((await found(w.adminA, { q: `${w.tag} Deploy` })).filter((r) => r.kind === 'account')).toMatchObject([
        {
          kind: 'account',
          id: w.service.id,
          projectId: w.a,
          title: `${w.tag} deployer`,
          email: null,
          serviceAccount: true,
          active: true,
          exact: false,
        },
      ]);
    });

    it('a device by its mpinId and by its owner’s whole identity or its start, with what the devices list filters by', async () => {
      const expected = {
        kind: 'device',
        id: w.deviceA,
        projectId: w.a,
        projectName: `${w.tag} Alpha`,
        projectEnabled: true,
        title: 'Pixel 8',
        detail: w.person,
        userId: w.person,
        deviceName: 'Pixel 8',
        revoked: false,
        createdAt: w.at.toISOString(),
      };
      expect((await found(w.adminA, { q: w.deviceA })).filter((r) => r.kind === 'device')).toEqual([{ ...expected, exact: true }]);
      expect((await found(w.adminA, { q: w.person.toUpperCase() })).filter((r) => r.kind === 'device')).toEqual([{ ...expected, exact: true }]);
      expect((await found(w.adminA, { q: `${w.tag}.pers` })).filter((r) => r.kind === 'device')).toEqual([{ ...expected, exact: false }]);
    });

    it('an audit event by its id (any case), with its time and user for the audit log’s filter', async () => {
      const expected = {
        kind: 'audit',
        id: w.eventA,
        projectId: w.a,
        projectName: `${w.tag} Alpha`,
        projectEnabled: true,
        title: 'sign_in',
        detail: w.person,
        exact: true,
        createdAt: w.at.toISOString(),
        userId: w.person,
        scope: 'oidc',
        eventStatus: 'success',
        action: 'sign_in',
      };
      expect(await found(w.adminA, { q: w.eventA })).toEqual([expected]);
      expect(await found(w.adminA, { q: w.eventA.toUpperCase() })).toEqual([expected]);
      // The start of an id is not an id.
      expect(await found(w.adminA, { q: w.eventA.slice(0, 20) })).toEqual([]);
    });

    it('takes %, _ and \\ as plain characters, and finds nothing for a text nothing starts with', async () => {
      for (const q of ['%', '_', '\\', `${w.tag}%`, 'zzzz-nothing-starts-like-this']) expect(await found(w.adminA, { q })).toEqual([]);
    });
  });

  describe('permissions: only what the page each result opens would show', () => {
    it('shows an account holding only usage on A the project A, and none of its apps, accounts, devices or events', async () => {
      const viewer = await signedInAccount(app, t.db, [`cst:${w.a}:usage`]);
      expect(keys(await found(viewer, { q: w.tag }))).toEqual([`project:${w.a}`]);
      for (const q of [w.appA, w.clientIdA, w.adminA.account.id, w.service.id, w.deviceA, w.person, w.eventA])
        expect(await found(viewer, { q }), q).toEqual([]);
    });

    it('shows an account of another project nothing of A, not even its name, by any id or name', async () => {
      const outsider = await signedInAccount(app, t.db, [`cst:${w.b}:*`]);
      const all = [w.a, `${w.tag} Alpha`, w.appA, w.clientIdA, w.adminA.account.id, w.service.id, w.deviceA, w.eventA];
      for (const q of all)
        expect(
          (await found(outsider, { q })).filter((r) => r.projectId === w.a || r.projectName.includes('Alpha')),
          q,
        ).toEqual([]);
      // B's things, which it may see, it finds.
      expect(keys(await found(outsider, { q: w.tag }))).toEqual(expect.arrayContaining([`project:${w.b}`, `app:${w.appB}`]));
      expect(keys(await found(outsider, { q: w.eventB }))).toEqual([`audit:${w.eventB}`]);
      // An account with no permission at all finds nothing.
      const nobody = await signedInAccount(app, t.db);
      for (const q of [w.tag, w.a, w.eventA]) expect(await found(nobody, { q }), q).toEqual([]);
    });

    it('gives each kind its own guard: apps, accounts, revocation (devices) and audit, each alone', async () => {
      const cases: Array<[string, string, string]> = [
        ['apps', w.appA, 'app'],
        ['accounts', w.adminA.account.id, 'account'],
        ['revocation', w.deviceA, 'device'],
        ['audit', w.eventA, 'audit'],
      ];
      for (const [scope] of cases) {
        const holder = await signedInAccount(app, t.db, [`cst:${w.a}:${scope}`]);
        for (const [other, q, kind] of cases) {
          const kinds = (await found(holder, { q })).map((r) => r.kind);
          expect(kinds.includes(kind as SearchResult['kind']), `${scope} searching ${other}`).toBe(other === scope);
        }
      }
    });

    it('reaches every project with a global permission: glb::* everything, glb::apps apps and projects only', async () => {
      const global = await signedInAccount(app, t.db, ['glb::*']);
      for (const [q, key] of [
        [w.eventA, `audit:${w.eventA}`],
        [w.eventB, `audit:${w.eventB}`],
        [w.deviceB, `device:${w.deviceB}`],
        [w.appB, `app:${w.appB}`],
        [w.b, `project:${w.b}`],
        [w.adminB.account.id, `account:${w.adminB.account.id}`],
      ] as const)
        expect(keys(await found(global, { q })), q).toContain(key);
      expect(keys(await found(global, { q: w.tag })).sort()).toEqual(
        expect.arrayContaining([`project:${w.a}`, `project:${w.b}`, `app:${w.appA}`, `app:${w.appB}`, `account:${w.service.id}`]),
      );

      const appsEverywhere = await signedInAccount(app, t.db, ['glb::apps']);
      expect(keys(await found(appsEverywhere, { q: w.tag })).sort()).toEqual(
        [`app:${w.appA}`, `app:${w.appB}`, `project:${w.a}`, `project:${w.b}`].sort(),
      );
      for (const q of [w.deviceA, w.eventB, w.person, w.adminA.account.id]) expect(await found(appsEverywhere, { q }), q).toEqual([]);
    });

    it('follows the same rules for a service account’s bearer token', async () => {
      const bearer = anonymous(app);
      const headers = { authorization: `Bearer ${w.service.token}` };
      const ask = async (q: string) => {
        const res = await bearer.get<SearchResponse>(`${apiPath(api.search)}?${new URLSearchParams({ q })}`, { headers });
        expect(res.status).toBe(200);
        return keys(res.body.results);
      };
      expect((await ask(w.tag)).sort()).toEqual([`app:${w.appA}`, `project:${w.a}`].sort());
      for (const q of [w.deviceA, w.eventA, w.appB, w.b]) expect(await ask(q), q).toEqual([]);
    });

    it('needs a session or a token (401)', async () => {
      const res = await searchWith(anonymous(app), { q: w.tag });
      expect(res.status).toBe(401);
    });
  });

  describe('order and limits', () => {
    it('ranks the current project’s matches first, then whole-id matches, and answers at most `limit`', async () => {
      const global = await signedInAccount(app, t.db, ['glb::*']);
      const inA = await found(global, { q: `${w.tag} p`, project: w.a });
      expect(inA.map((r) => [r.kind, r.projectId])).toEqual([
        ['app', w.a],
        ['app', w.b],
      ]);
      const inB = await found(global, { q: `${w.tag} p`, project: w.b });
      expect(inB.map((r) => r.projectId)).toEqual([w.b, w.a]);
      // An exact id beats a name's start outside the current project.
      const tag = word();
      const c = await createProject(w.adminA, `${tag} Gamma`);
      const exact = await found(w.adminA, { q: c.toLowerCase() });
      expect(exact[0]).toMatchObject({ kind: 'project', id: c, exact: true });

      // Many matches: the limit holds, the default is 20.
      for (let i = 0; i < 25; i++) await createApp(w.adminA, c, `${tag} app ${String(i).padStart(2, '0')}`);
      expect(await found(w.adminA, { q: `${tag} app`, limit: 5 })).toHaveLength(5);
      const page = await found(w.adminA, { q: `${tag} app` });
      expect(page).toHaveLength(20);
      expect(page.map((r) => r.title)).toEqual(Array.from({ length: 20 }, (_, i) => `${tag} app ${String(i).padStart(2, '0')}`));
    });

    it('keeps the current project’s matches for an account of a few projects, however many others sort before them', async () => {
      const tag = word();
      const admin = await signedInAccount(app, t.db);
      const first = await createProject(admin, `${tag} First`);
      const second = await createProject(admin, `${tag} Second`);
      for (const name of ['a', 'b', 'c']) await createApp(admin, first, `${tag} ${name}`);
      const late = await createApp(admin, second, `${tag} z`);
      const results = await found(admin, { q: `${tag} `, project: second, limit: 2 });
      expect(results.map((r) => r.id)).toEqual([second, late]);
    });

    it('finds a closed project and its things, marked as closed', async () => {
      const tag = word();
      const admin = await signedInAccount(app, t.db);
      const p = await createProject(admin, `${tag} Closed`);
      const appId = await createApp(admin, p, `${tag} legacy`);
      await closeProject(admin, p);
      const results = await found(admin, { q: tag });
      expect(results.map((r) => [r.kind, r.id, r.projectEnabled])).toEqual([
        ['project', p, false],
        ['app', appId, false],
      ]);
    });
  });

  describe('bad input is a 400 with the validation key, never a 500', () => {
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['no q', {}, 'q', 'validation.required'],
      ['an empty q', { q: '' }, 'q', 'validation.required'],
      ['a blank q', { q: '   ' }, 'q', 'validation.required'],
      ['a q of 251 characters', { q: 'x'.repeat(251) }, 'q', 'validation.max_length'],
      // Refused by the one guard of every query string (docs/decisions/0011), before the entry's schema.
      ['a control character', { q: 'a\u0007b' }, 'query.q', 'validation.invalid_characters'],
      ['limit 0', { q: 'x', limit: '0' }, 'limit', 'validation.out_of_range'],
      ['limit 51', { q: 'x', limit: '51' }, 'limit', 'validation.out_of_range'],
      ['limit not a number', { q: 'x', limit: 'ten' }, 'limit', 'validation.not_a_number'],
      ['an empty project', { q: 'x', project: '' }, 'project', 'validation.required'],
    ];
    it.each(cases)('%s', async (_label, query, field, code) => {
      const res = await searchWith(w.adminA.api, query);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, code }));
    });

    it('takes 250 characters and the limit 50', async () => {
      expect(await found(w.adminA, { q: 'x'.repeat(250), limit: 50 })).toEqual([]);
    });
  });
});
