import { expect, it } from 'vitest';
import { api, BULK_REVOCATION_MAX_LIMIT, REVOCATION_REASON, type BulkRevocation, type BulkRevocationBody } from '@latchkey/domain';
import { findDevice } from '../src/people/devices.repository.ts';
import { userIdForEmail } from '../src/people/end-users.repository.ts';
import { findRegistrationCode, replaceRegistrationCode } from '../src/people/registration-codes.repository.ts';
import { anonymous, signedInAccount, useTestApp, type SignedIn } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, closeProject, createProject, databaseFingerprint, storeDevice } from './support/fixtures.ts';

interface ErrorAnswer {
  error: string;
  message: string;
  issues?: Array<{ field: string; code: string }>;
}

const MINUTE = 60_000;
const monthStart = (at: Date, offset = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));

// Issue 9 Devices "Beyond the spec": revoke every device matching the current filter, after a confirm
// that states the count, in batches with progress, an audit event each, safe to repeat if
// interrupted. docs/decisions/0019 "Bulk revocation".
describeEachDatabase('revoking every device matching a filter (POST projects/{project}/mpinids/revocations)', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '100' } });

  const path = (project: string) => apiPath(api.revokeDevices, { project });
  const call = (by: SignedIn, project: string, body: unknown, xsrf?: false | string) =>
    by.api.post<BulkRevocation & ErrorAnswer>(path(project), body, xsrf === undefined ? {} : { xsrf });
  const body = (b: Partial<BulkRevocationBody> & Pick<BulkRevocationBody, 'limit'>): BulkRevocationBody => ({
    reason: REVOCATION_REASON,
    filter: {},
    ...b,
  });

  /**
   * A project with devices of three users: alice's two "Chrome" and one "Safari" this month, bob's
   * "Chrome" this month and one last month, carol's "Chrome" already revoked; another project's
   * "Chrome" of the same address.
   */
  async function project() {
    const owner = await signedInAccount(app, t.db);
    const projectId = await createProject(owner);
    const other = await createProject(owner);
    const now = app.clock.now();
    const thisMonth = (minutes: number) => new Date(monthStart(now).getTime() + minutes * MINUTE);
    const users: Record<string, string> = {};
    const add = async (p: string, id: string, email: string, name: string, createdAt: Date) => {
      const userId = (users[`${p}/${email}`] ??= await userIdForEmail(t.db, { projectId: p, email, now }));
      await storeDevice(t.db, { projectId: p, id, userId, name, ip: '10.0.0.1', createdAt });
      return userId;
    };
    const alice = await add(projectId, 'a1', 'alice@example.com', 'Chrome on Linux', thisMonth(1));
    await add(projectId, 'a2', 'alice@example.com', 'Chrome on Mac', thisMonth(2));
    await add(projectId, 'a3', 'alice@example.com', 'Safari on iPhone', thisMonth(3));
    const bob = await add(projectId, 'b1', 'bob@example.com', 'Chrome on Windows', thisMonth(4));
    await add(projectId, 'b0', 'bob@example.com', 'Chrome on Windows', new Date(monthStart(now).getTime() - MINUTE));
    await add(projectId, 'c1', 'carol@example.com', 'Chrome on Linux', thisMonth(5));
    await t.db.query(`UPDATE devices SET revoked = true, revoke_reason = 'PORTAL_REVOKE', revoked_at = $2 WHERE project_id = $1 AND id = 'c1'`, [
      projectId,
      now,
    ]);
    await add(other, 'x1', 'alice@example.com', 'Chrome on Linux', thisMonth(1));
    // A QuickCode alice's a1 issued: revoking a1 deletes it, as a single revocation does.
    await replaceRegistrationCode(t.db, {
      projectId,
      userId: alice,
      codeHash: 'h',
      issuedBy: 'a1',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 10 * MINUTE),
    });
    return { owner, projectId, other, alice, bob };
  }

  const revokedIds = async (projectId: string) =>
    (await t.db.query<{ id: string }>('SELECT id FROM devices WHERE project_id = $1 AND revoked ORDER BY id', [projectId])).rows.map((r) => r.id);
  const revocationEvents = async (projectId: string) =>
    (
      await t.db.query<{ user_id: string; device_name: string; scope: string; event_status: string; details: Record<string, unknown> }>(
        `SELECT user_id, device_name, scope, event_status, details FROM audit_events WHERE project_id = $1 AND details->>'action' = 'device.revoke' ORDER BY created_at, id`,
        [projectId],
      )
    ).rows;

  it('counts first (limit 0): the active devices matching, nothing revoked, nothing written', async () => {
    const { owner, projectId } = await project();
    const before = await databaseFingerprint(t.db);
    for (const [filter, count] of [
      [{}, 4],
      [{ deviceName: 'chrome' }, 3],
      [{ userId: 'ALICE@example.com' }, 3],
      [{ userId: 'alice@example.com', deviceName: 'chrome' }, 2],
      [{ ip: '10.0.' }, 4],
      [{ ip: '192.' }, 0],
      [{ fromDate: monthStart(app.clock.now(), -1).toISOString().slice(0, 10) }, 5],
    ] as const) {
      const res = await call(owner, projectId, body({ filter, limit: 0 }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body, JSON.stringify(filter)).toEqual({ revoked: 0, remaining: count });
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('revokes in batches until none remain, each device as a single revocation does it, one audit event each', async () => {
    const { owner, projectId, other, alice, bob } = await project();
    const filter = { deviceName: 'chrome' };
    const { body: count } = await call(owner, projectId, body({ filter, limit: 0 }));
    expect(count.remaining).toBe(3);
    const answers: BulkRevocation[] = [];
    for (let remaining = count.remaining; remaining > 0;) {
      const res = await call(owner, projectId, body({ filter, limit: 2, expectedCount: count.remaining }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      answers.push(res.body);
      remaining = res.body.remaining;
      expect(answers.length).toBeLessThan(5);
    }
    expect(answers).toEqual([
      { revoked: 2, remaining: 1 },
      { revoked: 1, remaining: 0 },
    ]);
    // Oldest first; Safari, last month's device, the revoked one and the other project's are left alone.
    expect(await revokedIds(projectId)).toEqual(['a1', 'a2', 'b1', 'c1']);
    expect(await revokedIds(other)).toEqual([]);
    expect(await findDevice(t.db, projectId, 'a1')).toMatchObject({ revoked: true, revokeReason: 'PORTAL_REVOKE', revokedAt: app.clock.now() });
    expect(await findRegistrationCode(t.db, projectId, alice)).toBeNull();
    const events = await revocationEvents(projectId);
    expect(events.map((e) => [e.user_id, e.device_name, e.details.mpinId])).toEqual([
      // Each owner by their person's id (docs/decisions/0046).
      [alice, 'Chrome on Linux', 'a1'],
      [alice, 'Chrome on Mac', 'a2'],
      [bob, 'Chrome on Windows', 'b1'],
    ]);
    for (const e of events) {
      expect(e).toMatchObject({
        scope: 'console',
        event_status: 'success',
        details: { action: 'device.revoke', reason: 'PORTAL_REVOKE', bulk: true, accountId: owner.account.id, sessionsEnded: 0 },
      });
    }
    // The list agrees: no active Chrome left this month.
    const listed = await owner.api.get<{ total: number }>(`${apiPath(api.listDevices, { project: projectId })}?deviceName=chrome&revoked=false`);
    expect(listed.body.total).toBe(0);
  });

  it('is safe to repeat after an interruption: the next call goes on with what is still active, and a finished one revokes nothing', async () => {
    const { owner, projectId } = await project();
    const first = await call(owner, projectId, body({ limit: 1, expectedCount: 4 }));
    expect(first.body).toEqual({ revoked: 1, remaining: 3 });
    // The console went away here. Later, the same call again (same confirmed count):
    const resumed = await call(owner, projectId, body({ limit: 10, expectedCount: 4 }));
    expect(resumed.body).toEqual({ revoked: 3, remaining: 0 });
    const again = await call(owner, projectId, body({ limit: 10, expectedCount: 4 }));
    expect(again.body).toEqual({ revoked: 0, remaining: 0 });
    expect(await revokedIds(projectId)).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
    expect(await revocationEvents(projectId)).toHaveLength(4);
  });

  it('refuses (409 conflict, nothing revoked) when more devices match than were confirmed', async () => {
    const { owner, projectId } = await project();
    const before = await databaseFingerprint(t.db);
    const res = await call(owner, projectId, body({ limit: 10, expectedCount: 3 }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'conflict', message: expect.stringContaining('4 active devices match') });
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('is refused in a closed project (409 project_closed), nothing revoked', async () => {
    const { owner, projectId } = await project();
    await closeProject(owner, projectId);
    for (const limit of [0, 10]) {
      const res = await call(owner, projectId, body({ limit, expectedCount: 4 }));
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('project_closed');
    }
    expect(await revokedIds(projectId)).toEqual(['c1']);
  });

  it('is guarded by `revocation`: 403 to a member without it, 404 to another project, 401 to no one, 403 without the XSRF header', async () => {
    const { owner, projectId } = await project();
    const revoker = await signedInAccount(app, t.db, [`cst:${projectId}:revocation`]);
    const auditor = await signedInAccount(app, t.db, [`cst:${projectId}:audit`]);
    const otherAdmin = await signedInAccount(app, t.db);
    await createProject(otherAdmin);
    const valid = body({ limit: 10, expectedCount: 4 });
    expect((await call(auditor, projectId, valid)).status).toBe(403);
    expect((await call(otherAdmin, projectId, valid)).body).toEqual({ error: 'not_found', message: 'Not found' });
    expect((await anonymous(app).post(path(projectId), valid)).status).toBe(401);
    for (const xsrf of [false, 'wrong'] as const) {
      const res = await call(owner, projectId, valid, xsrf);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('xsrf_failed');
    }
    expect(await revokedIds(projectId)).toEqual(['c1']);
    expect((await call(revoker, projectId, valid)).body).toEqual({ revoked: 4, remaining: 0 });
  });

  it.each<[string, unknown, string]>([
    ['another reason', { reason: 'LOST', filter: {}, limit: 1, expectedCount: 4 }, 'reason'],
    ['no filter', { reason: REVOCATION_REASON, limit: 1, expectedCount: 4 }, 'filter'],
    [
      'a filter the bulk revocation does not take (revoked)',
      { reason: REVOCATION_REASON, filter: { revoked: false }, limit: 1, expectedCount: 4 },
      'filter',
    ],
    [
      'a filter the bulk revocation does not take (sort)',
      { reason: REVOCATION_REASON, filter: { sort: 'ip' }, limit: 1, expectedCount: 4 },
      'filter',
    ],
    ['a bad date', { reason: REVOCATION_REASON, filter: { fromDate: '2025-02-30' }, limit: 1, expectedCount: 4 }, 'filter.fromDate'],
    [
      'a range longer than a year',
      { reason: REVOCATION_REASON, filter: { fromDate: '2024-01-01', toDate: '2025-06-01' }, limit: 1, expectedCount: 4 },
      'filter.fromDate',
    ],
    ['no limit', { reason: REVOCATION_REASON, filter: {}, expectedCount: 4 }, 'limit'],
    ['a limit above the most', { reason: REVOCATION_REASON, filter: {}, limit: BULK_REVOCATION_MAX_LIMIT + 1, expectedCount: 4 }, 'limit'],
    ['a negative limit', { reason: REVOCATION_REASON, filter: {}, limit: -1, expectedCount: 4 }, 'limit'],
    ['a limit as text', { reason: REVOCATION_REASON, filter: {}, limit: '10', expectedCount: 4 }, 'limit'],
    ['a revoking call without the confirmed count', { reason: REVOCATION_REASON, filter: {}, limit: 10 }, 'expectedCount'],
    ['a fractional count', { reason: REVOCATION_REASON, filter: {}, limit: 10, expectedCount: 1.5 }, 'expectedCount'],
  ])('refuses %s: 400 naming the field, nothing changes', async (_label, sent, field) => {
    const { owner, projectId } = await project();
    const before = await databaseFingerprint(t.db);
    const res = await call(owner, projectId, sent);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ error: 'validation_failed', issues: expect.arrayContaining([expect.objectContaining({ field })]) });
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('revokes 1,200 devices in three calls of 500 (the most per call), an event each', { timeout: 120_000 }, async () => {
    const { owner, projectId } = await project();
    const now = app.clock.now();
    const userId = await userIdForEmail(t.db, { projectId, email: 'many@example.com', now });
    await t.db.query(
      `INSERT INTO devices (project_id, id, user_id, public_key, counter, transports, name, ip, country, registered_with, created_at)
       SELECT $1, 'bulk-' || i, $2, 'AQID', 0, ARRAY['internal'], 'Pixel ' || i, '10.9.0.1', 'ZZ', 'email_code',
              $3::timestamptz + i * interval '1 second'
         FROM generate_series(1, 1200) AS i`,
      [projectId, userId, monthStart(now)],
    );
    const filter = { userId: 'many@example.com' };
    const { body: count } = await call(owner, projectId, body({ filter, limit: 0 }));
    expect(count.remaining).toBe(1200);
    const answers: BulkRevocation[] = [];
    const timings: number[] = [];
    let remaining = count.remaining;
    while (remaining > 0) {
      const started = performance.now();
      const res = await call(owner, projectId, body({ filter, limit: BULK_REVOCATION_MAX_LIMIT, expectedCount: count.remaining }));
      timings.push(performance.now() - started);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      answers.push(res.body);
      remaining = res.body.remaining;
    }
    expect(answers).toEqual([
      { revoked: 500, remaining: 700 },
      { revoked: 500, remaining: 200 },
      { revoked: 200, remaining: 0 },
    ]);
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE project_id = $1 AND details->>'action' = 'device.revoke' AND user_id = $2`,
      [projectId, userId],
    );
    expect(rows[0]?.n).toBe(1200);
    console.info(`[${t.driver}] bulk revocation of 1,200 devices, calls of 500: ${timings.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);
  });
});
