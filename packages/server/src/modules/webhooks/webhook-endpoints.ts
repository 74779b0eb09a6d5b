import { DomainError, type Webhook, type WebhookBody, type WebhookCreated } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomToken, type SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { OutgoingClient } from '../../http/outgoing.ts';
import { lockOpenProject } from '../../people/open-project.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import { newWebhookSecret, secretContext } from './webhook-delivery.ts';
import { deleteEndpoint, findEndpoint, insertEndpoint, listEndpoints, updateEndpoint } from './webhooks.repository.ts';

export interface WebhooksServiceDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  secretBox: SecretBox;
  outgoing: OutgoingClient;
  /** A message was queued: deliver now rather than at the next poll. */
  queued?: () => void;
}

type Body = Required<Pick<WebhookBody, 'url' | 'eventTypes'>> & { enabled: boolean; description: string };

/** Inside a write's transaction: the project locked open, the endpoint's row locked; 404 / 409 otherwise. */
export async function lockEndpoint(tx: Db, projectId: string, id: string): Promise<Versioned<Webhook>> {
  await lockOpenProject(tx, projectId);
  const endpoint = await findEndpoint(tx, projectId, id, { forUpdate: true });
  if (!endpoint) throw notFound('No such webhook in this project');
  return endpoint;
}

const shape = (e: Pick<Webhook, 'url' | 'eventTypes' | 'enabled' | 'description'>) => ({
  url: e.url,
  eventTypes: [...e.eventTypes],
  enabled: e.enabled,
  description: e.description,
});

/** A project's webhook endpoints themselves: listed, read, created with their secret, changed, deleted. */
export function createWebhookEndpoints({ db, clock, audit, secretBox, outgoing }: WebhooksServiceDeps) {
  /** The server never becomes a way into the operator's network: an address it may not call is refused when saved. */
  async function checkUrl(url: string): Promise<void> {
    if ((await outgoing.refusal(url)) === null) return;
    throw new DomainError('validation_failed', 'This address is not public: the server does not call it', [
      { field: 'url', code: 'validation.invalid_url', message: 'This address is not public: the server does not call it' },
    ]);
  }

  return {
    list: async (projectId: string) => ({ list: await listEndpoints(db, projectId) }),

    async get(projectId: string, id: string): Promise<Versioned<Webhook>> {
      const endpoint = await findEndpoint(db, projectId, id);
      if (!endpoint) throw notFound('No such webhook in this project');
      return endpoint;
    },

    /** A new endpoint and its secret, shown this once (stored sealed). */
    async create(actor: Actor, projectId: string, body: Body): Promise<WebhookCreated> {
      await checkUrl(body.url);
      const secret = newWebhookSecret();
      return db.transaction(async (tx) => {
        await lockOpenProject(tx, projectId);
        const id = `wh_${randomToken(12)}`;
        const created = await insertEndpoint(tx, {
          ...body,
          projectId,
          id,
          secretSealed: secretBox.seal(secret, secretContext(projectId, id)),
          now: clock.now(),
        });
        await audit(tx, {
          actor,
          action: 'webhook.create',
          result: 'created',
          projectId,
          changes: changesBetween({}, shape(created)),
          details: { webhookId: id },
        });
        return { ...created, secret };
      });
    },

    async update(actor: Actor, projectId: string, id: string, body: Body, ifMatch: number | null): Promise<Versioned<Webhook>> {
      await checkUrl(body.url);
      return db.transaction(async (tx) => {
        const before = await lockEndpoint(tx, projectId, id);
        checkVersion(before.version, ifMatch, 'webhook');
        const after = await updateEndpoint(tx, { ...body, projectId, id, now: clock.now() });
        await audit(tx, {
          actor,
          action: 'webhook.update',
          result: 'success',
          projectId,
          changes: changesBetween(shape(before.value), shape(after.value)),
          details: { webhookId: id },
        });
        return after;
      });
    },

    async remove(actor: Actor, projectId: string, id: string): Promise<{ id: string; deleted: true }> {
      return db.transaction(async (tx) => {
        const before = await lockEndpoint(tx, projectId, id);
        await deleteEndpoint(tx, projectId, id);
        await audit(tx, {
          actor,
          action: 'webhook.delete',
          result: 'success',
          projectId,
          changes: changesBetween(shape(before.value), {}),
          details: { webhookId: id },
        });
        return { id, deleted: true as const };
      });
    },
  };
}
