import { api, GLOBAL_WILDCARD } from '@latchkey/domain';
import { chromium, type FullConfig } from '@playwright/test';
import { callApiOk } from './call-api.ts';
import { startServer } from './start-server.ts';
import { signIn, OWNER_EMAIL } from './sign-in.ts';
import { createDatabase } from './database.ts';

/** Starts the server for the whole run; the function it answers stops it (Playwright's teardown). */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const database = await createDatabase();
  // Loopback is the test's own proxy: each scenario's page names its client address (fixtures.ts).
  const server = await startServer({ DATABASE_URL: database.url, TRUST_PROXY: '127.0.0.1,::1', OUTGOING_ALLOWED_NETWORKS: '127.0.0.0/8,::1' }).catch(
    async (error: unknown) => {
      await database.drop();
      throw error;
    },
  );
  process.env.LATCHKEY_URL = server.url;
  process.env.LATCHKEY_LOG = server.logFile;
  process.env.LATCHKEY_DATABASE_URL = database.url;
  const stop = async () => {
    if (server.child.exitCode === null) {
      const exited = new Promise((ok) => server.child.once('exit', ok));
      server.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((ok) => setTimeout(ok, 5000))]);
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
    await database.drop();
  };
  try {
    // The first account ever to sign in becomes the owner (GLOBAL_WILDCARD). Claim it here, so that every
    // scenario's "new user" is an ordinary account with no permissions.
    const browser = await chromium.launch(config.projects[0]?.use.launchOptions ?? {});
    const page = await browser.newPage({ baseURL: server.url });
    await signIn(page, OWNER_EMAIL);
    const owner = await callApiOk(page, api.getAccount);
    if (!owner.permissions.includes(GLOBAL_WILDCARD)) throw new Error(`${OWNER_EMAIL} did not become the owner (${GLOBAL_WILDCARD})`);
    await browser.close();
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
