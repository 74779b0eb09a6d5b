import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, type ApplicationKeys } from '@latchkey/domain';
import { createOutgoingClient } from '../src/http/outgoing.ts';
import {
  BACKCHANNEL_MAX_ATTEMPTS,
  BACKCHANNEL_PENDING_PER_SUBJECT,
  BACKCHANNEL_RETRY_DELAYS_MS,
  backchannelLogoutKind,
  queueBackchannelLogouts,
  type LogoutTokenSigner,
} from '../src/people/backchannel-logouts.ts';
import { createOutbox } from '../src/outbox/outbox.ts';
import { projectEvents } from '../src/events/project-events.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn, type TestApp } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeEachDatabase, describeWithDatabase } from './support/databases.ts';
import { apiPath, createApp, createKeys, createProject, REDIRECT, setEnabled } from './support/fixtures.ts';
import { logoutForm, projectWithRelyingParty, signInForTokens, type RelyingParty } from './support/relying-party.ts';
import { startReceiver, type Receiver } from './support/receiver.ts';

interface Issues {
  issues: Array<{ field: string; code: string }>;
}

const keysPath = (appId: string) => apiPath(api.updateAppKeys, { application: appId });

/** Registers `uri` as the application's back-channel logout URI (its redirect URIs unchanged). */
async function registerBackchannel(admin: SignedIn, appId: string, uri: string) {
  const keys = await admin.api.get<ApplicationKeys>(keysPath(appId));
  return admin.api.put<ApplicationKeys & Issues>(keysPath(appId), { redirectURI: keys.body.redirectURI, backchannelLogoutURI: uri });
}

/** The person signs out at the issuer through the application (RP-Initiated Logout, proven by the ID token). */
async function logOut(browser: Browser, p: RelyingParty, idToken: string) {
  const page = await browser.get(client.buildEndSessionUrl(p.config, { id_token_hint: idToken }).href);
  const { action, xsrf } = logoutForm(page);
  const done = await browser.request(action, { form: { xsrf, logout: 'yes' } });
  expect(done.status).toBe(303);
}

// Issue 22 "Logout": Back-Channel Logout 1.0 at a project's issuer. The application is a receiver the
// test runs on loopback (the test app allows 127.0.0.0/8: OUTGOING_ALLOWED_NETWORKS); the logout
// token is verified with jose against the issuer's published JWKS, as an application would.
describeEachDatabase('Back-Channel Logout at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  // A test moving the clock past retries outlives a console session: each test signs in anew.
  beforeEach(async () => {
    admin = await signedInAccount(t, d.db);
  });
  afterAll(() => receiver.close());

  /** A relying party registered with the receiver as its back-channel logout URI (a path of its own). */
  async function relyingPartyWithBackchannel(path: string): Promise<RelyingParty & { uri: string }> {
    const p = await projectWithRelyingParty(t, admin);
    const uri = `${receiver.url}/${path}`;
    const res = await registerBackchannel(admin, p.appId, uri);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.backchannelLogoutURI).toBe(uri);
    return { ...p, uri };
  }

  const receivedAt = (path: string) => receiver.received.filter((r) => r.path === `/${path}`);
  /** The requests at `path` once there are `count` (sent by the instance's own nudge, at most a few seconds). */
  async function untilReceived(path: string, count: number) {
    const deadline = Date.now() + 5000;
    while (receivedAt(path).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(receivedAt(path)).toHaveLength(count);
    // The round that sent them has written what came of it.
    await t.services.outbox.deliverDue();
    return receivedAt(path);
  }

  async function noticeEvents(projectId: string) {
    const { rows } = await d.db.query<{ event_status: string; user_id: string | null; client_id: string | null; details: Record<string, unknown> }>(
      `SELECT event_status, user_id, client_id, details FROM audit_events
        WHERE project_id = $1 AND details->>'action' = 'backchannel_logout' ORDER BY created_at, details->>'attempt'`,
      [projectId],
    );
    return rows;
  }

  async function queued(projectId: string) {
    const { rows } = await d.db.query<{ attempts: number }>(
      `SELECT attempts FROM outbox_messages WHERE project_id = $1 AND kind = 'backchannel_logout'`,
      [projectId],
    );
    return rows;
  }

  async function verifiedLogoutToken(p: RelyingParty, body: string) {
    const token = new URLSearchParams(body).get('logout_token') ?? '';
    const metadata = p.config.serverMetadata();
    const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri as string));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer: metadata.issuer,
      audience: p.keys.clientId,
      typ: 'logout+jwt',
      requiredClaims: ['iat', 'exp', 'jti', 'events'],
    });
    return { payload, protectedHeader };
  }

  it('discovery states back-channel logout, with sessions', async () => {
    const p = await projectWithRelyingParty(t, admin);
    expect(p.config.serverMetadata()).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
  });

  it('the URI is registered with the keys: https (http for a web app), no fragment; kept by a PUT without it, removed by an empty one', async () => {
    const projectId = await createProject(admin);
    const web = await createApp(admin, projectId);
    await createKeys(admin, web);
    const spa = await createApp(admin, projectId, 'Single page', 'spa');
    await createKeys(admin, spa);
    for (const [appId, uri, code] of [
      [web, 'https://app.example.com/logout#x', 'validation.redirect_uri_fragment'],
      [web, 'ftp://app.example.com/logout', 'validation.invalid_url'],
      [web, 'https://user:pw@app.example.com/logout', 'validation.invalid_url'],
      [web, 'not a url', 'validation.invalid_url'],
      [web, 'https://app.example.com/\u0000', 'validation.invalid_characters'],
      [web, 'https://app.example.com/lo\ngout', 'validation.invalid_url'],
      [web, 'https://app.example.com/a b', 'validation.invalid_url'],
      [spa, 'http://app.example.com/logout', 'validation.backchannel_uri_https'],
    ] as const) {
      const bad = await registerBackchannel(admin, appId, uri);
      expect(bad.status, uri).toBe(400);
      expect(bad.body.issues.map((i) => [i.field, i.code])).toEqual([['backchannelLogoutURI', code]]);
    }
    expect((await registerBackchannel(admin, spa, 'https://app.example.com/logout')).status).toBe(200);
    expect((await registerBackchannel(admin, web, 'http://app.internal.example/logout')).body.backchannelLogoutURI).toBe(
      'http://app.internal.example/logout',
    );
    const kept = await admin.api.put<ApplicationKeys>(keysPath(web), { redirectURI: [REDIRECT] });
    expect(kept.body.backchannelLogoutURI).toBe('http://app.internal.example/logout');
    const removed = await admin.api.put<ApplicationKeys>(keysPath(web), { redirectURI: [REDIRECT], backchannelLogoutURI: '' });
    expect(removed.body.backchannelLogoutURI).toBe('');
    expect((await admin.api.get<ApplicationKeys>(keysPath(web))).body.backchannelLogoutURI).toBe('');
  });

  it('a logout sends the application a logout token the application verifies: its issuer, audience, sub and the sid of its ID token', async () => {
    const p = await relyingPartyWithBackchannel('rp-logout');
    const browser = new Browser();
    const email = uniqueEmail('bcl');
    const tokens = await signInForTokens(t, browser, p, email);
    const idClaims = tokens.claims() as { sub: string; sid?: string };
    // Registered for back-channel logout, the application's ID tokens name their session.
    expect(idClaims.sid).toEqual(expect.any(String));

    await logOut(browser, p, tokens.id_token as string);
    const [notice] = await untilReceived('rp-logout', 1);
    expect(notice?.method).toBe('POST');
    expect(notice?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const { payload, protectedHeader } = await verifiedLogoutToken(p, notice?.body ?? '');
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ sub: idClaims.sub, sid: idClaims.sid, events: { 'http://schemas.openid.net/event/backchannel-logout': {} } });
    expect(payload.nonce).toBeUndefined();
    expect((payload.exp as number) - (payload.iat as number)).toBeLessThanOrEqual(120);

    // Delivered: an audit event of the person, and nothing left queued.
    expect(await noticeEvents(p.projectId)).toEqual([
      expect.objectContaining({
        event_status: 'success',
        user_id: idClaims.sub,
        client_id: p.keys.clientId,
        details: expect.objectContaining({ cause: 'logout', attempt: 1, status: 200 }),
      }),
    ]);
    expect(await queued(p.projectId)).toEqual([]);
  });

  it('an application that does not answer 200 is asked again later with a new token id, a bounded number of times; a 400 is not asked again', async () => {
    const p = await relyingPartyWithBackchannel('retried');
    const browser = new Browser();
    const tokens = await signInForTokens(t, browser, p, uniqueEmail('retried'));
    receiver.status = 503;
    try {
      await logOut(browser, p, tokens.id_token as string);
      const [first] = await untilReceived('retried', 1);
      expect(await queued(p.projectId)).toEqual([{ attempts: 1 }]);
      const firstEvent = (await noticeEvents(p.projectId))[0];
      expect(firstEvent).toMatchObject({
        event_status: 'failed',
        details: { attempt: 1, status: 503, reason: 'unexpected_status', retryAt: expect.any(String) },
      });

      // Not due yet: nothing is sent.
      await t.services.outbox.deliverDue();
      expect(receivedAt('retried')).toHaveLength(1);

      // Due after its delay; still failing each time, until the last attempt gives it up.
      for (let attempt = 2; attempt <= BACKCHANNEL_MAX_ATTEMPTS; attempt++) {
        t.clock.advance(BACKCHANNEL_RETRY_DELAYS_MS[attempt - 2] ?? 0);
        await t.services.outbox.deliverDue();
        expect(receivedAt('retried')).toHaveLength(attempt);
      }
      // Each attempt is a token of its own (RFC 7519 §4.1.7), for the same session.
      const sent = await Promise.all(receivedAt('retried').map(async (r) => (await verifiedLogoutToken(p, r.body)).payload));
      expect(new Set(sent.map((token) => token.jti)).size).toBe(BACKCHANNEL_MAX_ATTEMPTS);
      expect(new Set(sent.map((token) => `${token.sub} ${token.sid}`)).size).toBe(1);
      expect(decodeJwt(new URLSearchParams(first?.body).get('logout_token') ?? '').jti).toBe(sent[0]?.jti);
      expect(await queued(p.projectId)).toEqual([]);
      const events = await noticeEvents(p.projectId);
      expect(events).toHaveLength(BACKCHANNEL_MAX_ATTEMPTS);
      expect(events.at(-1)).toMatchObject({ event_status: 'failed', details: { attempt: BACKCHANNEL_MAX_ATTEMPTS, givenUp: true } });
      t.clock.advance(2 * 60 * 60 * 1000);
      await t.services.outbox.deliverDue();
      expect(receivedAt('retried')).toHaveLength(BACKCHANNEL_MAX_ATTEMPTS);

      // An application answering 400 refused the token: asking again would not change that.
      admin = await signedInAccount(t, d.db);
      const q = await relyingPartyWithBackchannel('refused');
      const other = new Browser();
      const more = await signInForTokens(t, other, q, uniqueEmail('refused'));
      receiver.status = 400;
      await logOut(other, q, more.id_token as string);
      await untilReceived('refused', 1);
      expect(await queued(q.projectId)).toEqual([]);
      expect((await noticeEvents(q.projectId))[0]).toMatchObject({ event_status: 'failed', details: { status: 400, givenUp: true } });
    } finally {
      receiver.status = 200;
    }
  });

  it('an application disabled since the logout is not told any more', async () => {
    const p = await relyingPartyWithBackchannel('disabled');
    const browser = new Browser();
    const tokens = await signInForTokens(t, browser, p, uniqueEmail('disabled'));
    receiver.status = 503;
    await logOut(browser, p, tokens.id_token as string);
    await untilReceived('disabled', 1);
    receiver.status = 200;
    await setEnabled(admin, p.appId, false);
    t.clock.advance(BACKCHANNEL_RETRY_DELAYS_MS[0]);
    await t.services.outbox.deliverDue();
    expect(receivedAt('disabled')).toHaveLength(1);
    expect(await queued(p.projectId)).toEqual([]);
    expect((await noticeEvents(p.projectId)).at(-1)).toMatchObject({ event_status: 'failed', details: { attempt: 2, givenUp: true } });
  });

  it('sends the notices the previous version queued during a rollover, once no instance of it holds them', async () => {
    const p = await relyingPartyWithBackchannel('previous');
    const now = t.clock.now().getTime();
    // As an instance of the previous version writes them (migrations 0026, 0027): one due now, one
    // it claimed a moment ago (its lease runs 60 s).
    for (const [id, sub, due] of [
      ['previous-due', 'account-due', now],
      ['previous-held', 'account-held', now + 60_000],
    ] as const) {
      await d.db.query(
        `INSERT INTO backchannel_logouts (project_id, id, client_id, sub, sid, cause, attempts, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, 'device_revoked', $6, $7, $8)`,
        [p.projectId, id, p.keys.clientId, sub, `sid-${sub}`, due === now ? 0 : 1, new Date(due), new Date(now)],
      );
    }
    const previous = async () =>
      (await d.db.query<{ id: string }>('SELECT id FROM backchannel_logouts WHERE project_id = $1 ORDER BY id', [p.projectId])).rows.map((r) => r.id);

    await t.services.outbox.deliverDue();
    const [first] = await untilReceived('previous', 1);
    expect((await verifiedLogoutToken(p, first?.body ?? '')).payload).toMatchObject({ sub: 'account-due', sid: 'sid-account-due' });
    expect(await previous()).toEqual(['previous-held']);

    // Its holder stopped: once the lease ends, this version sends it, as the attempt after the one it made.
    t.clock.advance(60_000);
    await t.services.outbox.deliverDue();
    const [, second] = await untilReceived('previous', 2);
    expect((await verifiedLogoutToken(p, second?.body ?? '')).payload).toMatchObject({ sub: 'account-held', sid: 'sid-account-held' });
    expect(await previous()).toEqual([]);
    expect(await queued(p.projectId)).toEqual([]);
    expect((await noticeEvents(p.projectId)).map((e) => [e.event_status, e.client_id, e.details['cause'], e.details['attempt']])).toEqual([
      ['success', p.keys.clientId, 'device_revoked', 1],
      ['success', p.keys.clientId, 'device_revoked', 2],
    ]);
  });

  describe('the deliverer', () => {
    const countries = { countryOf: () => 'ZZ' };
    // The app's own deliverer rests meanwhile (its poll would take the notices queued here).
    beforeAll(() => t.services.outbox.stop());
    afterAll(() => t.services.outbox.start());
    /** A deliverer of this test's own, its signer `sign`. */
    function deliverer(sign: LogoutTokenSigner, warned: unknown[] = []) {
      return createOutbox({
        db: d.db,
        clock: t.clock,
        outgoing: createOutgoingClient({ allowedNetworks: ['127.0.0.0/8'] }),
        kinds: [
          backchannelLogoutKind({
            sign,
            eventsOf: (projectId) => projectEvents({ db: d.db, clock: t.clock, secretBox: t.services.secretBox, countries, projectId }),
          }),
        ],
        warn: (error) => warned.push(error),
      });
    }
    const queueOne = (p: RelyingParty, sub: string) =>
      queueBackchannelLogouts(d.db, p.projectId, [{ accountId: sub, sids: { [p.keys.clientId]: `sid-${sub}` } }], 'logout', t.clock.now());
    const setAttempts = (projectId: string, attempts: number) =>
      d.db.query(`UPDATE outbox_messages SET attempts = $2, next_attempt_at = $3 WHERE project_id = $1 AND kind = 'backchannel_logout'`, [
        projectId,
        attempts,
        t.clock.now(),
      ]);

    it('keeps at most a few pending notices per application and account', async () => {
      const p = await relyingPartyWithBackchannel('bounded');
      receiver.status = 503;
      try {
        for (let i = 0; i < BACKCHANNEL_PENDING_PER_SUBJECT + 5; i++) await queueOne(p, 'someone');
        await queueOne(p, 'someone-else');
        const { rows } = await d.db.query<{ sub: string; n: number }>(
          `SELECT subject AS sub, count(*)::int AS n FROM outbox_messages WHERE project_id = $1 AND kind = 'backchannel_logout' GROUP BY subject ORDER BY subject`,
          [p.projectId],
        );
        expect(rows).toEqual([
          { sub: 'someone', n: BACKCHANNEL_PENDING_PER_SUBJECT },
          { sub: 'someone-else', n: 1 },
        ]);
      } finally {
        await d.db.query('DELETE FROM outbox_messages WHERE project_id = $1', [p.projectId]);
        receiver.status = 200;
      }
    });

    it('counts a token that cannot be signed as an attempt, and gives it up after the last', async () => {
      const p = await relyingPartyWithBackchannel('unsigned');
      const warned: unknown[] = [];
      const broken = deliverer(async () => {
        throw new Error('no key');
      }, warned);
      await queueOne(p, 'unsigned');
      expect(await broken.deliverDue()).toBe(1);
      expect(await queued(p.projectId)).toEqual([{ attempts: 1 }]);
      expect((await noticeEvents(p.projectId)).at(-1)).toMatchObject({
        event_status: 'failed',
        details: { attempt: 1, reason: 'sign_failed', retryAt: expect.any(String) },
      });
      expect(warned).toHaveLength(1);
      // Not tried again at once: only when due.
      expect(await broken.deliverDue()).toBe(0);
      await setAttempts(p.projectId, BACKCHANNEL_MAX_ATTEMPTS - 1);
      expect(await broken.deliverDue()).toBe(1);
      expect(await queued(p.projectId)).toEqual([]);
      expect((await noticeEvents(p.projectId)).at(-1)).toMatchObject({ details: { attempt: BACKCHANNEL_MAX_ATTEMPTS, givenUp: true } });
    });

    it('writes nothing of an attempt whose notice another instance took meanwhile, and gives up a notice whose last attempt was never written', async () => {
      const p = await relyingPartyWithBackchannel('fenced');
      // While this instance signs, its lease runs out and another instance claims the notice.
      const overtaken = deliverer(async (projectId) => {
        await d.db.query('UPDATE outbox_messages SET attempts = attempts + 1 WHERE project_id = $1', [projectId]);
        return null;
      });
      await queueOne(p, 'fenced');
      expect(await overtaken.deliverDue()).toBe(1);
      expect(await queued(p.projectId)).toEqual([{ attempts: 2 }]);
      expect(await noticeEvents(p.projectId)).toEqual([]);

      // The last attempt was claimed and its instance stopped before writing: the next claim gives it up unsent.
      const signed: string[] = [];
      const counting = deliverer(async (projectId) => {
        signed.push(projectId);
        return null;
      });
      await setAttempts(p.projectId, BACKCHANNEL_MAX_ATTEMPTS);
      expect(await counting.deliverDue()).toBe(1);
      expect(signed).toEqual([]);
      expect(await queued(p.projectId)).toEqual([]);
      expect(await noticeEvents(p.projectId)).toMatchObject([
        { event_status: 'failed', details: { attempt: BACKCHANNEL_MAX_ATTEMPTS + 1, reason: 'attempts_exhausted', givenUp: true } },
      ]);
    });

    it('takes a few notices of one project per batch, so the others are not held up behind it; claims nothing once stopped', async () => {
      const busy = await relyingPartyWithBackchannel('busy');
      const quiet = await relyingPartyWithBackchannel('quiet');
      for (let i = 0; i < 8; i++) await queueOne(busy, `busy-${i}`);
      for (let i = 0; i < 2; i++) await queueOne(quiet, `quiet-${i}`);
      const order: string[] = [];
      const recording = deliverer(async (projectId) => {
        order.push(projectId === busy.projectId ? 'busy' : 'quiet');
        return null;
      });
      const stopped = deliverer(async () => null);
      await stopped.stop();
      expect(await stopped.deliverDue()).toBe(0);
      expect(await recording.deliverDue()).toBe(10);
      expect(order.slice(0, 7).sort()).toEqual(['busy', 'busy', 'busy', 'busy', 'busy', 'quiet', 'quiet']);
      expect(await queued(busy.projectId)).toEqual([]);
    });
  });
});

// The server never becomes a way into the operator's network (issue 22): without
// OUTGOING_ALLOWED_NETWORKS, a back-channel logout URI on a loopback, private or link-local address
// is refused when saved; at delivery, http/outgoing.ts checks the resolved address (outgoing.test.ts).
describeWithDatabase('Back-channel logout URIs without the operator allowing private networks', (d) => {
  const t: TestApp = useTestApp(d, { env: { OUTGOING_ALLOWED_NETWORKS: '' } });
  it('refuses loopback, private and link-local addresses when saved, and takes a public one', async () => {
    const admin = await signedInAccount(t, d.db);
    const projectId = await createProject(admin);
    const appId = await createApp(admin, projectId);
    await createKeys(admin, appId);
    for (const uri of [
      'http://127.0.0.1:8080/logout',
      'http://localhost/logout',
      'https://10.1.2.3/logout',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/logout',
      'http://[::ffff:127.0.0.1]/logout',
      'https://[fd00::1]/logout',
    ]) {
      const refused = await registerBackchannel(admin, appId, uri);
      expect(refused.status, uri).toBe(400);
      expect(refused.body.issues.map((i) => [i.field, i.code])).toEqual([['backchannelLogoutURI', 'validation.private_address']]);
    }
    expect((await registerBackchannel(admin, appId, 'https://app.example.com/logout')).status).toBe(200);
  });
});
