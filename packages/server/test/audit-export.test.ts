import { beforeAll, describe, expect, it } from 'vitest';
import { api, type AuditEvent, type AuditExportParams, type AuditList, type DeviceExportParams, type DeviceIdentity } from '@latchkey/domain';
import type { Db } from '../src/db/db.ts';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { ensureEventPartitions } from '../src/modules/audit/event-partitions.ts';
import { userIdForEmail } from '../src/people/end-users.repository.ts';
import { anonymous, signedInAccount, startTestApp, useTestApp, type SignedIn } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, closeProject, createProject, storeAuditEvent, storeDevice, type StoredEvent } from './support/fixtures.ts';

const MINUTE = 60_000;
const monthStart = (at: Date, offset = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));

/** RFC 4180 records of a CSV text (quoted fields, doubled quotes, CRLF record ends): what a spreadsheet reads. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quoted) {
      if (c !== '"') {
        field += c;
      } else if (text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else {
        quoted = false;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else if (c === '\r' || c === '\n' || c === '"') {
      throw new Error(`bare ${JSON.stringify(c)} at ${i}: not RFC 4180`);
    } else {
      field += c;
    }
  }
  if (field !== '' || record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}

const AUDIT_HEADER = ['createdAt', 'userID', 'deviceName', 'scope', 'eventStatus', 'ip', 'country', 'clientId', 'userAgent', 'details', 'id'];

// Issue 9 "Export the current filter as CSV and as JSON Lines, streamed"; docs/decisions/0019 "Export".
describeEachDatabase('exporting the audit log and the devices (GET …/audit/export, …/mpinids/export)', (t) => {
  const app = useTestApp(t, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });

  const qs = (query: Record<string, unknown>) =>
    new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const exportAudit = (by: SignedIn, project: string, query: AuditExportParams | Record<string, string>) =>
    by.api.get<string>(`${apiPath(api.exportAuditEvents, { project })}?${qs(query)}`);
  /** A JSON Lines answer, read raw (the test client would parse any JSON media type as one document). */
  async function jsonLines<T>(by: SignedIn, path: string): Promise<{ status: number; headers: Record<string, unknown>; lines: T[]; raw: string }> {
    const res = await app.app.inject({ method: 'GET', url: path, headers: { cookie: `${SESSION_COOKIE}=${by.session.sessionId}` } });
    const lines = res.statusCode === 200 ? res.body.split('\n').slice(0, -1) : [];
    return { status: res.statusCode, headers: res.headers, lines: lines.map((l) => JSON.parse(l) as T), raw: res.body };
  }

  const addEvent = (projectId: string, s: StoredEvent) =>
    storeAuditEvent(t.db, projectId, { ...s, details: { note: 'a "quoted", comma, and\nnewline' } });

  let admin: SignedIn;
  let projectId: string;
  let otherProject: string;
  let seeds: StoredEvent[];
  let now: Date;

  beforeAll(async () => {
    now = app.clock.now();
    await ensureEventPartitions(t.db, monthStart(now, -1));
    admin = await signedInAccount(app, t.db);
    projectId = await createProject(admin);
    otherProject = await createProject(admin);
    await t.db.query('DELETE FROM audit_events WHERE project_id IN ($1, $2)', [projectId, otherProject]);
    const at = (minutes: number) => new Date(monthStart(now).getTime() + minutes * MINUTE);
    seeds = [
      { action: 'e1', at: at(1), userId: 'alice@example.com', deviceName: 'Chrome on Linux', scope: 'oidc', result: 'created' },
      {
        action: 'e2',
        at: at(2),
        userId: 'alice@example.com',
        deviceName: '=HYPERLINK("https://evil.example","Click")',
        scope: 'oidc',
        result: 'success',
      },
      { action: 'e3', at: at(3), userId: '+441234', deviceName: '-2+3', scope: 'authcode', result: 'failed' },
      { action: 'e4', at: at(4), userId: '@sum', deviceName: '\tTabbed', scope: 'oidc', result: 'denied' },
      {
        action: 'e5',
        at: at(5),
        userId: null,
        deviceName: '\rCarriage',
        scope: 'console',
        result: 'success',
        userAgent: 'Agent, with "quotes"\r\nand lines',
      },
      { action: 'e6', at: at(6), userId: 'bob@example.com', deviceName: 'Nöel’s iPhone ✓', scope: 'oidc', result: 'success' },
    ];
    for (const s of seeds) await addEvent(projectId, s);
    await addEvent(projectId, { ...seeds[0]!, action: 'last-month', at: new Date(monthStart(now).getTime() - 1) });
    await addEvent(otherProject, { ...seeds[0]!, action: 'elsewhere' });
  });

  describe('the audit log', () => {
    it('answers CSV: the header row, the current month newest first, RFC 4180 quoting, formula-like cells as text', async () => {
      const res = await exportAudit(admin, projectId, { format: 'csv' });
      expect(res.status, String(res.body)).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      const month = monthStart(now).toISOString().slice(0, 10);
      const lastDay = new Date(monthStart(now, 1).getTime() - 1).toISOString().slice(0, 10);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="audit-${projectId}-${month}-${lastDay}.csv"`);
      expect(res.headers['cache-control']).toBe('no-store');
      const [header, ...rows] = parseCsv(res.body);
      expect(header).toEqual(AUDIT_HEADER);
      expect(rows.map((r) => JSON.parse(r[9] as string).action)).toEqual(['e6', 'e5', 'e4', 'e3', 'e2', 'e1']);
      const byAction = new Map(rows.map((r) => [JSON.parse(r[9] as string).action as string, r]));
      expect(byAction.get('e1')).toEqual([
        seeds[0]!.at.toISOString(),
        'alice@example.com',
        'Chrome on Linux',
        'oidc',
        'created',
        '81.2.69.160',
        'GB',
        'client-1',
        'Mozilla/5.0 (X11; Linux x86_64)',
        expect.any(String),
        expect.stringMatching(/^[0-9a-f-]{36}$/),
      ]);
      expect(JSON.parse(byAction.get('e1')?.[9] as string)).toEqual({ action: 'e1', note: 'a "quoted", comma, and\nnewline' });
      // OWASP CSV injection: = + - @ tab CR at the start of a cell get a leading apostrophe.
      expect(byAction.get('e2')?.[2]).toBe(`'=HYPERLINK("https://evil.example","Click")`);
      expect(byAction.get('e3')?.slice(1, 3)).toEqual(["'+441234", "'-2+3"]);
      expect(byAction.get('e4')?.slice(1, 3)).toEqual(["'@sum", "'\tTabbed"]);
      expect(byAction.get('e5')?.slice(1, 3)).toEqual(['', "'\rCarriage"]);
      expect(byAction.get('e5')?.[8]).toBe('Agent, with "quotes"\r\nand lines');
      expect(byAction.get('e6')?.[2]).toBe('Nöel’s iPhone ✓');
      // The raw text: a quoted field with doubled quotes, no cell starting with a bare =.
      expect(res.body).toContain(`"'=HYPERLINK(""https://evil.example"",""Click"")"`);
      expect(res.body.split('\r\n').some((line) => line.split(',').some((cell) => cell.startsWith('=')))).toBe(false);
    });

    it('answers JSON Lines: one event per line, each exactly as the list answers it, in the direction asked', async () => {
      const path = `${apiPath(api.exportAuditEvents, { project: projectId })}?format=jsonl&direction=asc`;
      const res = await jsonLines<AuditEvent>(admin, path);
      expect(res.status, res.raw).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson');
      expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="audit-.+\.jsonl"$/);
      expect(res.raw.endsWith('\n')).toBe(true);
      const listed = (await admin.api.get<AuditList>(`${apiPath(api.listAuditEvents, { project: projectId })}?direction=asc&limit=100`)).body;
      expect(res.lines).toEqual(listed.list);
      expect(res.lines.map((e) => e.details.action)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    });

    const lastDayOfMonth = () => new Date(monthStart(now, 1).getTime() - 1).toISOString().slice(0, 10);
    const second = (at: Date) => at.toISOString().replace('.000Z', 'Z');
    it.each<[string, () => Record<string, string>, string[]]>([
      ['userId (whole identity, any case)', () => ({ userId: 'ALICE@example.com' }), ['e2', 'e1']],
      ['deviceName (starting with, any case)', () => ({ deviceName: 'chrome' }), ['e1']],
      ['scope', () => ({ scope: 'authcode' }), ['e3']],
      ['result', () => ({ result: 'success' }), ['e6', 'e5', 'e2']],
      ['a range of times', () => ({ fromDate: second(seeds[1]!.at), toDate: second(seeds[2]!.at) }), ['e3', 'e2']],
      [
        'a range reaching into last month',
        () => ({ fromDate: monthStart(now, -1).toISOString().slice(0, 10), toDate: lastDayOfMonth() }),
        ['e6', 'e5', 'e4', 'e3', 'e2', 'e1', 'last-month'],
      ],
      ['a filter that matches nothing', () => ({ userId: 'nobody@example.com' }), []],
    ])('honours the filter: %s', async (_label, query, expected) => {
      const res = await exportAudit(admin, projectId, { format: 'csv', ...query() });
      expect(res.status, String(res.body)).toBe(200);
      const [header, ...rows] = parseCsv(res.body);
      expect(header).toEqual(AUDIT_HEADER);
      expect(rows.map((r) => JSON.parse(r[9] as string).action)).toEqual(expected);
    });

    it("guards with `audit`: 403 to a member without it, 404 to another project's admin, 401 to no one", async () => {
      const usageOnly = await signedInAccount(app, t.db, [`cst:${projectId}:usage`]);
      const auditor = await signedInAccount(app, t.db, [`cst:${projectId}:audit`]);
      const otherAdmin = await signedInAccount(app, t.db);
      await createProject(otherAdmin);
      expect((await exportAudit(auditor, projectId, { format: 'csv' })).status).toBe(200);
      const forbidden = await exportAudit(usageOnly, projectId, { format: 'csv' });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toMatchObject({ error: 'forbidden' });
      expect(forbidden.headers['content-type']).toMatch(/^application\/json/);
      const outsider = await exportAudit(otherAdmin, projectId, { format: 'jsonl' });
      expect(outsider.status).toBe(404);
      expect(outsider.body).toEqual({ error: 'not_found', message: 'Not found' });
      expect((await exportAudit(admin, 'no-such-project', { format: 'csv' })).status).toBe(404);
      const nobody = await anonymous(app).get(`${apiPath(api.exportAuditEvents, { project: projectId })}?format=csv`);
      expect(nobody.status).toBe(401);
    });

    it.each<[string, Record<string, string>, string]>([
      ['no format', {}, 'format'],
      ['an unknown format', { format: 'xlsx' }, 'format'],
      ['a format in capitals', { format: 'CSV' }, 'format'],
      ['a bad direction', { format: 'csv', direction: 'sideways' }, 'direction'],
      ['an impossible date', { format: 'csv', fromDate: '2025-02-30' }, 'fromDate'],
      ['a range longer than a year', { format: 'csv', fromDate: '2024-01-01', toDate: '2025-06-01' }, 'fromDate'],
      ['an end before the start', { format: 'csv', fromDate: '2025-06-01', toDate: '2025-05-01' }, 'toDate'],
      ['an unknown result', { format: 'csv', result: 'ok' }, 'result'],
    ])('refuses %s: 400 naming the field, as JSON', async (_label, query, field) => {
      const res = await exportAudit(admin, projectId, query);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ error: 'validation_failed', issues: [expect.objectContaining({ field })] });
    });

    it('a project closed is still exported (read-only, not hidden)', async () => {
      const owner = await signedInAccount(app, t.db);
      const closed = await createProject(owner);
      await closeProject(owner, closed);
      const res = await exportAudit(owner, closed, { format: 'csv' });
      expect(res.status).toBe(200);
      const actions = parseCsv(res.body)
        .slice(1)
        .map((r) => JSON.parse(r[9] as string).action);
      expect(actions).toEqual(['project.close', 'project.create']);
    });
  });

  describe('a large export is streamed', () => {
    const ROWS = 50_000;
    const BATCH = 1000;
    let big: string;
    const from = () => monthStart(now, -1);

    beforeAll(async () => {
      big = await createProject(admin);
      await t.db.query('DELETE FROM audit_events WHERE project_id = $1', [big]);
      // 50,000 events in last month, three to a second (batches of 1,000 end inside a second: the id orders them),
      // each with a 400-character user agent, about 45 MB of CSV.
      await t.db.query(
        `INSERT INTO audit_events (project_id, created_at, id, user_id, device_name, scope, event_status, ip, country, client_id, user_agent, details)
         SELECT $1, $2::timestamptz + (i / 3) * interval '1 second', gen_random_uuid(), 'user' || (i % 100) || '@example.com',
                'Device ' || (i % 7), 'oidc', 'success', '10.0.0.1', 'ZZ', 'client', repeat('a', 400), jsonb_build_object('n', i)
           FROM generate_series(1, $3::int) AS i`,
        [big, from(), ROWS],
      );
    }, 120_000);

    it(
      'reads 50,000 events in batches while the client takes them: each once, in order, and not ahead of the client',
      { timeout: 300_000 },
      async () => {
        // The app under test reads through this database; the wrapper only counts the export's statements.
        let batches = 0;
        const counting: Db = {
          query: (sql, params) => {
            if (sql.includes('"seekKey" FROM audit_events')) batches += 1;
            return t.db.query(sql, params);
          },
          transaction: (fn) => t.db.transaction(fn),
          exec: (sql) => t.db.exec(sql),
          close: async () => {},
        };
        const observed = await startTestApp(counting, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
        try {
          const month = from().toISOString().slice(0, 10);
          const url = `${observed.baseUrl}${apiPath(api.exportAuditEvents, { project: big })}?format=jsonl&fromDate=${month}&toDate=${new Date(monthStart(now).getTime() - 1).toISOString().slice(0, 10)}`;
          const started = performance.now();
          const res = await fetch(url, { headers: { cookie: `${SESSION_COOKIE}=${admin.session.sessionId}` } });
          expect(res.status).toBe(200);
          const reader = (res.body as ReadableStream<Uint8Array>).getReader();
          const first = await reader.read();
          const firstByteMs = performance.now() - started;
          expect(first.done).toBe(false);
          const atFirstBytes = batches;
          // The client stops reading: the server, held by back-pressure, stops reading the database too.
          await new Promise((resolve) => setTimeout(resolve, 500));
          const whilePaused = batches;
          expect(atFirstBytes, 'batches read when the first bytes arrived').toBeLessThan(ROWS / BATCH / 2);
          expect(whilePaused, 'batches read while the client did not read').toBeLessThan(ROWS / BATCH / 2);

          const decoder = new TextDecoder();
          let text = decoder.decode(first.value, { stream: true });
          let lines = 0;
          let previous: { createdAt: string; id: string } | null = null;
          const seen = new Set<number>();
          for (;;) {
            const newline = text.lastIndexOf('\n');
            for (const line of text.slice(0, newline + 1).split('\n')) {
              if (line === '') continue;
              const event = JSON.parse(line) as AuditEvent;
              lines += 1;
              seen.add(event.details.n as number);
              // Newest first: (createdAt, id) strictly decreasing across batch boundaries.
              if (previous)
                expect(previous.createdAt > event.createdAt || (previous.createdAt === event.createdAt && previous.id > event.id)).toBe(true);
              previous = event;
            }
            text = text.slice(newline + 1);
            const next = await reader.read();
            if (next.done) break;
            text += decoder.decode(next.value, { stream: true });
          }
          const totalMs = performance.now() - started;
          expect(text).toBe('');
          expect(lines).toBe(ROWS);
          expect(seen.size).toBe(ROWS);
          expect(batches).toBe(ROWS / BATCH + 1); // the last, empty read ends it
          console.info(
            `[${t.driver}] export of ${ROWS} events: first bytes after ${firstByteMs.toFixed(0)} ms (${atFirstBytes} batch(es) read, ${whilePaused} while paused), ` +
              `all in ${totalMs.toFixed(0)} ms`,
          );
        } finally {
          await observed.close();
        }
      },
    );
  });

  describe('the devices', () => {
    it("exports the devices list's filter as CSV and JSON Lines, guarded by `revocation`", async () => {
      const owner = await signedInAccount(app, t.db);
      const project = await createProject(owner);
      const userId = await userIdForEmail(t.db, { projectId: project, email: 'dana@example.com', now: app.clock.now() });
      const names = ['Chrome on Linux', '=cmd|calc', 'Safari, "new"'];
      for (const [i, name] of names.entries()) {
        await storeDevice(t.db, {
          projectId: project,
          id: `cred-${i}`,
          userId,
          name,
          ip: i === 0 ? null : `10.0.0.${i}`,
          createdAt: new Date(app.clock.now().getTime() - (3 - i) * MINUTE),
        });
      }
      const path = (query: DeviceExportParams | Record<string, string>) => `${apiPath(api.exportDevices, { project })}?${qs(query)}`;
      const csv = await owner.api.get<string>(path({ format: 'csv' }));
      expect(csv.status, String(csv.body)).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(String(csv.headers['content-disposition'])).toMatch(
        new RegExp(`^attachment; filename="devices-${project}-\\d{4}-\\d{2}-01-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
      );
      const [header, ...rows] = parseCsv(csv.body);
      expect(header).toEqual(['createdAt', 'userId', 'deviceName', 'ip', 'country', 'revoked', 'revokedAt', 'lastUsedAt', 'mpinId']);
      expect(rows.map((r) => [r[1], r[2], r[3], r[5], r[8]])).toEqual([
        ['dana@example.com', 'Safari, "new"', '10.0.0.2', 'false', 'cred-2'],
        ['dana@example.com', "'=cmd|calc", '10.0.0.1', 'false', 'cred-1'],
        ['dana@example.com', 'Chrome on Linux', '', 'false', 'cred-0'],
      ]);

      const jsonl = await jsonLines<DeviceIdentity>(owner, path({ format: 'jsonl', direction: 'asc', ip: '10.0.0.' }));
      expect(jsonl.status).toBe(200);
      expect(jsonl.headers['content-type']).toBe('application/x-ndjson');
      expect(jsonl.lines.map((d) => d.mpinId)).toEqual(['cred-1', 'cred-2']);
      expect(jsonl.lines[0]).toMatchObject({ userId: 'dana@example.com', deviceName: '=cmd|calc', revoked: false, revokedAt: null });
      const revokedOnly = await owner.api.get<string>(path({ format: 'csv', revoked: 'true' }));
      expect(parseCsv(revokedOnly.body)).toHaveLength(1);

      const auditOnly = await signedInAccount(app, t.db, [`cst:${project}:audit`]);
      expect((await auditOnly.api.get(path({ format: 'csv' }))).status).toBe(403);
      expect((await admin.api.get(path({ format: 'csv' }))).status).toBe(404);
      expect((await owner.api.get(path({ format: 'csv', revoked: 'yes' }))).status).toBe(400);
    });
  });
});
