import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type FullConfig } from '@playwright/test';
import { startServer } from './server.ts';
import { signIn, OWNER_EMAIL } from './auth.ts';

export const stateFile = join(import.meta.dirname, '..', '..', '..', 'test-results', 'e2e-server.json');

export default async function globalSetup(config: FullConfig): Promise<void> {
  const server = await startServer();
  process.env.LATCHKEY_URL = server.url;
  process.env.LATCHKEY_LOG = server.logFile;
  writeFileSync(stateFile, JSON.stringify({ pid: server.child.pid }));
  server.child.unref();

  // The first account ever to sign in becomes the owner (glb::*). Claim it here, so that every
  // scenario's "new user" is an ordinary account with no permissions.
  const launch = config.projects[0]?.use.launchOptions ?? {};
  const browser = await chromium.launch(launch);
  const page = await browser.newPage({ baseURL: server.url });
  await signIn(page, OWNER_EMAIL);
  await browser.close();
}
