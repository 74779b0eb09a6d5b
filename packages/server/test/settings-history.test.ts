import { beforeAll, expect, it } from 'vitest';
import {
  api,
  SECRET_CHANGED,
  SETTINGS_HISTORY_PAGE_SIZE,
  type Issuer,
  type Project,
  type SettingsHistory,
  type SettingsPage,
} from '@latchkey/domain';
import { anonymous, signedInAccount, useTestApp, type SignedIn } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, closeProject, createProject, getProject, serviceAccountKey } from './support/fixtures.ts';

interface ErrorAnswer {
  error: string;
  issues?: Array<{ field: string; message: string }>;
}

// Issue 11 "Settings history" (docs/decisions/0021): GET projects/{project}/settings/history lists
// a settings page's changes, newest first, from the audit events every save writes.
describeEachDatabase('settings history (GET projects/{project}/settings/history)', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '100' } });

  let owner: SignedIn;
  let admin: SignedIn;
  let projectId: string;

  const history = (by: SignedIn, project: string, page: SettingsPage | string, cursor?: string) =>
    by.api.get<SettingsHistory & ErrorAnswer>(
      `${apiPath(api.listSettingsHistory, { project })}?${new URLSearchParams({ page, ...(cursor ? { cursor } : {}) })}`,
    );
  async function changesOf(project: string, page: SettingsPage): Promise<SettingsHistory['list']> {
    const res = await history(admin, project, page);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.list;
  }
  async function save(by: SignedIn, project: string, change: (p: Project) => Project): Promise<void> {
    const res = await by.api.put(apiPath(api.updateProject, { project }), change(await getProject(by, project)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  beforeAll(async () => {
    owner = await signedInAccount(app, t.db, ['glb::*']);
    admin = await signedInAccount(app, t.db);
    projectId = await createProject(admin, 'History shop');
    await save(admin, projectId, (p) => ({ ...p, supportEmail: 'help@shop.example', displayName: 'Shop' }));
    await save(admin, projectId, (p) => ({ ...p, name: 'History shop 2', loginOptions: { ...p.loginOptions, browserLoginEnabled: false } }));
    await save(admin, projectId, (p) => ({
      ...p,
      verificationOptions: { ...p.verificationOptions, method: 'fullCustom', url: 'https://shop.example/verify' },
    }));
    // Push keys are secrets: the global owner allows push and sets one.
    await save(owner, projectId, (p) => ({
      ...p,
      pushOptions: {
        allowed: true,
        enabled: true,
        projectId: 'shop-push',
        platforms: [{ name: 'firebase', projectId: 'shop-push', config: serviceAccountKey('shop-push') }],
      },
    }));
    const issuer = await admin.api.get<Issuer>(apiPath(api.getIssuer, { project: projectId }));
    const saved = await admin.api.put(apiPath(api.updateIssuer, { project: projectId }), {
      ...issuer.body,
      code_challenge_methods: ['S256', 'plain'],
    });
    expect(saved.status).toBe(200);
  });

  it("lists each page's own changes, newest first: who, when, each field before and after", async () => {
    expect(await changesOf(projectId, 'branding')).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        action: 'project.update',
        account: admin.account.email,
        changes: { supportEmail: { before: '', after: 'help@shop.example' }, displayName: { before: '', after: 'Shop' } },
      },
    ]);
    const general = await changesOf(projectId, 'general');
    expect(general.map((c) => c.action)).toEqual(['project.update', 'project.update', 'project.create']);
    // spec §4 applied by the server: with mobile login on, push auth follows the push setting the
    // owner turned on (on the Mobile Applications page) — a change of a General field, so listed here.
    expect(general[0]).toMatchObject({ account: owner.account.email, changes: { 'loginOptions.pushAuthEnabled': { before: false, after: true } } });
    expect(general[1]?.changes).toEqual({
      name: { before: 'History shop', after: 'History shop 2' },
      'loginOptions.browserLoginEnabled': { before: true, after: false },
    });
    expect(general[2]?.changes).toMatchObject({ name: { before: null, after: 'History shop' } });
    expect((await changesOf(projectId, 'verification'))[0]?.changes).toEqual({
      'verificationOptions.method': { before: 'codeEmail', after: 'fullCustom' },
      'verificationOptions.url': { before: '', after: 'https://shop.example/verify' },
    });
    expect((await changesOf(projectId, 'oidc'))[0]).toMatchObject({
      action: 'issuer.update',
      changes: { code_challenge_methods: { before: ['S256'], after: ['S256', 'plain'] } },
    });
  });

  it('shows a secret only as changed, and a page without its own changes lists nothing of the others', async () => {
    const mobile = await changesOf(projectId, 'mobile');
    expect(mobile).toHaveLength(1);
    expect(mobile[0]?.account).toBe(owner.account.email);
    expect(mobile[0]?.changes['pushOptions.platforms.0.config']).toBe(SECRET_CHANGED);
    expect(mobile[0]?.changes['pushOptions.enabled']).toEqual({ before: false, after: true });
    expect(JSON.stringify(mobile)).not.toContain('PRIVATE KEY');
    const fresh = await createProject(admin);
    expect(await changesOf(fresh, 'branding')).toEqual([]);
  });

  it('pages 20 at a time with a cursor, without gaps or repeats', async () => {
    const busy = await createProject(admin);
    for (let i = 1; i <= SETTINGS_HISTORY_PAGE_SIZE + 3; i++) await save(admin, busy, (p) => ({ ...p, displayName: `Name ${i}` }));
    const first = await history(admin, busy, 'branding');
    expect(first.body.list).toHaveLength(SETTINGS_HISTORY_PAGE_SIZE);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await history(admin, busy, 'branding', first.body.nextCursor ?? '');
    expect(second.body.nextCursor).toBeNull();
    const names = [...first.body.list, ...second.body.list].map((c) => (c.changes.displayName as { after: string }).after);
    expect(names).toEqual(Array.from({ length: SETTINGS_HISTORY_PAGE_SIZE + 3 }, (_, i) => `Name ${SETTINGS_HISTORY_PAGE_SIZE + 3 - i}`));
  });

  it('records closing, and a closed project’s history is still read', async () => {
    const closing = await createProject(admin);
    await closeProject(admin, closing);
    const general = await changesOf(closing, 'general');
    expect(general[0]).toMatchObject({ action: 'project.close', changes: { enabled: { before: true, after: false } } });
  });

  it('asks for cst:<C>:* (403 with less, 404 for another project, 401 without a session); refuses a bad page or cursor', async () => {
    const usage = await signedInAccount(app, t.db, [`cst:${projectId}:usage`]);
    const outsider = await signedInAccount(app, t.db);
    expect((await history(usage, projectId, 'general')).status).toBe(403);
    expect((await history(outsider, projectId, 'general')).status).toBe(404);
    expect((await anonymous(app).get(`${apiPath(api.listSettingsHistory, { project: projectId })}?page=general`)).status).toBe(401);
    const badPage = await history(admin, projectId, 'security');
    expect(badPage.status).toBe(400);
    expect(badPage.body.issues).toContainEqual(expect.objectContaining({ field: 'page' }));
    const badCursor = await history(admin, projectId, 'general', 'not-a-cursor');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.issues).toContainEqual(expect.objectContaining({ field: 'cursor' }));
  });
});
