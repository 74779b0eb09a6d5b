import { expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import {
  buildPath,
  devicesApi,
  endUsersApi,
  REVOCATION_REASON,
  webhooksApi,
  type Endpoint,
  type WebhookCreated,
  type WebhookDelivery,
} from '@latchkey/domain';
import { webhookKind } from '../src/modules/webhooks/webhook-delivery.ts';
import { createOutbox, OUTBOX_LEASE_MS } from '../src/outbox/outbox.ts';
import { userIdForEmail } from '../src/people/end-users.repository.ts';
import { freePort } from './support/free-port.ts';
import { anonymous, signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { closeProject, createProject, storeDevice } from './support/fixtures.ts';
import { startReceiver, type Received, type Receiver } from './support/receiver.ts';

interface ErrorAnswer {
  error: string;
  message: string;
  issues?: Array<{ field: string; message: string }>;
}

const path = (e: Pick<Endpoint, 'path'>, params: Record<string, string>) => `/api${buildPath(e.path, params)}`;

/** What a receiver built with the Standard Webhooks library from npm makes of a request: the payload, or it throws. */
function verified(secret: string, request: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  return new StandardWebhook(secret).verify(request.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}

// Issue 24 "Webhooks", docs/decisions/0039.
describeEachDatabase('webhooks', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '100' } });

  async function projectWithEndpoint(receiver: Receiver, eventTypes: string[], admin?: SignedIn) {
    const owner = admin ?? (await signedInAccount(app, t.db));
    const projectId = await createProject(owner);
    const created = await owner.api.post<WebhookCreated>(path(webhooksApi.createWebhook, { project: projectId }), {
      url: `${receiver.url}/hooks`,
      eventTypes,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { owner, projectId, webhook: created.body };
  }

  /** A device of a new end user, revoked through the API: a `device.revoked` event. */
  async function revokeADevice(by: SignedIn, projectId: string) {
    const email = uniqueEmail('hooked');
    const userId = await userIdForEmail(t.db, { projectId, email, now: app.clock.now() });
    const mpinId = await storeDevice(t.db, { projectId, userId, createdAt: app.clock.now() });
    const res = await by.api.post(path(devicesApi.revokeDevice, { project: projectId, mpinId }), { reason: REVOCATION_REASON });
    expect(res.status).toBe(200);
    return { email, userId, mpinId };
  }

  /**
   * A message as an instance of the previous version writes it, into its own table (migration 0031),
   * during a rollover (docs/decisions/0045).
   */
  async function previousVersionMessage(m: {
    projectId: string;
    endpointId: string;
    id: string;
    subject?: string;
    createdAt: Date;
    status?: 'pending' | 'delivered';
    attempts?: number;
    nextAttemptAt?: Date | null;
  }) {
    const body = JSON.stringify({ type: 'device.revoked', timestamp: m.createdAt.toISOString(), data: { id: m.id, projectId: m.projectId } });
    await t.db.query(
      `INSERT INTO webhook_messages (project_id, endpoint_id, id, event_type, payload, subject, created_at, status, attempts, next_attempt_at,
                                     last_status, delivered_at)
       VALUES ($1, $2, $3, 'device.revoked', $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        m.projectId,
        m.endpointId,
        m.id,
        body,
        m.subject ?? null,
        m.createdAt,
        m.status ?? 'pending',
        m.attempts ?? 0,
        m.status === 'delivered' ? null : (m.nextAttemptAt ?? m.createdAt),
        m.status === 'delivered' ? 200 : null,
        m.status === 'delivered' ? m.createdAt : null,
      ],
    );
  }
  const previousVersionHolds = async (id: string) =>
    (await t.db.query<{ status: string }>('SELECT status FROM webhook_messages WHERE id = $1', [id])).rows.map((r) => r.status);

  const deliveries = async (by: SignedIn, projectId: string, webhook: string) =>
    (await by.api.get<{ list: WebhookDelivery[] }>(path(webhooksApi.listWebhookDeliveries, { project: projectId, webhook }))).body.list;

  it('lets a project admin manage endpoints (the secret shown once), answers 403 to cst:{p}:apps, 404 to another project’s admin, 401 to no one', async () => {
    const receiver = await startReceiver();
    try {
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['sign_in.succeeded']);
      expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(webhook).toMatchObject({ enabled: true, eventTypes: ['sign_in.succeeded'], failingSince: null, disabledReason: null });
      const one = await owner.api.get<Record<string, unknown>>(path(webhooksApi.getWebhook, { project: projectId, webhook: webhook.id }));
      expect(one.status).toBe(200);
      expect(one.body).not.toHaveProperty('secret');
      expect(one.headers.etag).toBe('"1"');
      expect(JSON.stringify((await owner.api.get(path(webhooksApi.listWebhooks, { project: projectId }))).body)).not.toContain(webhook.secret);
      // The secret is stored sealed: the table does not hold it.
      const { rows } = await t.db.query<{ secret_sealed: string }>('SELECT secret_sealed FROM webhook_endpoints WHERE id = $1', [webhook.id]);
      expect(rows[0]?.secret_sealed).not.toContain(webhook.secret.slice(6));

      const appsOnly = await signedInAccount(app, t.db, [`cst:${projectId}:apps`]);
      const outsider = await signedInAccount(app, t.db);
      await createProject(outsider);
      const calls: Array<(by: { api: SignedIn['api'] }) => Promise<{ status: number }>> = [
        (by) => by.api.get(path(webhooksApi.listWebhooks, { project: projectId })),
        (by) =>
          by.api.post(path(webhooksApi.createWebhook, { project: projectId }), { url: 'https://hooks.example.com/', eventTypes: ['user.blocked'] }),
        (by) =>
          by.api.put(path(webhooksApi.updateWebhook, { project: projectId, webhook: webhook.id }), {
            url: 'https://x.example.com/',
            eventTypes: ['user.blocked'],
          }),
        (by) => by.api.post(path(webhooksApi.testWebhook, { project: projectId, webhook: webhook.id })),
        (by) => by.api.call('DELETE', path(webhooksApi.deleteWebhook, { project: projectId, webhook: webhook.id })),
      ];
      for (const call of calls) {
        expect((await call(appsOnly)).status).toBe(403);
        expect((await call(outsider)).status).toBe(404);
        expect((await call({ api: anonymous(app) })).status).toBe(401);
      }
      // A stale If-Match is refused; the current one saves and raises the version.
      const stale = await owner.api.put(
        path(webhooksApi.updateWebhook, { project: projectId, webhook: webhook.id }),
        { url: receiver.url, eventTypes: ['user.blocked'] },
        { headers: { 'if-match': '"7"' } },
      );
      expect(stale.status).toBe(412);
      const saved = await owner.api.put(
        path(webhooksApi.updateWebhook, { project: projectId, webhook: webhook.id }),
        { url: receiver.url, eventTypes: ['user.blocked'] },
        { headers: { 'if-match': '"1"' } },
      );
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.headers.etag).toBe('"2"');
      expect((await owner.api.call('DELETE', path(webhooksApi.deleteWebhook, { project: projectId, webhook: webhook.id }))).status).toBe(200);
      expect((await owner.api.get(path(webhooksApi.getWebhook, { project: projectId, webhook: webhook.id }))).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ['a link-local address (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['a private network', 'http://10.1.2.3/hooks'],
    ['a name for loopback that is not allowed here', 'http://[::ffff:a9fe:a9fe]/hooks'],
  ])('refuses an endpoint at %s when it is saved (400 naming url), and stores nothing', async (_what, url) => {
    const owner = await signedInAccount(app, t.db);
    const projectId = await createProject(owner);
    const res = await owner.api.post<ErrorAnswer>(path(webhooksApi.createWebhook, { project: projectId }), {
      url,
      eventTypes: ['sign_in.succeeded'],
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual(expect.objectContaining({ field: 'url' }));
    const { rows } = await t.db.query('SELECT 1 FROM webhook_endpoints WHERE project_id = $1', [projectId]);
    expect(rows).toEqual([]);
  });

  it('refuses bad bodies with 400 and a closed project with 409', async () => {
    const owner = await signedInAccount(app, t.db);
    const projectId = await createProject(owner);
    for (const body of [
      { url: 'ftp://hooks.example.com/', eventTypes: ['sign_in.succeeded'] },
      { url: 'https://user:pass@hooks.example.com/', eventTypes: ['sign_in.succeeded'] },
      { url: 'https://hooks.example.com/', eventTypes: [] },
      { url: 'https://hooks.example.com/', eventTypes: ['sign_in.exploded'] },
      { url: 'https://hooks.example.com/', eventTypes: ['user.blocked', 'user.blocked'] },
    ]) {
      expect((await owner.api.post(path(webhooksApi.createWebhook, { project: projectId }), body)).status, JSON.stringify(body)).toBe(400);
    }
    await closeProject(owner, projectId);
    expect(
      (
        await owner.api.post(path(webhooksApi.createWebhook, { project: projectId }), {
          url: 'https://hooks.example.com/',
          eventTypes: ['user.blocked'],
        })
      ).status,
    ).toBe(409);
  });

  it('sends each subscribed event, signed per Standard Webhooks (verified by its npm library), and nothing else', async () => {
    const receiver = await startReceiver();
    try {
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['device.revoked', 'user.blocked']);
      const { email, userId, mpinId } = await revokeADevice(owner, projectId);
      await owner.api.post(path(endUsersApi.blockEndUser, { project: projectId, user: userId }));
      await owner.api.post(path(endUsersApi.unblockEndUser, { project: projectId, user: userId })); // not an event type
      await app.services.outbox.deliverDue();
      const [revoked, blocked] = await receiver.until(2);
      expect(receiver.received).toHaveLength(2);
      const first = verified(webhook.secret, revoked as Received);
      expect(first).toMatchObject({
        type: 'device.revoked',
        data: { projectId, userID: email, scope: 'console', details: { action: 'device.revoke', mpinId } },
      });
      expect(verified(webhook.secret, blocked as Received)).toMatchObject({ type: 'user.blocked', data: { userID: email } });
      expect(revoked?.headers['webhook-id']).toBe(`msg_${String(first.data['id'])}`);
      expect(revoked?.headers['content-type']).toBe('application/json');
      // Another secret does not verify it.
      expect(() => verified(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, revoked as Received)).toThrow();
      // The delivery log says so, newest first.
      expect((await deliveries(owner, projectId, webhook.id)).map((d) => [d.eventType, d.status, d.lastStatus])).toEqual([
        ['user.blocked', 'delivered', 200],
        ['device.revoked', 'delivered', 200],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('keeps a failed delivery, retries it soon, and sends the endpoint’s messages in order; re-sends one on request, with the same id', async () => {
    const receiver = await startReceiver();
    try {
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['device.revoked']);
      receiver.status = 503;
      await revokeADevice(owner, projectId);
      await revokeADevice(owner, projectId);
      await app.services.outbox.deliverDue();
      // The first failed; the second waits behind it (in order per endpoint).
      expect(receiver.received).toHaveLength(1);
      const log = await deliveries(owner, projectId, webhook.id);
      expect(log.map((d) => [d.status, d.attempts, d.lastStatus, d.lastReason])).toEqual([
        ['pending', 0, null, null],
        ['pending', 1, 503, 'unexpected_status'],
      ]);
      const retryIn = new Date(log[1]?.nextAttemptAt as string).getTime() - app.clock.now().getTime();
      expect(retryIn).toBe(5000);

      receiver.status = 200;
      await app.services.outbox.deliverDue(); // not due yet
      expect(receiver.received).toHaveLength(1);
      app.clock.advance(5000);
      await app.services.outbox.deliverDue();
      const sent = await receiver.until(3);
      expect(sent.map((r) => r.headers['webhook-id'])).toEqual([
        sent[0]?.headers['webhook-id'],
        sent[0]?.headers['webhook-id'],
        log[0] ? `${log[0].id}` : '',
      ]);
      expect((await deliveries(owner, projectId, webhook.id)).map((d) => d.status)).toEqual(['delivered', 'delivered']);

      const resent = await owner.api.post<WebhookDelivery>(
        path(webhooksApi.resendWebhookDelivery, { project: projectId, webhook: webhook.id, delivery: log[1]?.id as string }),
      );
      expect(resent.body).toMatchObject({ status: 'pending', attempts: 0 });
      await app.services.outbox.deliverDue();
      expect((await receiver.until(4))[3]?.headers['webhook-id']).toBe(log[1]?.id);
      // A test event, on request.
      const test = await owner.api.post<WebhookDelivery>(path(webhooksApi.testWebhook, { project: projectId, webhook: webhook.id }));
      expect(test.body).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
      await app.services.outbox.deliverDue();
      expect(verified(webhook.secret, (await receiver.until(5))[4] as Received).type).toBe('webhook.test');
    } finally {
      await receiver.close();
    }
  });

  it('survives the receiver being down for a while: the message waits and arrives once it is back', async () => {
    const port = await freePort();
    const owner = await signedInAccount(app, t.db);
    const projectId = await createProject(owner);
    const created = await owner.api.post<WebhookCreated>(path(webhooksApi.createWebhook, { project: projectId }), {
      url: `http://127.0.0.1:${port}/hooks`,
      eventTypes: ['device.revoked'],
    });
    await revokeADevice(owner, projectId);
    await app.services.outbox.deliverDue();
    app.clock.advance(5000);
    await app.services.outbox.deliverDue();
    expect((await deliveries(owner, projectId, created.body.id)).map((d) => [d.status, d.attempts, d.lastReason])).toEqual([
      ['pending', 2, 'connect_failed'],
    ]);
    const receiver = await startReceiver(port);
    try {
      app.clock.advance(30_000);
      await app.services.outbox.deliverDue();
      expect(verified(created.body.secret, (await receiver.until(1))[0] as Received).type).toBe('device.revoked');
    } finally {
      await receiver.close();
    }
  });

  it('survives an instance stopped mid-delivery: another sends the message once its lease ends', async () => {
    const receiver = await startReceiver();
    try {
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['device.revoked']);
      await revokeADevice(owner, projectId);
      // An instance that claims the message and never comes back (its call hangs; the process is gone).
      const stuck = createOutbox({
        db: t.db,
        clock: app.clock,
        kinds: [webhookKind({ clock: app.clock, secretBox: app.services.secretBox })],
        outgoing: { post: () => new Promise(() => undefined), refusal: async () => null },
        warn: () => undefined,
      });
      void stuck.deliverDue();
      await expect.poll(async () => (await deliveries(owner, projectId, webhook.id))[0]?.attempts).toBe(1);
      await app.services.outbox.deliverDue();
      expect(receiver.received).toHaveLength(0); // it is the other's, under lease
      app.clock.advance(OUTBOX_LEASE_MS + 1);
      await app.services.outbox.deliverDue();
      expect(verified(webhook.secret, (await receiver.until(1))[0] as Received).type).toBe('device.revoked');
      expect((await deliveries(owner, projectId, webhook.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      await receiver.close();
    }
  });

  it('disables an endpoint that has failed for a day, says why, and writes an event; enabling it again clears that', async () => {
    const receiver = await startReceiver();
    try {
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['device.revoked']);
      receiver.status = 500;
      await revokeADevice(owner, projectId);
      await app.services.outbox.deliverDue();
      const failing = await owner.api.get<WebhookCreated>(path(webhooksApi.getWebhook, { project: projectId, webhook: webhook.id }));
      expect(failing.body).toMatchObject({ enabled: true, failingSince: app.clock.now().toISOString() });
      app.clock.advance(25 * 3_600_000);
      await app.services.outbox.deliverDue();
      // A day on, the admin signs in again (console sessions last 12 hours).
      const admin = await signedInAccount(app, t.db, [`cst:${projectId}:*`]);
      const disabled = await admin.api.get<WebhookCreated>(path(webhooksApi.getWebhook, { project: projectId, webhook: webhook.id }));
      expect(disabled.body).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('HTTP 500') });
      const { rows } = await t.db.query<{ event_status: string }>(
        `SELECT event_status FROM audit_events WHERE project_id = $1 AND details->>'action' = 'webhook.disabled'`,
        [projectId],
      );
      expect(rows).toEqual([{ event_status: 'disabled' }]);
      // Disabled: nothing more is sent nor queued.
      await revokeADevice(admin, projectId);
      app.clock.advance(3_600_000);
      await app.services.outbox.deliverDue();
      expect(receiver.received).toHaveLength(2);

      receiver.status = 200;
      const enabled = await admin.api.put<WebhookCreated>(path(webhooksApi.updateWebhook, { project: projectId, webhook: webhook.id }), {
        url: webhook.url,
        eventTypes: webhook.eventTypes,
        enabled: true,
      });
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
      await app.services.outbox.deliverDue();
      await receiver.until(3);
      expect((await deliveries(admin, projectId, webhook.id)).map((d) => d.status)).toEqual(['delivered']);
    } finally {
      await receiver.close();
    }
  });

  it('forgets the messages that name a person when they are erased', async () => {
    const receiver = await startReceiver();
    try {
      receiver.status = 503;
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['device.revoked', 'user.deleted']);
      const { email, userId } = await revokeADevice(owner, projectId);
      await app.services.outbox.deliverDue();
      expect((await owner.api.call('DELETE', path(endUsersApi.deleteEndUser, { project: projectId, user: userId }))).status).toBe(200);
      const log = await deliveries(owner, projectId, webhook.id);
      expect(log.map((d) => d.eventType)).toEqual(['user.deleted']);
      expect(JSON.stringify(log)).not.toContain(email);
    } finally {
      await receiver.close();
    }
  });

  it('delivers what the previous version queued during a rollover, in order with this version’s messages to the endpoint', async () => {
    const receiver = await startReceiver();
    try {
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['device.revoked']);
      const now = app.clock.now().getTime();
      // An instance of the previous version tried its message once; the next attempt is 30 s away.
      await previousVersionMessage({
        projectId,
        endpointId: webhook.id,
        id: 'msg_previous',
        createdAt: new Date(now - 1000),
        attempts: 1,
        nextAttemptAt: new Date(now + 30_000),
      });
      await revokeADevice(owner, projectId);
      await app.services.outbox.deliverDue();
      // This version's message waits behind the older one.
      expect(receiver.received).toHaveLength(0);
      app.clock.advance(30_000);
      await app.services.outbox.deliverDue();
      const sent = await receiver.until(2);
      expect(sent.map((r) => r.headers['webhook-id'])).toEqual(['msg_previous', expect.stringMatching(/^msg_[0-9a-f-]{36}$/)]);
      // Its body as the previous version wrote it (the clock moved on: the library would call the signature's time too new).
      expect(JSON.parse(sent[0]?.body ?? '')).toMatchObject({ type: 'device.revoked', data: { id: 'msg_previous', projectId } });
      // Moved into the outbox to be sent: the previous version's table holds it no more.
      expect(await previousVersionHolds('msg_previous')).toEqual([]);
      expect((await deliveries(owner, projectId, webhook.id)).map((d) => [d.id, d.status, d.attempts])).toEqual([
        [sent[1]?.headers['webhook-id'], 'delivered', 1],
        ['msg_previous', 'delivered', 2],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('shows the previous version’s log beside this one’s, re-sends from it, and erases a person from both', async () => {
    const receiver = await startReceiver();
    try {
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['device.revoked']);
      const { email, userId } = await revokeADevice(owner, projectId);
      await app.services.outbox.deliverDue();
      await receiver.until(1);
      const at = app.clock.now().getTime();
      for (const [id, ms] of [
        ['msg_previous_old', -60_000],
        ['msg_previous_new', 60_000],
      ] as const) {
        await previousVersionMessage({ projectId, endpointId: webhook.id, id, subject: email, createdAt: new Date(at + ms), status: 'delivered' });
      }
      const log = await deliveries(owner, projectId, webhook.id);
      expect(log.map((d) => [d.id.startsWith('msg_previous') ? d.id : 'this version', d.status])).toEqual([
        ['msg_previous_new', 'delivered'],
        ['this version', 'delivered'],
        ['msg_previous_old', 'delivered'],
      ]);
      const limited = await owner.api.get<{ list: WebhookDelivery[] }>(
        `${path(webhooksApi.listWebhookDeliveries, { project: projectId, webhook: webhook.id })}?limit=2`,
      );
      expect(limited.body.list.map((d) => d.id)).toEqual(log.slice(0, 2).map((d) => d.id));

      const resent = await owner.api.post<WebhookDelivery>(
        path(webhooksApi.resendWebhookDelivery, { project: projectId, webhook: webhook.id, delivery: 'msg_previous_old' }),
      );
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ id: 'msg_previous_old', status: 'pending', attempts: 0 });
      expect(await previousVersionHolds('msg_previous_old')).toEqual([]);
      await app.services.outbox.deliverDue();
      expect((await receiver.until(2))[1]?.headers['webhook-id']).toBe('msg_previous_old');

      expect((await owner.api.call('DELETE', path(endUsersApi.deleteEndUser, { project: projectId, user: userId }))).status).toBe(200);
      expect(await previousVersionHolds('msg_previous_new')).toEqual([]);
      expect(JSON.stringify(await deliveries(owner, projectId, webhook.id))).not.toContain(email);
    } finally {
      await receiver.close();
    }
  });

  it('forgets a removed endpoint’s messages, and keeps the log a week in both tables', async () => {
    const receiver = await startReceiver();
    try {
      const { owner, projectId, webhook } = await projectWithEndpoint(receiver, ['device.revoked']);
      const outboxOf = async (endpointId: string) =>
        (
          await t.db.query<{ id: string }>(`SELECT id FROM outbox_messages WHERE project_id = $1 AND kind = 'webhook' AND recipient = $2`, [
            projectId,
            endpointId,
          ])
        ).rows;
      await revokeADevice(owner, projectId);
      await app.services.outbox.deliverDue();
      await receiver.until(1);
      await previousVersionMessage({ projectId, endpointId: webhook.id, id: 'msg_previous', createdAt: app.clock.now(), status: 'delivered' });

      const other = await owner.api.post<WebhookCreated>(path(webhooksApi.createWebhook, { project: projectId }), {
        url: `${receiver.url}/other`,
        eventTypes: ['user.blocked'],
        enabled: false,
      });
      // A message queued as its endpoint was being removed (the event's statement saw it still there).
      await t.db.query(
        `INSERT INTO outbox_messages (project_id, kind, recipient, id, topic, payload, created_at, status, next_attempt_at)
         VALUES ($1, 'webhook', 'wh_removed', 'msg_orphan', 'user.blocked', '{}', $2, 'pending', $2)`,
        [projectId, app.clock.now()],
      );
      await t.db.query(
        `INSERT INTO outbox_messages (project_id, kind, recipient, id, topic, payload, created_at, status, next_attempt_at)
         VALUES ($1, 'webhook', $2, 'msg_waiting', 'user.blocked', '{}', $3, 'pending', $3)`,
        [projectId, other.body.id, app.clock.now()],
      );
      expect(await outboxOf(other.body.id)).toEqual([{ id: 'msg_waiting' }]);
      expect((await owner.api.call('DELETE', path(webhooksApi.deleteWebhook, { project: projectId, webhook: other.body.id }))).status).toBe(200);
      expect(await outboxOf(other.body.id)).toEqual([]);

      await app.services.outbox.housekeeping();
      expect(await outboxOf('wh_removed')).toEqual([]);
      expect(await deliveries(owner, projectId, webhook.id)).toHaveLength(2);
      app.clock.advance(7 * 86_400_000 + 1);
      await app.services.outbox.housekeeping();
      const admin = await signedInAccount(app, t.db, [`cst:${projectId}:*`]);
      expect(await deliveries(admin, projectId, webhook.id)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
