import { createProjectThroughApi } from '../support/call-api.ts';
import { expect, expectAccessible, test } from '../support/fixtures.ts';
import { saveShots } from '../support/shots.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import {
  addEndpoint,
  clickSendTestEvent,
  expectDelivery,
  expectOnWebhookPage,
  goToWebhooks,
  readSecretAndAcknowledge,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhooks-pages.ts';

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => receiver?.close());

test('a project admin adds a webhook endpoint, keeps its secret, sends a test event and sees it delivered', async ({ page }) => {
  await signIn(page, newEmail('webhook-admin'));
  const projectId = await createProjectThroughApi(page, `Hooks ${Date.now().toString(36)}`);

  await test.step('adds an endpoint for sign-ins: the secret is shown once', async () => {
    await goToWebhooks(page, projectId);
    await expectAccessible(page);
    await addEndpoint(page, receiver.url, ['sign_in.succeeded', 'user.blocked']);
    const secret = await readSecretAndAcknowledge(page);
    expect(secret).toMatch(/^whsec_/);
    await expectOnWebhookPage(page, receiver.url);
  });

  await test.step('sends a test event: the receiver has it, signed, and the log says Delivered', async () => {
    await clickSendTestEvent(page);
    await expectDelivery(page, 'webhook.test', 'Delivered');
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toContain('webhook.test');
    expect(receiver.received[0]?.headers['webhook-signature']).toMatch(/^v1,/);
    await saveShots(page, 'webhook', { phone: true });
    await expectAccessible(page);
  });

  await test.step('the list shows the endpoint, enabled', async () => {
    await goToWebhooks(page, projectId);
    await saveShots(page, 'webhooks', { fullPage: false });
  });
});
