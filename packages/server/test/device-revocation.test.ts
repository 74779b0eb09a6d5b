import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { appsApi, buildPath, devicesApi, REVOCATION_REASON, type ApplicationKeys } from '@latchkey/domain';
import { findDevice, type Device } from '../src/people/devices.repository.ts';
import { userIdForEmail } from '../src/people/end-users.repository.ts';
import { anonymous, signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { closeProject, createProject, storeDevice } from './support/fixtures.ts';
import { OFFLINE, projectWithRelyingParty, refusal, type RelyingParty } from './support/relying-party.ts';
import { submitEmail } from './support/sign-in.ts';
import { startReceiver } from './support/receiver.ts';
import { endUserSignIns } from './support/end-user-sign-in.ts';

interface ErrorAnswer {
  error: string;
  message: string;
}

// spec §7 "Devices", §4 "Device: Active -> Revoked (one way)", §6 guard `revocation`, §9 PORTAL_REVOKE.
describeWithDatabase('revoking a device (POST projects/{project}/mpinids/{mpinId}/revocation)', (t) => {
  const app = useTestApp(t, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });

  const revocationPath = (project: string, mpinId: string) => `/api${buildPath(devicesApi.revokeDevice.path, { project, mpinId })}`;
  const revoke = (by: SignedIn, project: string, mpinId: string, body: unknown = { reason: REVOCATION_REASON }, xsrf?: false | string) =>
    by.api.post<{ mpinId: string; revoked: boolean } | ErrorAnswer>(revocationPath(project, mpinId), body, xsrf === undefined ? {} : { xsrf });

  /** A project with one end user and one active device of theirs, stored as a passkey registration stores it. */
  async function projectWithDevice(admin?: SignedIn) {
    const owner = admin ?? (await signedInAccount(app, t.db));
    const projectId = await createProject(owner);
    const userId = await userIdForEmail(t.db, { projectId, email: uniqueEmail('end-user'), now: app.clock.now() });
    const mpinId = await storeDevice(t.db, { projectId, userId, createdAt: app.clock.now() });
    return { owner, projectId, userId, mpinId };
  }

  const deviceOf = async (projectId: string, mpinId: string): Promise<Device | null> => findDevice(t.db, projectId, mpinId);

  async function auditOf(projectId: string): Promise<Array<{ event_status: string; scope: string; details: Record<string, unknown> }>> {
    const { rows } = await t.db.query<{ event_status: string; scope: string; details: Record<string, unknown> }>(
      'SELECT event_status, scope, details FROM audit_events WHERE project_id = $1 ORDER BY id',
      [projectId],
    );
    return rows;
  }
  const revocationsIn = async (projectId: string) => (await auditOf(projectId)).filter((e) => e.details.action === 'device.revoke');

  describe('permissions', () => {
    it.each([
      ['cst:{p}:revocation', (p: string) => `cst:${p}:revocation`],
      ['cst:{p}:*', (p: string) => `cst:${p}:*`],
    ])('an account holding %s revokes the device: 200, marked revoked with the reason', async (_label, permission) => {
      const { projectId, mpinId } = await projectWithDevice();
      const me = await signedInAccount(app, t.db, [permission(projectId)]);
      const res = await revoke(me, projectId, mpinId);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ mpinId, revoked: true });
      expect(await deviceOf(projectId, mpinId)).toMatchObject({ revoked: true, revokeReason: 'PORTAL_REVOKE', revokedAt: app.clock.now() });
    });

    it('answers 403 to a member holding only cst:{p}:apps; 404 to the admin of another project; 401 to no one signed in — nothing changes', async () => {
      const { projectId, mpinId } = await projectWithDevice();
      const appsManager = await signedInAccount(app, t.db, [`cst:${projectId}:apps`]);
      const otherAdmin = await signedInAccount(app, t.db);
      await createProject(otherAdmin); // holds cst:{other}:* only

      const forbidden = await revoke(appsManager, projectId, mpinId);
      expect(forbidden.status).toBe(403);
      expect((forbidden.body as ErrorAnswer).error).toBe('forbidden');

      const outsider = await revoke(otherAdmin, projectId, mpinId);
      expect(outsider.status).toBe(404);
      expect(outsider.body).toEqual({ error: 'not_found', message: 'Not found' });

      const nobody = await anonymous(app).post(revocationPath(projectId, mpinId), { reason: REVOCATION_REASON });
      expect(nobody.status).toBe(401);
      expect((nobody.body as ErrorAnswer).error).toBe('unauthorized');

      expect(await deviceOf(projectId, mpinId)).toMatchObject({ revoked: false, revokedAt: null, revokeReason: null });
      expect(await revocationsIn(projectId)).toEqual([]);
    });

    it('needs the XSRF header on a cookie session (403 xsrf_failed, nothing changes)', async () => {
      const { owner, projectId, mpinId } = await projectWithDevice();
      for (const xsrf of [false, 'not-the-token'] as const) {
        const res = await revoke(owner, projectId, mpinId, { reason: REVOCATION_REASON }, xsrf);
        expect(res.status, `xsrf=${xsrf}`).toBe(403);
        expect((res.body as ErrorAnswer).error).toBe('xsrf_failed');
      }
      expect((await deviceOf(projectId, mpinId))?.revoked).toBe(false);
    });

    it('answers 404 about a device of another project, even to a caller who may revoke devices in both, and leaves it alone', async () => {
      const admin = await signedInAccount(app, t.db);
      const a = await projectWithDevice(admin);
      const b = await projectWithDevice(admin);
      const res = await revoke(admin, b.projectId, a.mpinId);
      expect(res.status).toBe(404);
      expect((res.body as ErrorAnswer).error).toBe('not_found');
      expect((await deviceOf(a.projectId, a.mpinId))?.revoked).toBe(false);
      expect(await revocationsIn(a.projectId)).toEqual([]);
      expect(await revocationsIn(b.projectId)).toEqual([]);
    });
  });

  describe('input and state', () => {
    it.each([
      ['another reason', { reason: 'LOST' }],
      ['the reason in lower case', { reason: 'portal_revoke' }],
      ['no reason', {}],
      ['a reason that is not text', { reason: 1 }],
    ])('refuses %s (400 validation_failed naming `reason`) and changes nothing', async (_label, body) => {
      const { owner, projectId, mpinId } = await projectWithDevice();
      const res = await revoke(owner, projectId, mpinId, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', issues: [expect.objectContaining({ field: 'reason' })] });
      expect((await deviceOf(projectId, mpinId))?.revoked).toBe(false);
      expect(await revocationsIn(projectId)).toEqual([]);
    });

    it('answers 404 about a device id that does not exist, and writes nothing', async () => {
      const { owner, projectId, mpinId } = await projectWithDevice();
      const res = await revoke(owner, projectId, 'no-such-credential');
      expect(res.status).toBe(404);
      expect((res.body as ErrorAnswer).error).toBe('not_found');
      expect((await deviceOf(projectId, mpinId))?.revoked).toBe(false);
      expect(await revocationsIn(projectId)).toEqual([]);
    });

    it('is one way: a second revocation is 409 conflict saying so, and changes nothing', async () => {
      const { owner, projectId, mpinId } = await projectWithDevice();
      expect((await revoke(owner, projectId, mpinId)).status).toBe(200);
      const first = await deviceOf(projectId, mpinId);
      app.clock.advance(60_000);
      const again = await revoke(owner, projectId, mpinId);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'conflict', message: 'This device is already revoked' });
      expect(await deviceOf(projectId, mpinId)).toEqual(first);
      expect(await revocationsIn(projectId)).toHaveLength(1);
    });

    it('is refused in a closed project (409 project_closed), nothing changes', async () => {
      const { owner, projectId, mpinId } = await projectWithDevice();
      await closeProject(owner, projectId);
      const res = await revoke(owner, projectId, mpinId);
      expect(res.status).toBe(409);
      expect((res.body as ErrorAnswer).error).toBe('project_closed');
      expect((await deviceOf(projectId, mpinId))?.revoked).toBe(false);
    });

    it('writes one audit event: device.revoke, result success, the device, its user and the reason', async () => {
      const { owner, projectId, userId, mpinId } = await projectWithDevice();
      await revoke(owner, projectId, mpinId);
      const events = await revocationsIn(projectId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        event_status: 'success',
        scope: 'console',
        details: { action: 'device.revoke', mpinId, userId, reason: 'PORTAL_REVOKE', accountId: owner.account.id },
      });
    });
  });

  // docs/decisions/0013 "Known gap", closed: a provider session started with the passkey ends with it.
  describe('the provider sessions started with the passkey', () => {
    const project = (admin: SignedIn) => projectWithRelyingParty(app, admin);

    const { open, signedInStraightAway, newUserWithPasskey: newUser, signInWithPasskey, signInWithCode } = endUserSignIns(app);
    const newUserWithPasskey = (browser: Browser, p: RelyingParty) => newUser(browser, p, 'revoked');

    it('end: the same browser is asked to sign in again, and the tokens issued from them stop working; a session started with a code stays', async () => {
      const admin = await signedInAccount(app, t.db);
      const p = await project(admin);
      const registered = new Browser();
      const { email, passkey } = await newUserWithPasskey(registered, p);
      const withPasskey = new Browser();
      const tokens = await signInWithPasskey(withPasskey, p, email, passkey);
      const sub = tokens.claims()?.sub as string;
      expect(tokens.claims()?.amr).toBeUndefined(); // the device mark never leaves the server
      const withCode = new Browser();
      await signInWithCode(withCode, p, email);

      // Before: each browser's provider session signs the user straight back in.
      for (const browser of [registered, withPasskey, withCode]) expect(signedInStraightAway((await open(browser, p)).end)).toBe(true);
      expect((await client.fetchUserInfo(p.config, tokens.access_token, sub)).sub).toBe(sub);

      const res = await revoke(admin, p.projectId, passkey.id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await revocationsIn(p.projectId))[0]?.details).toMatchObject({ sessionsEnded: 2 });

      // After: the passkey's sessions (its sign-in, and its creation) ask for the address again.
      for (const browser of [withPasskey, registered]) {
        const { end } = await open(browser, p);
        expect(signedInStraightAway(end), end.location ?? '').toBe(false);
        expect(end.status).toBe(200);
        expect(end.text).toContain('name="email"');
      }
      await expect(client.fetchUserInfo(p.config, tokens.access_token, sub)).rejects.toThrow();
      // The session started with the emailed code was not started with the passkey: it stays.
      expect(signedInStraightAway((await open(withCode, p)).end)).toBe(true);
      // And the passkey itself is refused.
      const { end: page1 } = await open(withPasskey, p);
      const refused = await submitEmail(withPasskey, page1, email);
      expect(refused.status).toBe(403);
    });

    it('end the refresh tokens issued with the passkey too, even once the provider session is gone; a refresh token from a code sign-in stays', async () => {
      const admin = await signedInAccount(app, t.db);
      const p = await project(admin);
      const { email, passkey } = await newUserWithPasskey(new Browser(), p);
      const offline = await signInWithPasskey(new Browser(), p, email, passkey, OFFLINE);
      const rotated = await client.refreshTokenGrant(p.config, offline.refresh_token as string);
      const fromCode = await signInWithCode(new Browser(), p, email, OFFLINE);
      // Every provider session ends (as after a logout, or their expiry): the offline tokens outlive them.
      await t.db.query(`DELETE FROM oidc_payloads WHERE issuer = $1 AND kind = 'Session'`, [p.projectId]);
      const rotatedAgain = await client.refreshTokenGrant(p.config, rotated.refresh_token as string);

      expect((await revoke(admin, p.projectId, passkey.id)).status).toBe(200);
      expect(await refusal(client.refreshTokenGrant(p.config, rotatedAgain.refresh_token as string))).toBe('invalid_grant');
      expect(await refusal(client.fetchUserInfo(p.config, rotatedAgain.access_token, rotatedAgain.claims()?.sub as string))).toBe('invalid_token');
      expect((await client.refreshTokenGrant(p.config, fromCode.refresh_token as string)).access_token).toEqual(expect.any(String));
    });

    it('tell each application of the ended sessions by back-channel logout: the sid of the session its ID token named', async () => {
      const receiver = await startReceiver();
      try {
        const admin = await signedInAccount(app, t.db);
        const p = await project(admin);
        const keys = await admin.api.get<ApplicationKeys>(`/api${buildPath(appsApi.getAppKeys.path, { application: p.appId })}`);
        const registered = await admin.api.put(`/api${buildPath(appsApi.updateAppKeys.path, { application: p.appId })}`, {
          redirectURI: keys.body.redirectURI,
          backchannelLogoutURI: `${receiver.url}/logout`,
        });
        expect(registered.status).toBe(200);
        const { email, passkey } = await newUserWithPasskey(new Browser(), p);
        const tokens = await signInWithPasskey(new Browser(), p, email, passkey);
        const sid = tokens.claims()?.sid;
        expect(sid).toEqual(expect.any(String));

        expect((await revoke(admin, p.projectId, passkey.id)).status).toBe(200);
        // Two sessions started with the passkey (its creation and its sign-in): a notice each.
        const notices = await receiver.until(2);
        const claims = notices.map((n) => decodeJwt(new URLSearchParams(n.body).get('logout_token') ?? ''));
        expect(claims.map((c) => c.sub)).toEqual([tokens.claims()?.sub, tokens.claims()?.sub]);
        expect(claims.map((c) => c.sid)).toContain(sid);
        expect((await revocationsIn(p.projectId))[0]?.details).toMatchObject({ sessionsEnded: 2, logoutNotices: 2 });
        await app.services.outbox.deliverDue();
        const { rows } = await t.db.query<{ cause: string }>(
          `SELECT details->>'cause' AS cause FROM audit_events WHERE project_id = $1 AND details->>'action' = 'backchannel_logout' AND event_status = 'success'`,
          [p.projectId],
        );
        expect(rows).toEqual([{ cause: 'device_revoked' }, { cause: 'device_revoked' }]);
      } finally {
        await receiver.close();
      }
    });
  });
});
