// The OpenAPI document of the management API, generated from the real app (the contract entries as
// registered by buildApp on an in-memory database), never from a hand-kept copy.
//
//   node packages/server/scripts/openapi.ts             print the document
//   node packages/server/scripts/openapi.ts FILE        write it to FILE
//   node packages/server/scripts/openapi.ts --lint      lint it with Redocly (`npm run lint`)
//
// --lint writes the document to a temporary folder and runs `redocly lint` with the root
// redocly.yaml (recommended rules); the exit code is Redocly's. It works offline: telemetry and the
// update check are off, and nothing is resolved outside the document.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The document /api/openapi.json answers, from an app on a throw-away in-memory database. A random
 * secret key and a temporary data folder keep it from touching ./data.
 */
export async function generateOpenApiDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-openapi-data-'));
  const db = await openPglite(null);
  try {
    await migrate(db);
    const built = await buildApp({
      // A deployment's document names its PUBLIC_URL. This one names the loopback address the
      // server binds by default: the default PUBLIC_URL, http://localhost:8080 (docs/decisions/0013),
      // is the placeholder Redocly's recommended rules refuse in a document (no-server-example.com).
      config: loadConfig({ DATA_DIR: dataDir, SECRET_KEY: randomBytes(32).toString('base64'), PUBLIC_URL: 'http://127.0.0.1:8080' }),
      db,
      logger: false,
      mailer: { sendLoginCode: async () => {}, sendLoginLink: async () => {}, sendInvitation: async () => {}, sendNotice: async () => {} },
      consoleDist: '/nonexistent/console/dist',
    });
    try {
      return built.app.swagger();
    } finally {
      await built.app.close();
    }
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Redocly's lint of the document with the root redocly.yaml: its exit code, and what it printed
 * (`capture`; else it prints to this process's terminal). openapi.test.ts runs it in `npm test`.
 */
export function lintOpenApiDocument(document: unknown, { capture = false } = {}): { status: number; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    const result = spawnSync(
      process.execPath,
      [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', join(root, 'redocly.yaml')],
      {
        stdio: capture ? 'pipe' : 'inherit',
        encoding: 'utf8',
        cwd: root,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    if (result.error) throw result.error;
    return { status: result.status ?? 1, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = process.argv[2];
  const document = await generateOpenApiDocument();
  if (arg === '--lint') {
    process.exitCode = lintOpenApiDocument(document).status;
  } else if (arg) {
    writeFileSync(arg, `${JSON.stringify(document, null, 2)}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }
}
