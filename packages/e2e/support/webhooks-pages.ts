import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page } from '@playwright/test';
import { listRows } from './devices-pages.ts';

// The webhooks settings (issue 24) and a receiver on loopback that takes what they send.

export interface WebhookReceiver {
  url: string;
  received: Array<{ headers: IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: WebhookReceiver['received'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function goToWebhooks(page: Page, projectId: string): Promise<void> {
  await page.goto(`/project/${projectId}/webhooks`);
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
}

/** "Add endpoint": its URL and events, then Add. */
export async function addEndpoint(page: Page, url: string, events: string[]): Promise<void> {
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
  await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
  for (const event of events) await dialog.getByRole('checkbox', { name: event }).check();
  await dialog.getByRole('button', { name: 'Add endpoint', exact: true }).click();
}

/** The signing secret's one-time dialog: read it, then "I have copied it". */
export async function readSecretAndAcknowledge(page: Page): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'Signing secret' });
  await expect(dialog).toBeVisible();
  const secret = await dialog.getByRole('textbox', { name: 'Secret', exact: true }).inputValue();
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await expect(dialog).toBeHidden();
  return secret;
}

export async function expectOnWebhookPage(page: Page, url: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Webhook' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Endpoint URL' })).toHaveValue(url);
}

export async function clickSendTestEvent(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send test event' }).click();
}

/** The delivery log's row of `event` says `status`. */
export async function expectDelivery(page: Page, event: string, status: 'Delivered' | 'Pending' | 'Failed'): Promise<void> {
  await expect(listRows(page, 'Delivery log').filter({ hasText: event }).first()).toContainText(status, { timeout: 15_000 });
}
