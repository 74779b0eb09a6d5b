import { z } from 'zod';
import { limitParam } from '../list/schema.ts';
import { isUrl, requiredText, text } from '../validation/fields.ts';

/**
 * The events a project's webhook endpoint can receive (issue 24 "Webhooks", docs/decisions/0039):
 * each is an audit event of the project, named the way receivers route on (`noun.verb`).
 */
export const WEBHOOK_EVENT_TYPES = [
  'device.registered',
  'sign_in.succeeded',
  'sign_in.failed',
  'sign_in.refused',
  'device.revoked',
  'user.blocked',
  'user.deleted',
  'settings.changed',
  'application.changed',
  // Account recovery (issue 37, docs/decisions/0051).
  'recovery.codes_created',
  'recovery.code_used',
  'recovery.email_started',
  'recovery.email_cancelled',
  'recovery.link_created',
  'recovery.link_used',
  // A passkey holder signed in by the project's own verification (docs/decisions/0051).
  'recovery.custom_sign_in',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What "Send test event" sends: not an event of the project, never subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

// The console's settings actions that change what the issuer does (decision 0014 "Management actions").
const SETTINGS_ACTIONS = new Set([
  'project.update',
  'project.meta',
  'project.close',
  'project.reopen',
  'issuer.update',
  'issuer.keys.rotate',
  'issuer.move',
]);

// The end user's own recovery events (issue 37): the audit action is the webhook's type.
const RECOVERY_ACTIONS = new Map<string, WebhookEventType>(
  (
    [
      'recovery.codes_created',
      'recovery.code_used',
      'recovery.email_started',
      'recovery.email_cancelled',
      'recovery.link_used',
      'recovery.custom_sign_in',
    ] as const
  ).map((a) => [a, a]),
);

/** The webhook event type of an audit event (its scope, details.action and result), or null when none is sent for it. */
export function webhookEventTypeOf(e: { scope: string; action: string | undefined; result: string }): WebhookEventType | null {
  const { action, result } = e;
  if (e.scope === 'console') {
    if (action === 'device.revoke' && result === 'success') return 'device.revoked';
    if (action === 'user.block' && result === 'success') return 'user.blocked';
    if (action === 'user.delete' && result === 'success') return 'user.deleted';
    if (action && SETTINGS_ACTIONS.has(action) && result === 'success') return 'settings.changed';
    if (action?.startsWith('app.') && result === 'success') return 'application.changed';
    if (action === 'recovery.link_created' && result === 'success') return 'recovery.link_created';
    return null;
  }
  if (action === 'device.register' && (result === 'created' || result === 'success')) return 'device.registered';
  // The end user removed a passkey on their account page (issue 24).
  if (action === 'device.revoke' && result === 'success') return 'device.revoked';
  const recovery = action && RECOVERY_ACTIONS.get(action);
  if (recovery && result === 'success') return recovery;
  if (action === 'sign_in') {
    if (result === 'success') return 'sign_in.succeeded';
    if (result === 'failed') return 'sign_in.failed';
    if (result === 'denied' || result === 'disabled') return 'sign_in.refused';
  }
  return null;
}

/** Where an endpoint is: http(s), with a host, no user name or password in it, no fragment. */
export function isWebhookUrl(value: string): boolean {
  if (!isUrl(value)) return false;
  const url = new URL(value);
  return url.username === '' && url.password === '' && url.hash === '' && !value.includes('#');
}

const eventTypes = () =>
  z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'validation.invalid_value' }), { error: 'validation.invalid_value' })
    .min(1, { error: 'validation.required' })
    .max(WEBHOOK_EVENT_TYPES.length, { error: 'validation.invalid_value' })
    .refine((types) => new Set(types).size === types.length, { error: 'validation.invalid_value' });

/** POST projects/{project}/webhooks and PUT …/webhooks/{webhook}: what an endpoint is. */
export const webhookBodySchema = z.object({
  url: requiredText().refine(isWebhookUrl, { error: 'validation.invalid_url' }),
  eventTypes: eventTypes(),
  enabled: z.boolean({ error: 'validation.invalid_value' }).default(true),
  description: text().default(''),
});
export type WebhookBody = z.input<typeof webhookBodySchema>;

/** An endpoint as the API answers it (never its secret, but when it is made or rotated). */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  description: z.string(),
  createdAt: z.string(),
  /** Since when its deliveries fail (null: the last one succeeded, or none was made). */
  failingSince: z.string().nullable(),
  /** Why the server disabled it (it failed for a day), or null. */
  disabledReason: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({ list: z.array(webhookSchema) });
export type WebhookList = z.infer<typeof webhookListSchema>;

/** The endpoint and its signing secret (`whsec_…`, Standard Webhooks), shown this once. */
export const webhookCreatedSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One message to an endpoint and what its delivery came to (the delivery log). */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventType: z.string(),
  createdAt: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The last attempt's HTTP status, its time in ms, or why it got no answer. */
  lastStatus: z.number().int().nullable(),
  lastMs: z.number().int().nullable(),
  lastReason: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  /** The body as sent (JSON). */
  payload: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** The newest deliveries of an endpoint first, at most `limit` (the log keeps a week). */
export const webhookDeliveriesQuerySchema = z.object({ limit: limitParam(100, 25) });
export const webhookDeliveriesSchema = z.object({ list: z.array(webhookDeliverySchema) });
export type WebhookDeliveries = z.infer<typeof webhookDeliveriesSchema>;
