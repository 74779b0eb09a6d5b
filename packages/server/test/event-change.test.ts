import { beforeAll, expect, it } from 'vitest';
import { changeOf, insertAuditEventWith, type NewAuditEvent } from '../src/events/audit-events.repository.ts';
import { ensureEventPartitions } from '../src/modules/audit/event-partitions.ts';
import { describeEachDatabase } from './support/databases.ts';

/**
 * Issue 38: an event and the change it records in one statement (EventChange) — the code's INSERT,
 * its consumption, a passkey's use. A required change that does not happen writes nothing else;
 * one that happens writes the event with everything that follows from it, as insertAuditEvent does.
 */
describeEachDatabase('an event and the change it records, in one statement', (d) => {
  const PROJECT = 'evchange0000001';
  // The month's partition of audit_events, as the server's start makes it.
  beforeAll(() => ensureEventPartitions(d.db, new Date()));
  const event = (details: Record<string, unknown>): NewAuditEvent => ({
    projectId: PROJECT,
    createdAt: new Date(),
    userId: 'someone@example.com',
    deviceName: null,
    scope: 'authcode',
    eventStatus: 'success',
    ip: '192.0.2.1',
    country: 'ZZ',
    clientId: 'client-1',
    userAgent: null,
    details,
  });
  const count = async (sql: string) => Number((await d.db.query<{ n: string | number }>(sql, [PROJECT])).rows[0]?.n);
  const events = () => count('SELECT count(*) AS n FROM audit_events WHERE project_id = $1');
  const usage = () => count("SELECT COALESCE(sum(count), 0) AS n FROM usage_daily WHERE project_id = $1 AND key = 'jwt'");
  const marks = () => count("SELECT count(*) AS n FROM rate_limits WHERE bucket LIKE $1 || '-%'");

  // A row the change writes (rate_limits: a table no event statement touches by itself).
  const mark = (bucket: string) =>
    changeOf(
      'marked',
      `INSERT INTO rate_limits (bucket, window_started_at, window_ends_at, hits) VALUES ($1, $2, $2, 1) ON CONFLICT (bucket) DO NOTHING RETURNING bucket`,
      [`${PROJECT}-${bucket}`, new Date('2030-01-01T00:00:00Z')],
      true,
    );

  it('a required change that happens writes itself, the event and its usage; one that does not writes nothing', async () => {
    const first = await insertAuditEventWith(d.db, event({ action: 'code.exchanged' }), { key: 'jwt' }, false, mark('evchange-a'));
    expect(first.changed).toBe(true);
    expect([await events(), await usage(), await marks()]).toEqual([1, 1, 1]);

    // The same row again: the INSERT does nothing, so neither the event nor its count is written.
    const again = await insertAuditEventWith(d.db, event({ action: 'code.exchanged' }), { key: 'jwt' }, false, mark('evchange-a'));
    expect(again.changed).toBe(false);
    expect([await events(), await usage(), await marks()]).toEqual([1, 1, 1]);
  });

  it('a change not required is made with its event, whatever it returns', async () => {
    const { changed } = await insertAuditEventWith(d.db, event({ action: 'code.issued' }), undefined, false, {
      ...mark('evchange-b'),
      required: false,
    });
    expect(changed).toBe(true);
    expect(await marks()).toBe(2);
    const { rows } = await d.db.query<{ action: string; user_id: string }>(
      "SELECT details->>'action' AS action, user_id FROM audit_events WHERE project_id = $1 ORDER BY id",
      [PROJECT],
    );
    expect(rows.map((r) => r.action)).toEqual(['code.exchanged', 'code.issued']);
    expect(rows[1]?.user_id).toBe('someone@example.com');
  });

  it("counts the enrollment funnel (docs/decisions/0050) in the event's statement, only when the required change happened", async () => {
    const funnel = () => count("SELECT COALESCE(sum(count), 0) AS n FROM enrollment_daily WHERE project_id = $1 AND key = 'sign_in_passkey'");
    const signIn = { ...event({ action: 'sign_in', method: 'passkey' }), scope: 'oidc' };
    const hit = { key: 'sign_in_passkey' } as const;
    const before = await funnel();
    const done = await insertAuditEventWith(d.db, signIn, undefined, true, mark('evchange-c'), hit);
    expect(done.changed).toBe(true);
    expect(await funnel()).toBe(before + 1);
    // The change refused (a passkey revoked meanwhile): no event, and nothing counted in the funnel.
    const refused = await insertAuditEventWith(d.db, signIn, undefined, true, mark('evchange-c'), hit);
    expect(refused.changed).toBe(false);
    expect(await funnel()).toBe(before + 1);
  });

  it('a value named twice in the change is passed once', () => {
    const params: unknown[] = [];
    const sql = changeOf('c', 'SELECT $1, $2, $1', ['a', 'b']).sql((value) => `$${params.push(value)}`);
    expect(sql).toBe('SELECT $1, $2, $1');
    expect(params).toEqual(['a', 'b']);
  });
});
