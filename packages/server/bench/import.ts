/**
 * Import bench (`node packages/server/bench/import.ts`, run by `npm run bench`; issue 37,
 * docs/decisions/0052): a file of BENCH_IMPORT_LINES people (default 1,000,000; one in ten with a
 * PBKDF2 hash, one in a thousand refused) streamed to POST /api/projects/{p}/user-imports on the
 * real app over a fresh PostgreSQL database, which stores it (202) for the app's import worker; the
 * import rate (users per second, from the first byte to the job done), the time until the 202, and
 * the server's peak memory meanwhile, upload and import (RSS sampled every 100 ms, the live heap
 * after a full collection every 2 s; the file is generated as it is sent, so what grows is the server's).
 *
 * Prints one JSON line per figure ({name, value, unit, target, better}); other lines start with
 * something else. The database is a fresh `latchkey_import_<random>`, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { newProjectSettings, XSRF_COOKIE, XSRF_HEADER, type UserImport } from '@latchkey/domain';
import { migrate } from '../src/db/migrate.ts';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { grantPermissions, insertAccount } from '../src/modules/accounts/accounts.repository.ts';
import { insertProject } from '../src/modules/projects/projects.repository.ts';
import { benchApp } from './bench-app.ts';
import { figure, say } from './report.ts';
import { createScratchPostgres } from '../test/support/scratch-postgres.ts';

const SERVER_URL = process.env.LATCHKEY_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LINES = Number(process.env.BENCH_IMPORT_LINES ?? 1_000_000);
const HASH = '$pbkdf2-sha256$29000$N2ZmZjEyMzQ1Njc4OTBhYg$Ab3ox7yJ5V0zdJ7YqVRwFUg9q9oZC3nE6Ga5dQbE8xU';

/** The file, a thousand lines a chunk, made as it is read. */
function* file(): Generator<string> {
  for (let i = 0; i < LINES; i += 1000) {
    let chunk = '';
    for (let j = i; j < Math.min(LINES, i + 1000); j += 1) {
      if (j % 1000 === 999) chunk += `{"email":"not an address ${j}"}\n`;
      else if (j % 10 === 0) chunk += `{"email":"p${j}@bench.example","verified":true,"externalId":"${j}","passwordHash":"${HASH}"}\n`;
      else chunk += `{"email":"p${j}@bench.example","verified":true,"name":"Person ${j}","externalId":"${j}"}\n`;
    }
    yield chunk;
  }
}

const scratch = await createScratchPostgres(SERVER_URL, 'latchkey_import');
try {
  await migrate(scratch.db);
  const projectId = 'importbench';
  await insertProject(scratch.db, {
    id: projectId,
    email: 'bench@example.test',
    createdBy: null,
    settings: newProjectSettings('Import'),
    now: new Date(),
  });
  const built = await benchApp(scratch.db);
  try {
    const account = await insertAccount(scratch.db, { id: randomUUID(), email: 'bench@example.test', createdAt: new Date() });
    await grantPermissions(scratch.db, account.id, [`cst:${projectId}:revocation`]);
    const session = await built.services.sessions.createSession(account.id, null);
    // The heap as it is held (after a full collection, every 2 s), beside the RSS sampled every 100 ms:
    // heapUsed between collections counts garbage not yet collected.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakLive = base.heapUsed;
    let ticks = 0;
    const sampler = setInterval(() => {
      ticks += 1;
      if (ticks % 20 === 0) {
        gc();
        peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
      }
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 100);
    say(`importing ${LINES.toLocaleString('en')} lines…`);
    const started = performance.now();
    const res = await built.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/user-imports`,
      headers: {
        'content-type': 'application/x-ndjson',
        cookie: `${SESSION_COOKIE}=${session.sessionId}; ${XSRF_COOKIE}=${session.xsrfToken}`,
        [XSRF_HEADER]: session.xsrfToken,
      },
      payload: Readable.from(file()),
    });
    const stored = (performance.now() - started) / 1000;
    const queued = res.json<UserImport>();
    if (res.statusCode !== 202) throw new Error(`import answered ${res.statusCode}: ${res.body}`);
    say(`stored in ${stored.toFixed(1)} s; importing…`);
    // The worker was nudged when the file was queued: a round asked for now ends after the job does.
    await built.services.userImports.runNow();
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const answer = (
      await built.app.inject({
        method: 'GET',
        url: `/api/projects/${projectId}/user-imports/${queued.id}`,
        headers: { cookie: `${SESSION_COOKIE}=${session.sessionId}; ${XSRF_COOKIE}=${session.xsrfToken}` },
      })
    ).json<UserImport>();
    if (answer.status !== 'done') throw new Error(`import ended ${answer.status}: ${answer.failure ?? ''}`);
    say(`imported ${answer.imported}, refused ${answer.refused}, in ${seconds.toFixed(1)} s`);
    figure(
      `user import: users per second (${LINES.toLocaleString('en')}-line JSON Lines file)`,
      answer.imported / seconds,
      'users/s',
      2000,
      'higher',
    );
    figure(`user import: seconds until the file is stored (202)`, stored, 's', 60);
    figure('user import: server peak RSS while importing', peakRss / 1024 / 1024, 'MiB', 512);
    figure('user import: server live heap growth while importing (after full collections)', (peakLive - base.heapUsed) / 1024 / 1024, 'MiB', 32);
  } finally {
    await built.app.close();
  }
} finally {
  await scratch.drop();
}
