import { randomBytes, pbkdf2Sync, scryptSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import bcrypt from 'bcryptjs';
import { expect, it } from 'vitest';
import {
  api,
  endUsersApi,
  userImportsApi,
  XSRF_COOKIE,
  XSRF_HEADER,
  type EndUserDetail,
  type UserImport,
  type UserImportReport,
} from '@latchkey/domain';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import * as client from 'openid-client';
import { createAuditHook } from '../src/modules/audit/audit.service.ts';
import { createImportWorker, IMPORT_LEASE_MS } from '../src/modules/user-imports/import-worker.ts';
import { deleteExpiredImportedPasswords } from '../src/people/imported-passwords.repository.ts';
import { passwordMatches, parsePasswordHash } from '../src/people/password-hashes.ts';
import { createPasskey, pageOptions, type CreationOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { formAction, formHolding, isPasskeyOffer, submitEmail } from './support/sign-in.ts';
import { anonymous, signedInAccount, uniqueEmail, useTestApp, type SignedIn, type TestApp } from './support/app.ts';
import { describeEachDatabase, describeWithDatabase } from './support/databases.ts';
import { apiPath, closeProject, createProject, databaseFingerprint, getProject, storeDevice } from './support/fixtures.ts';

// Issue 37 "Migration" (docs/decisions/0052): importing users from a file, and exporting them.

const importPath = (project: string, query = '') => `${apiPath(userImportsApi.importEndUsers, { project })}${query}`;
const JSONL = { 'content-type': 'application/x-ndjson' };
const CSV = { 'content-type': 'text/csv' };

function upload(by: SignedIn, project: string, body: string | Readable, headers: Record<string, string> = JSONL, query = '') {
  return by.api.call<UserImport>('POST', importPath(project, query), body, { headers });
}
const reportPath = (project: string, id: string) => apiPath(userImportsApi.getUserImport, { project, import: id });

/**
 * Uploads the file (202: stored, queued) and waits for the app's import worker to finish it: a
 * round asked for now runs after the one under way, so the job queued before it is done by then.
 */
async function imported(app: TestApp, by: SignedIn, project: string, body: string | Readable, headers: Record<string, string> = JSONL) {
  const res = await upload(by, project, body, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await app.services.userImports.runNow();
  return (await by.api.get<UserImportReport>(reportPath(project, res.body.id))).body;
}

/** Polls until `check` holds (at most 5 s). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let tries = 0; tries < 100 && !check(value); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

const lines = (...people: unknown[]) => people.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join('\n');

/** Hashes made with the real algorithms, as another system would have stored them. */
const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
const ab64 = (b: Buffer) => b64(b).replaceAll('+', '.');
function hashes(password: string) {
  const salt = randomBytes(16);
  const argon2 = (createRequire(import.meta.url)('node:crypto') as { argon2Sync?: (a: string, o: object) => Buffer }).argon2Sync;
  return {
    bcrypt: bcrypt.hashSync(password, 4),
    scrypt: `$scrypt$ln=14,r=8,p=1$${b64(salt)}$${b64(scryptSync(password, salt, 32, { N: 2 ** 14, r: 8, p: 1 }))}`,
    pbkdf2: `$pbkdf2-sha256$29000$${ab64(salt)}$${ab64(pbkdf2Sync(password, salt, 29000, 32, 'sha256'))}`,
    django: `pbkdf2_sha256$30000$plainsalt$${pbkdf2Sync(password, 'plainsalt', 30000, 32, 'sha256').toString('base64')}`,
    ...(argon2
      ? {
          argon2id: `$argon2id$v=19$m=19456,t=2,p=1$${b64(salt)}$${b64(
            argon2('argon2id', { message: password, nonce: salt, parallelism: 1, tagLength: 32, memory: 19456, passes: 2 }),
          )}`,
        }
      : {}),
  };
}

it('checks each kind of hash with its own algorithm, and refuses parameters that would burn the CPU', async () => {
  const made = hashes('correct horse');
  expect(Object.keys(made)).toContain('argon2id'); // Node 24 (the project's CI) has crypto.argon2
  for (const [kind, hash] of Object.entries(made)) {
    expect(await passwordMatches('correct horse', hash), kind).toBe(true);
    expect(await passwordMatches('wrong horse', hash), kind).toBe(false);
  }
  expect(parsePasswordHash(bcrypt.hashSync('x', 4).replace('$04$', '$13$'))).toMatchObject({ reason: 'password_hash_parameters' });
  expect(parsePasswordHash('$scrypt$ln=21,r=8,p=1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA')).toMatchObject({ reason: 'password_hash_parameters' });
  expect(parsePasswordHash('$argon2id$v=19$m=1048576,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA')).toMatchObject({
    reason: 'password_hash_parameters',
  });
  expect(parsePasswordHash('$pbkdf2-sha256$5000000$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA')).toMatchObject({ reason: 'password_hash_parameters' });
  expect(parsePasswordHash('$1$md5crypt$abc')).toMatchObject({ reason: 'password_hash_unknown' });
});

describeEachDatabase('user import', (t) => {
  const app = useTestApp(t, { listen: true });

  async function person(projectId: string, email: string) {
    const { rows } = await t.db.query<{
      id: string;
      email_verified: boolean;
      display_name: string | null;
      external_id: string | null;
      hash: string | null;
    }>(
      `SELECT u.id, u.email_verified, u.display_name, u.external_id, w.hash FROM project_users u
         LEFT JOIN imported_passwords w ON w.project_id = u.project_id AND w.user_id = u.id WHERE u.project_id = $1 AND u.email = $2`,
      [projectId, email],
    );
    return rows[0] ?? null;
  }

  it('imports JSON Lines with every hash kind, reports each bad line by number and stores nothing of it, and changes nothing the second time', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const made = hashes('s3cret');
    const good = Object.entries(made).map(([kind, hash], i) => ({
      email: uniqueEmail(`imported-${kind}`).toUpperCase(),
      verified: true,
      name: `Person ${i}`,
      externalId: `ext-${i}`,
      passwordHash: hash,
    }));
    const noHash = { email: uniqueEmail('plain'), verified: false };
    const bad = [
      '{"email": "broken"',
      '[1, 2]',
      { verified: true },
      { email: 'not-an-address' },
      { email: uniqueEmail('bad-verified'), verified: 'yes' },
      { email: uniqueEmail('bad-hash'), passwordHash: '$1$md5$whatever' },
      { email: uniqueEmail('costly'), passwordHash: bcrypt.hashSync('x', 4).replace('$04$', '$14$') },
      { email: uniqueEmail('typo'), pasword: 'x' },
      { email: uniqueEmail('long'), name: 'x'.repeat(9000) },
    ];
    const file = lines(...good, '', noHash, ...bad);
    const first = await imported(app, admin, projectId, file);
    expect(first).toMatchObject({
      status: 'done',
      lines: good.length + 1 + bad.length,
      total: good.length + 1 + bad.length,
      imported: good.length + 1,
      unchanged: 0,
      refused: bad.length,
    });

    const lineOf = good.length + 3; // the empty line keeps its number
    expect(first.refusals.map((r) => [r.line, r.reason])).toEqual([
      [lineOf, 'not_json'],
      [lineOf + 1, 'not_an_object'],
      [lineOf + 2, 'email_missing'],
      [lineOf + 3, 'email_invalid'],
      [lineOf + 4, 'verified_invalid'],
      [lineOf + 5, 'password_hash_unknown'],
      [lineOf + 6, 'password_hash_parameters'],
      [lineOf + 7, 'unknown_field'],
      [lineOf + 8, 'line_too_long'],
    ]);
    for (const b of bad.slice(4)) expect(await person(projectId, (b as { email: string }).email)).toBeNull();

    const stored = await person(projectId, good[0]!.email.toLowerCase());
    expect(stored).toMatchObject({ email_verified: true, display_name: 'Person 0', external_id: 'ext-0', hash: good[0]!.passwordHash });
    expect(await person(projectId, noHash.email)).toMatchObject({ email_verified: false, hash: null });
    // Shown on the user's page, and in their data (GDPR art. 15).
    const page = await admin.api.get<EndUserDetail>(apiPath(endUsersApi.getEndUser, { project: projectId, user: stored!.id }));
    expect(page.body.profile).toEqual({ name: 'Person 0', externalId: 'ext-0' });

    const before = await databaseFingerprint(t.db);
    const again = await imported(app, admin, projectId, file);
    expect(again).toMatchObject({ status: 'done', imported: 0, unchanged: good.length + 1, refused: bad.length });
    const after = await databaseFingerprint(t.db);
    // Only the import's own job and report rows (and its audit event) are new; its chunks are gone.
    for (const table of Object.keys(before).filter((n) => !['user_imports', 'user_import_refusals'].includes(n) && !n.startsWith('audit_events'))) {
      expect(after[table], table).toBe(before[table]);
    }
  });

  it('imports CSV under its header, with quoted fields', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const [a, b] = [uniqueEmail('csv-a'), uniqueEmail('csv-b')];
    const file = [
      'email,verified,name,externalId',
      `${a},true,"Doe, Jane",7`,
      `${b},false,"say ""hi""",`,
      `${uniqueEmail('c')},true,"open`,
      'x,y',
    ].join('\r\n');
    const res = await imported(app, admin, projectId, file, CSV);
    expect(res).toMatchObject({ status: 'done', lines: 4, imported: 2, refused: 2, format: 'csv' });
    expect(await person(projectId, a)).toMatchObject({ display_name: 'Doe, Jane', external_id: '7', email_verified: true });
    expect(await person(projectId, b)).toMatchObject({ display_name: 'say "hi"', external_id: null, email_verified: false });
    expect(res.refusals.map((r) => [r.line, r.reason])).toEqual([
      [4, 'csv_quotes'],
      [5, 'csv_columns'],
    ]);
    // The header is read as the upload starts: a file without one is refused, nothing stored.
    const before = await databaseFingerprint(t.db);
    const noHeader = await upload(admin, projectId, `${uniqueEmail('d')},true`, CSV);
    expect(noHeader.status).toBe(400);
    expect(noHeader.body).toMatchObject({ error: 'validation_failed', message: expect.stringContaining('header') });
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('keeps the CSV header across chunks: a 2,500-line CSV file is read under it in every chunk', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const tag = Math.random().toString(36).slice(2, 8);
    const rows = Array.from({ length: 2500 }, (_, i) => `"N ${i}",h${i}-${tag}@csv.example,${i}`);
    const res = await imported(app, admin, projectId, ['', 'name,email,externalId', ...rows].join('\n'), CSV);
    expect(res).toMatchObject({ status: 'done', lines: 2500, imported: 2500, refused: 0 });
    expect(await person(projectId, `h2499-${tag}@csv.example`)).toMatchObject({ display_name: 'N 2499', external_id: '2499' });
  });

  it('lists the imports with their progress, newest first', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const one = await imported(app, admin, projectId, lines({ email: uniqueEmail('one') }));
    app.clock.advance(1000);
    const two = await imported(app, admin, projectId, lines({ email: uniqueEmail('two') }));
    const list = await admin.api.get<{ items: UserImport[] }>(apiPath(userImportsApi.listUserImports, { project: projectId }));
    expect(list.body.items.map((i) => i.id)).toEqual([two.id, one.id]);
  });

  const chunksOf = async (projectId: string) =>
    Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_import_chunks WHERE project_id = $1', [projectId])).rows[0]!.n);
  const peopleOf = async (projectId: string) =>
    Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM project_users WHERE project_id = $1', [projectId])).rows[0]!.n);
  const importEvents = async (projectId: string, id: string) =>
    (
      await t.db.query<{ result: string; details: Record<string, unknown> }>(
        `SELECT event_status AS result, details FROM audit_events WHERE project_id = $1 AND details->>'action' = 'user.import' AND details->>'importId' = $2`,
        [projectId, id],
      )
    ).rows;

  it('answers 202 as soon as the file is stored, before anything of it is imported; the worker then imports it and audits the end once', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const tag = Math.random().toString(36).slice(2, 8);
    const file = Array.from({ length: 2500 }, (_, i) => `{"email":"q${i}-${tag}@queued.example"}\n`).join('');
    // No worker runs: what the answer holds is the stored file only.
    await app.services.userImports.stop();
    try {
      const res = await upload(admin, projectId, file);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body).toMatchObject({ status: 'queued', lines: 0, total: 2500, imported: 0, finishedAt: null });
      expect(await chunksOf(projectId)).toBe(3);
      expect(await peopleOf(projectId)).toBe(0);
      expect(await importEvents(projectId, res.body.id)).toEqual([]);
    } finally {
      app.services.userImports.start();
    }
    await app.services.userImports.runNow();
    const done = (await admin.api.get<{ items: UserImport[] }>(apiPath(userImportsApi.listUserImports, { project: projectId }))).body.items[0]!;
    expect(done).toMatchObject({ status: 'done', lines: 2500, total: 2500, imported: 2500 });
    expect(await chunksOf(projectId)).toBe(0);
    expect(await peopleOf(projectId)).toBe(2500);
    expect(await importEvents(projectId, done.id)).toMatchObject([{ result: 'success', details: { imported: 2500, lines: 2500 } }]);
  });

  it('resumes a job after its worker died mid-way (once its lease is over) or stopped (at once), on another worker: the result is the one of an import run whole, no line twice', async () => {
    const admin = await signedInAccount(app, t.db);
    const [whole, resumed] = [await createProject(admin), await createProject(admin)];
    const tag = Math.random().toString(36).slice(2, 8);
    // 6,500 lines (seven chunks): a refused line and a repeated address in several chunks.
    const hash = hashes('pw').pbkdf2;
    const file = Array.from({ length: 6500 }, (_, i) =>
      i % 997 === 5 ? '{"email":"not an address"}\n' : `{"email":"r${i % 6000}-${tag}@resume.example","passwordHash":"${hash}"}\n`,
    ).join('');
    const reference = await imported(app, admin, whole, file);
    expect(reference).toMatchObject({ status: 'done', lines: 6500 });

    await app.services.userImports.stop();
    try {
      const queued = await upload(admin, resumed, file);
      expect(queued.status).toBe(202);
      const worker = () => createImportWorker({ db: t.db, clock: app.clock, audit: createAuditHook(app.clock), warn: () => undefined });
      // Worker A dies after two chunks (its process ends between two transactions): its lease stays.
      let asked = 0;
      const crash = () => {
        asked += 1;
        if (asked > 2) throw new Error('the process died');
        return false;
      };
      await expect(worker().round(crash)).rejects.toThrow('the process died');
      const read = async () => (await admin.api.get<UserImportReport>(reportPath(resumed, queued.body.id))).body;
      expect(await read()).toMatchObject({ status: 'running', lines: 2000 });
      expect(await chunksOf(resumed)).toBe(5);
      // While A's lease lasts, no other worker takes the job.
      expect(await worker().round(() => false)).toBe(0);
      app.clock.advance(IMPORT_LEASE_MS + 1000);
      // Worker B resumes it after A's last chunk, and is stopped (a shutdown) after two more: it lets go at once.
      let askedB = 0;
      expect(await worker().round(() => ++askedB > 2)).toBe(2);
      expect(await read()).toMatchObject({ status: 'running', lines: 4000 });
      // Worker C takes it at once and finishes it.
      expect(await worker().round(() => false)).toBe(3);
      const result = await read();
      const counts = ({ status, lines, total, imported: made, unchanged, refused }: UserImport) => ({
        status,
        lines,
        total,
        made,
        unchanged,
        refused,
      });
      expect(counts(result)).toEqual(counts(reference));
      expect(result.refusals).toEqual(reference.refusals);
      expect(await peopleOf(resumed)).toBe(await peopleOf(whole));
      const hashes_ = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM imported_passwords WHERE project_id = $1', [resumed]);
      expect(hashes_.rows[0]!.n).toBe(await peopleOf(resumed));
      expect(await chunksOf(resumed)).toBe(0);
      expect(await importEvents(resumed, queued.body.id)).toHaveLength(1);
    } finally {
      app.services.userImports.start();
    }
  });

  it('holds at most 3 imports under way in a project (409 beyond, nothing stored), and keeps who started one only until it ends', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const tag = Math.random().toString(36).slice(2, 8);
    await app.services.userImports.stop();
    try {
      for (let i = 0; i < 3; i += 1) expect((await upload(admin, projectId, `{"email":"q${i}-${tag}@queue.example"}\n`)).status).toBe(202);
      const refused = await upload(admin, projectId, `{"email":"q3-${tag}@queue.example"}\n`);
      expect(refused.status).toBe(409);
      expect(JSON.stringify(refused.body)).toContain('At most 3 imports may be under way');
      const { rows: waiting } = await t.db.query<{ n: number; actors: number }>(
        'SELECT count(*)::int AS n, count(actor)::int AS actors FROM user_imports WHERE project_id = $1',
        [projectId],
      );
      expect(waiting[0]).toEqual({ n: 3, actors: 3 });
    } finally {
      app.services.userImports.start();
    }
    await app.services.userImports.runNow();
    const { rows: ended } = await t.db.query<{ status: string; actor: unknown; started_by: string | null }>(
      'SELECT status, actor, started_by FROM user_imports WHERE project_id = $1',
      [projectId],
    );
    expect(ended).toHaveLength(3);
    for (const row of ended) expect(row).toEqual({ status: 'done', actor: null, started_by: expect.any(String) as unknown as string });
    const { rows: events } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE project_id = $1 AND details->>'action' = 'user.import' AND event_status = 'success'`,
      [projectId],
    );
    expect(events[0]?.n).toBe(3);
    expect((await upload(admin, projectId, `{"email":"q3-${tag}@queue.example"}\n`)).status).toBe(202);
  });

  it('refuses a file holding a NUL byte (400, nothing stored, the job failed saying where), and reports a field name holding an escaped NUL as a refused line', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const tag = Math.random().toString(36).slice(2, 8);
    const res = await upload(admin, projectId, `{"email":"n1-${tag}@nul.example"}\n{"email":"n2-${tag}\u0000@nul.example"}\n`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Line 2 holds a NUL character');
    const list = await admin.api.get<{ items: UserImport[] }>(apiPath(userImportsApi.listUserImports, { project: projectId }));
    expect(list.body.items[0]).toMatchObject({ status: 'failed', imported: 0 });
    expect(await chunksOf(projectId)).toBe(0);
    expect(await peopleOf(projectId)).toBe(0);
    // The JSON escape \u0000 is no NUL byte in the file: the line is read, and refused for its unknown field.
    const report = await imported(app, admin, projectId, `{"email":"n3-${tag}@nul.example","a\\u0000b":1}\n{"email":"n4-${tag}@nul.example"}\n`);
    expect(report).toMatchObject({ status: 'done', imported: 1, refused: 1 });
    expect(report.refusals).toEqual([
      { line: 1, reason: 'unknown_field', message: expect.stringContaining('Unknown field "a\\u0000b"') as unknown as string },
    ]);
  });

  it('imports nothing of a cut upload: the job fails and its stored chunks are deleted; the whole file sent again is imported', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const tag = Math.random().toString(36).slice(2, 8);
    const people = Array.from({ length: 2500 }, (_, i) => `{"email":"c${i}-${tag}@cut.example"}\n`);
    // A real connection, cut by the client half-way through the file, once a chunk of it is stored.
    const session = admin.api.session as { sessionId: string; xsrfToken: string };
    const sending = request(`${app.baseUrl}${importPath(projectId)}`, {
      method: 'POST',
      headers: { ...JSONL, cookie: `${SESSION_COOKIE}=${session.sessionId}; ${XSRF_COOKIE}=${session.xsrfToken}`, [XSRF_HEADER]: session.xsrfToken },
    });
    sending.on('error', () => undefined);
    sending.write(people.slice(0, 1200).join(''));
    expect(
      await until(
        () => chunksOf(projectId),
        (n) => n === 1,
      ),
    ).toBe(1);
    sending.destroy();
    const list = async () =>
      (await admin.api.get<{ items: UserImport[] }>(apiPath(userImportsApi.listUserImports, { project: projectId }))).body.items[0];
    const stopped = await until(list, (i) => i?.status === 'failed');
    expect(stopped).toMatchObject({ status: 'failed', lines: 0, imported: 0, total: null });
    expect(stopped?.failure).toContain('stopped');
    expect(await chunksOf(projectId)).toBe(0);
    await app.services.userImports.runNow();
    expect(await peopleOf(projectId)).toBe(0);
    expect(await importEvents(projectId, stopped!.id)).toMatchObject([{ result: 'failed' }]);
    expect(await imported(app, admin, projectId, people.join(''))).toMatchObject({ status: 'done', imported: 2500, unchanged: 0 });
  });

  it('fails an upload that went silent past its lease (its instance died): chunks deleted; a late sender is told 409', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const tag = Math.random().toString(36).slice(2, 8);
    const people = Array.from({ length: 1500 }, (_, i) => `{"email":"s${i}-${tag}@silent.example"}\n`);
    let resume: () => void = () => undefined;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    async function* file() {
      yield people.slice(0, 1200).join('');
      await paused;
      yield people.slice(1200).join('');
    }
    const answer = upload(admin, projectId, Readable.from(file()));
    expect(
      await until(
        () => chunksOf(projectId),
        (n) => n === 1,
      ),
    ).toBe(1);
    app.clock.advance(IMPORT_LEASE_MS + 1000);
    await app.services.userImports.runNow();
    const list = async () =>
      (await admin.api.get<{ items: UserImport[] }>(apiPath(userImportsApi.listUserImports, { project: projectId }))).body.items[0];
    expect(await list()).toMatchObject({ status: 'failed', failure: expect.stringContaining('stopped') });
    expect(await chunksOf(projectId)).toBe(0);
    resume();
    const late = await answer;
    expect(late.status).toBe(409);
    expect(await peopleOf(projectId)).toBe(0);
    expect(await chunksOf(projectId)).toBe(0);
  });

  it('ends a job whose project was closed meanwhile as failed, saying why', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    await app.services.userImports.stop();
    try {
      const queued = await upload(admin, projectId, lines({ email: uniqueEmail('closing') }));
      expect(queued.status).toBe(202);
      await closeProject(admin, projectId);
      const worker = createImportWorker({ db: t.db, clock: app.clock, audit: createAuditHook(app.clock), warn: () => undefined });
      await worker.round(() => false);
      const report = (await admin.api.get<UserImportReport>(reportPath(projectId, queued.body.id))).body;
      expect(report).toMatchObject({ status: 'failed', imported: 0, failure: expect.stringContaining('closed') });
      expect(await chunksOf(projectId)).toBe(0);
    } finally {
      app.services.userImports.start();
    }
  });

  it('keeps memory flat on a large file: 60 000 lines stored, then imported, the live heap grows by less than 8 MB in each', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    // 60,000 lines (about 5 MB) keep the suite fast; the million-line figure is npm run bench's.
    const total = 60_000;
    const tag = Math.random().toString(36).slice(2, 8);
    // What is still held, not garbage not yet collected: measured after a full collection.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const live = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const base = live();
    let peak = 0;
    function* file() {
      for (let i = 0; i < total; i += 1000) {
        let chunk = '';
        for (let j = i; j < i + 1000; j += 1) chunk += `{"email":"p${j}-${tag}@big.example","verified":true,"externalId":"${j}"}\n`;
        if (i % 10_000 === 0) peak = Math.max(peak, live() - base);
        yield chunk;
      }
    }
    await app.services.userImports.stop();
    let processing = 0;
    try {
      const res = await upload(admin, projectId, Readable.from(file()));
      expect(res.body).toMatchObject({ status: 'queued', total });
    } finally {
      app.services.userImports.start();
    }
    // The import: sampled while the worker writes its sixty chunks.
    const sampler = setInterval(() => (processing = Math.max(processing, live() - base)), 250);
    try {
      await app.services.userImports.runNow();
    } finally {
      clearInterval(sampler);
    }
    processing = Math.max(processing, live() - base);
    const list = await admin.api.get<{ items: UserImport[] }>(apiPath(userImportsApi.listUserImports, { project: projectId }));
    expect(list.body.items[0]).toMatchObject({ status: 'done', lines: total, imported: total, refused: 0 });
    // Held whole (as text and objects) the file would take several times its 5 MB.
    expect(peak).toBeLessThan(8 * 1024 * 1024);
    expect(processing).toBeLessThan(8 * 1024 * 1024);
  }, 300_000);
});

describeEachDatabase('user import: the file’s size bound (IMPORT_MAX_BYTES)', (t) => {
  const app = useTestApp(t, { listen: true, env: { IMPORT_MAX_BYTES: '100000' } });

  it('answers 413 to a file over the bound, before reading it when its Content-Length says so, else as it passes the bound; nothing of it is stored', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const tag = Math.random().toString(36).slice(2, 8);
    const big = Array.from({ length: 3000 }, (_, i) => `{"email":"b${i}-${tag}@big.example"}\n`).join('');
    expect(big.length).toBeGreaterThan(100_000);
    const before = await databaseFingerprint(t.db);
    // Declared: refused at once, no job.
    const declared = await upload(admin, projectId, big);
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ error: 'validation_failed', message: expect.stringContaining('100,000 bytes') });
    expect(await databaseFingerprint(t.db)).toEqual(before);
    // Streamed without a length: refused as it passes the bound; the job says so and its chunks are gone.
    const streamed = await upload(admin, projectId, Readable.from([big.slice(0, 60_000), big.slice(60_000)]));
    expect(streamed.status).toBe(413);
    const list = await admin.api.get<{ items: UserImport[] }>(apiPath(userImportsApi.listUserImports, { project: projectId }));
    expect(list.body.items[0]).toMatchObject({ status: 'failed', imported: 0, failure: expect.stringContaining('larger than') });
    const left = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM user_import_chunks WHERE project_id = $1)::int + (SELECT count(*) FROM project_users WHERE project_id = $1)::int AS n`,
      [projectId],
    );
    expect(left.rows[0]!.n).toBe(0);
    // Under the bound: taken.
    expect(await imported(app, admin, projectId, big.slice(0, 50_000).replace(/\n[^\n]*$/, ''))).toMatchObject({ status: 'done', refused: 0 });
  });
});

describeWithDatabase('user import: who may, and bad input', (t) => {
  const app = useTestApp(t);

  it('lets cst:{p}:revocation import, answers 403 to cst:{p}:audit, 404 to another project’s admin, 401 to no one; nothing stored', async () => {
    const owner = await signedInAccount(app, t.db);
    const projectId = await createProject(owner);
    const auditor = await signedInAccount(app, t.db, [`cst:${projectId}:audit`]);
    const revocation = await signedInAccount(app, t.db, [`cst:${projectId}:revocation`]);
    const outsider = await signedInAccount(app, t.db);
    await createProject(outsider);
    const email = uniqueEmail('perm');
    const file = lines({ email });
    const before = await databaseFingerprint(t.db);
    expect((await upload(auditor, projectId, file)).status).toBe(403);
    expect((await upload(outsider, projectId, file)).status).toBe(404);
    expect((await anonymous(app).call('POST', importPath(projectId), file, { headers: JSONL })).status).toBe(401);
    expect((await upload(revocation, projectId, file, { 'content-type': 'application/json' })).status).toBe(415);
    expect((await upload(revocation, projectId, file, JSONL, '?format=xml')).status).toBe(400);
    expect(await databaseFingerprint(t.db)).toEqual(before);
    // The auditor reads the imports; the revocation admin imports.
    expect((await auditor.api.get(apiPath(userImportsApi.listUserImports, { project: projectId }))).status).toBe(200);
    expect((await upload(revocation, projectId, file)).status).toBe(202);
    expect((await outsider.api.get(apiPath(userImportsApi.listUserImports, { project: projectId }))).status).toBe(404);
    const done = (await auditor.api.get<{ items: UserImport[] }>(apiPath(userImportsApi.listUserImports, { project: projectId }))).body.items[0]!;
    expect((await auditor.api.get(apiPath(userImportsApi.getUserImport, { project: projectId, import: done.id }))).status).toBe(200);
    expect((await outsider.api.get(apiPath(userImportsApi.getUserImport, { project: projectId, import: done.id }))).status).toBe(404);
    // The migration export hands out every person at once: who may change them only.
    const exportPath = apiPath(userImportsApi.exportEndUsersForMigration, { project: projectId });
    expect((await auditor.api.get(exportPath)).status).toBe(403);
    expect((await outsider.api.get(exportPath)).status).toBe(404);
    expect((await anonymous(app).get(exportPath)).status).toBe(401);
    expect((await revocation.api.get(exportPath)).status).toBe(200);
  });

  it('validates importedPasswordDays (1–365, a whole number) as the project’s other settings, storing nothing when refused', async () => {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const current = await getProject(admin, projectId);
    const path = apiPath(api.updateProject, { project: projectId });
    for (const bad of [0, 366, 2.5, '30', null]) {
      const res = await admin.api.put<{ issues?: Array<{ field: string }> }>(path, { ...current, importedPasswordDays: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.issues?.map((i) => i.field)).toContain('importedPasswordDays');
    }
    expect((await getProject(admin, projectId)).importedPasswordDays).toBe(90);
    expect((await admin.api.put(path, { ...current, importedPasswordDays: 365 })).status).toBe(200);
    expect((await getProject(admin, projectId)).importedPasswordDays).toBe(365);
    // A project saved before the setting existed reads the default.
    await t.db.query(`UPDATE projects SET settings = settings - 'importedPasswordDays' WHERE id = $1`, [projectId]);
    expect((await getProject(admin, projectId)).importedPasswordDays).toBe(90);
  });

  it('answers 409 in a closed project, and 404 for an import of another project', async () => {
    const admin = await signedInAccount(app, t.db);
    const a = await createProject(admin);
    const b = await createProject(admin);
    const done = await upload(admin, a, lines({ email: uniqueEmail('x') }));
    expect((await admin.api.get(apiPath(userImportsApi.getUserImport, { project: b, import: done.body.id }))).status).toBe(404);
    await closeProject(admin, a);
    expect((await upload(admin, a, lines({ email: uniqueEmail('y') }))).status).toBe(409);
  });

  it('exports the users with their passkeys’ public data in the import’s format, which imports elsewhere as it is', async () => {
    const admin = await signedInAccount(app, t.db);
    const from = await createProject(admin);
    const email = uniqueEmail('leaving');
    await imported(app, admin, from, lines({ email, verified: true, name: 'Leaving', externalId: 'L1', passwordHash: bcrypt.hashSync('pw', 4) }));
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM project_users WHERE project_id = $1 AND email = $2', [from, email]);
    const userId = rows[0]!.id;
    const credential = await storeDevice(t.db, { projectId: from, userId, createdAt: app.clock.now(), name: 'Phone' });
    const exported = await admin.api.get<unknown>(apiPath(userImportsApi.exportEndUsersForMigration, { project: from }));
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toContain('application/x-ndjson');
    // One line: the test client reads it as JSON already.
    const line = exported.body as Record<string, unknown>;
    const text = `${JSON.stringify(line)}\n`;
    expect(line).toMatchObject({
      id: userId,
      email,
      verified: true,
      name: 'Leaving',
      externalId: 'L1',
      passkeys: [{ credentialId: credential, counter: 0 }],
    });
    expect(text).not.toContain('$2');
    const to = await createProject(admin);
    expect(await imported(app, admin, to, text)).toMatchObject({ imported: 1, refused: 0 });
  });
});

describeEachDatabase('an imported person signs in once with their previous password, then holds a passkey', (t) => {
  const app = useTestApp(t, { listen: true });

  async function importedInto(admin: SignedIn, projectId: string, password: string, extra: Record<string, unknown> = {}) {
    const email = uniqueEmail('moved');
    const res = await imported(app, admin, projectId, lines({ email, verified: true, passwordHash: hashes(password).scrypt, ...extra }));
    expect(res.imported).toBe(1);
    return email;
  }
  const hashOf = async (projectId: string, email: string) =>
    (
      await t.db.query<{ hash: string }>(
        'SELECT w.hash FROM imported_passwords w JOIN project_users u ON u.project_id = w.project_id AND u.id = w.user_id WHERE w.project_id = $1 AND u.email = $2',
        [projectId, email],
      )
    ).rows[0]?.hash ?? null;

  async function codePageOf(browser: Browser, p: RelyingParty, email: string) {
    const request = await authorizationRequest(p);
    const page1 = await untilApp(browser, await browser.get(request.url.href));
    return { request, codePage: await submitEmail(browser, page1, email) };
  }
  const postPassword = async (browser: Browser, codePage: BrowserResponse, password: string) =>
    untilApp(browser, await browser.request(formHolding(codePage, 'name="password"'), { form: { password } }));

  it('password → the passkey offer (automatic upgrade asked first) → the passkey made: the hash is gone, and the password no longer works', async () => {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    const email = await importedInto(admin, p.projectId, 'old pass 1');
    const browser = new Browser();
    const { request, codePage } = await codePageOf(browser, p, email);
    expect(codePage.text).toContain('autocomplete="current-password"');
    const wrong = await postPassword(browser, codePage, 'not it');
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('That password is not right');
    const offer = await postPassword(browser, wrong, 'old pass 1');
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    expect(offer.text).toContain('data-conditional="1"');
    // One sign-in: the hash went with it.
    expect(await hashOf(p.projectId, email)).toBeNull();
    const { response } = createPasskey(pageOptions<CreationOptions>(offer.text), app.baseUrl);
    const back = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    const tokens = await client.authorizationCodeGrant(p.config, new URL(back.location as string), { pkceCodeVerifier: request.verifier });
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM project_users WHERE project_id = $1 AND email = $2', [p.projectId, email]);
    expect(tokens.claims()?.sub).toBe(rows[0]?.id);
    const devices = await t.db.query<{ registered_with: string }>('SELECT registered_with FROM devices WHERE project_id = $1', [p.projectId]);
    expect(devices.rows).toEqual([{ registered_with: 'imported_password' }]);

    // Next time: page 1 asks for the passkey; asked for a code instead, the password is refused.
    const again = await codePageOf(new Browser(), p, email);
    expect(again.codePage.text).toContain('Sign in with a passkey');
  });

  it('a project whose passkey enrollment is off (docs/decisions/0050) still offers the passkey after the one password sign-in', async () => {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    const current = await getProject(admin, p.projectId);
    const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), {
      ...current,
      passkeyEnrollment: { mode: 'off', requireAfter: 3 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const email = await importedInto(admin, p.projectId, 'old pass 2');
    const browser = new Browser();
    const { codePage } = await codePageOf(browser, p, email);
    const offer = await postPassword(browser, codePage, 'old pass 2');
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    expect(offer.text).toContain('data-conditional="1"');
  });

  it('a first passkey made after a code sign-in deletes the hash too', async () => {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    const email = await importedInto(admin, p.projectId, 'old pass 2');
    const browser = new Browser();
    const { codePage } = await codePageOf(browser, p, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: app.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer)).toBe(true);
    expect(offer.text).not.toContain('data-conditional');
    expect(await hashOf(p.projectId, email)).not.toBeNull();
    const { response } = createPasskey(pageOptions<CreationOptions>(offer.text), app.baseUrl);
    await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    expect(await hashOf(p.projectId, email)).toBeNull();
  });

  it('answers an address without a hash as a wrong password; counts each try against the code’s five; refuses an unverified import', async () => {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    await importedInto(admin, p.projectId, 'someone else');
    const unverified = await importedInto(admin, p.projectId, 'unverified pw', { verified: false });
    const stranger = uniqueEmail('stranger');
    const browser = new Browser();
    let page = (await codePageOf(browser, p, stranger)).codePage;
    // The project holds hashes: the form is there for every address, and says the same to each.
    expect(page.text).toContain('name="password"');
    for (let i = 0; i < 5; i += 1) {
      page = await postPassword(browser, page, 'guess');
      expect(page.status).toBe(400);
    }
    expect(page.text).toContain('Too many wrong codes');
    const code = await untilApp(browser, await browser.request(formAction(page), { form: { code: app.mailer.lastCode(stranger) } }));
    expect(code.text).toContain('Too many wrong codes');

    const other = new Browser();
    const refused = await postPassword(other, (await codePageOf(other, p, unverified)).codePage, 'unverified pw');
    expect(refused.text).toContain('That password is not right');
  });

  it('offers no password field where the project holds no usable hash, and the housekeeping deletes hashes past the project’s importedPasswordDays', async () => {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    const current = await getProject(admin, p.projectId);
    expect(current.importedPasswordDays).toBe(90);
    const saved = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), { ...current, importedPasswordDays: 2 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const email = uniqueEmail('expiring');
    await imported(app, admin, p.projectId, lines({ email, verified: true, passwordHash: hashes('pw').pbkdf2 }));
    const { rows } = await t.db.query<{ expires_at: Date }>('SELECT expires_at FROM imported_passwords WHERE project_id = $1', [p.projectId]);
    expect(new Date(rows[0]!.expires_at).getTime()).toBe(app.clock.now().getTime() + 2 * 24 * 60 * 60 * 1000);
    const browser = new Browser();
    expect((await codePageOf(browser, p, email)).codePage.text).toContain('name="password"');
    app.clock.advance(2 * 24 * 60 * 60 * 1000 + 1000);
    expect((await codePageOf(new Browser(), p, email)).codePage.text).not.toContain('name="password"');
    expect(await deleteExpiredImportedPasswords(t.db, app.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await hashOf(p.projectId, email)).toBeNull();
  });
});
