import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => ok(port));
    });
  });
}

export interface StartedServer {
  url: string;
  logFile: string;
  dataDir: string;
  child: ChildProcess;
}

/**
 * Starts the real server (the same entry as `npm start`, on the already built console) with a
 * fresh embedded database; its whole output goes to a log file the tests read sign-in codes from.
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<StartedServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-e2e-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  // A host name, not 127.0.0.1: browsers refuse passkeys on an IP address (the server still binds
  // 127.0.0.1, its default HOST).
  const url = `http://localhost:${port}`;
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ['packages/server/src/main.ts'], {
    cwd: repoRoot,
    // ISSUER_DOMAIN=none: the scenarios' projects keep their issuers at {PUBLIC_URL}/p/{project}; the
    // passkey-first page on a project's own host (docs/decisions/0047) gets its scenarios with that page.
    env: { ...process.env, PORT: String(port), PUBLIC_URL: url, DATA_DIR: dataDir, ISSUER_DOMAIN: 'none', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start within 60 s; see ${logFile}`)), 60_000);
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(`running at ${url}`)) {
        clearTimeout(timer);
        ok();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}; see ${logFile}`));
    });
  });
  return { url, logFile, dataDir, child };
}
