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
import { createWebhookDelivery, WEBHOOK_LEASE_MS } from '../src/modules/webhooks/webhook-delivery.ts';
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
      await app.services.webhookDelivery.deliverDue();
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
      await app.services.webhookDelivery.deliverDue();
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
      await app.services.webhookDelivery.deliverDue(); // not due yet
      expect(receiver.received).toHaveLength(1);
      app.clock.advance(5000);
      await app.services.webhookDelivery.deliverDue();
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
      await app.services.webhookDelivery.deliverDue();
      expect((await receiver.until(4))[3]?.headers['webhook-id']).toBe(log[1]?.id);
      // A test event, on request.
      const test = await owner.api.post<WebhookDelivery>(path(webhooksApi.testWebhook, { project: projectId, webhook: webhook.id }));
      expect(test.body).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
      await app.services.webhookDelivery.deliverDue();
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
    await app.services.webhookDelivery.deliverDue();
    app.clock.advance(5000);
    await app.services.webhookDelivery.deliverDue();
    expect((await deliveries(owner, projectId, created.body.id)).map((d) => [d.status, d.attempts, d.lastReason])).toEqual([
      ['pending', 2, 'connect_failed'],
    ]);
    const receiver = await startReceiver(port);
    try {
      app.clock.advance(30_000);
      await app.services.webhookDelivery.deliverDue();
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
      const stuck = createWebhookDelivery({
        db: t.db,
        clock: app.clock,
        secretBox: app.services.secretBox,
        outgoing: { post: () => new Promise(() => undefined), refusal: async () => null },
        warn: () => undefined,
      });
      void stuck.deliverDue();
      await expect.poll(async () => (await deliveries(owner, projectId, webhook.id))[0]?.attempts).toBe(1);
      await app.services.webhookDelivery.deliverDue();
      expect(receiver.received).toHaveLength(0); // it is the other's, under lease
      app.clock.advance(WEBHOOK_LEASE_MS + 1);
      await app.services.webhookDelivery.deliverDue();
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
      await app.services.webhookDelivery.deliverDue();
      const failing = await owner.api.get<WebhookCreated>(path(webhooksApi.getWebhook, { project: projectId, webhook: webhook.id }));
      expect(failing.body).toMatchObject({ enabled: true, failingSince: app.clock.now().toISOString() });
      app.clock.advance(25 * 3_600_000);
      await app.services.webhookDelivery.deliverDue();
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
      await app.services.webhookDelivery.deliverDue();
      expect(receiver.received).toHaveLength(2);

      receiver.status = 200;
      const enabled = await admin.api.put<WebhookCreated>(path(webhooksApi.updateWebhook, { project: projectId, webhook: webhook.id }), {
        url: webhook.url,
        eventTypes: webhook.eventTypes,
        enabled: true,
      });
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
      await app.services.webhookDelivery.deliverDue();
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
      await app.services.webhookDelivery.deliverDue();
      expect((await owner.api.call('DELETE', path(endUsersApi.deleteEndUser, { project: projectId, user: userId }))).status).toBe(200);
      const log = await deliveries(owner, projectId, webhook.id);
      expect(log.map((d) => d.eventType)).toEqual(['user.deleted']);
      expect(JSON.stringify(log)).not.toContain(email);
    } finally {
      await receiver.close();
    }
  });
});
