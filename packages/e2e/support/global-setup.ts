import { chromium, type FullConfig } from '@playwright/test';
import { startServer } from './server.ts';
import { signIn, OWNER_EMAIL } from './auth.ts';
import { createDatabase } from './database.ts';

/** Starts the server for the whole run; the function it answers stops it (Playwright's teardown). */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const database = await createDatabase();
  const server = await startServer({ DATABASE_URL: database.url }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
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
    // The first account ever to sign in becomes the owner (glb::*). Claim it here, so that every
    // scenario's "new user" is an ordinary account with no permissions.
    const browser = await chromium.launch(config.projects[0]?.use.launchOptions ?? {});
    const page = await browser.newPage({ baseURL: server.url });
    await signIn(page, OWNER_EMAIL);
    await browser.close();
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
