import { expect, it } from 'vitest';
import { newProjectSettings } from '@latchkey/domain';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import type { OutgoingAnswer } from '../src/http/outgoing.ts';
import { insertProject } from '../src/modules/projects/projects.repository.ts';
import { createOutbox, type OutboxKind } from '../src/outbox/outbox.ts';
import { enqueue } from '../src/outbox/outbox.repository.ts';
import { createDatabaseBefore, describeWithDatabase } from './support/databases.ts';
import { TestClock } from './support/fakes.ts';

// Issue 35, "One outbox" (docs/decisions/0045): back-channel logout notices and webhook messages are
// messages of one table and one deliverer. The kinds' own behaviour is proven by
// backchannel-logout.test.ts and webhooks.test.ts; here, what the outbox itself promises.

it.each(['postgres', 'pglite'] as const)(
  'migration 0033 moves what the previous version queued and no instance holds into the outbox, and leaves the rest and the log where they are (%s)',
  async (driver) => {
    const fresh = await createDatabaseBefore(driver, '0033');
    try {
      await fresh.db.query(`INSERT INTO projects (id, name, email, settings) VALUES ('pbefore000000001', 'Before', 'a@example.test', '{}'::jsonb)`);
      await fresh.db.query(
        `INSERT INTO backchannel_logouts (project_id, id, client_id, sub, sid, cause, attempts, next_attempt_at, created_at) VALUES
           ('pbefore000000001', 'due', 'client-1', 'account-1', 'sid-1', 'logout', 2, now() - interval '1 minute', now() - interval '10 minutes'),
           ('pbefore000000001', 'held', 'client-1', 'account-2', NULL, 'device_revoked', 1, now() + interval '1 minute', now())`,
      );
      await fresh.db.query(
        `INSERT INTO webhook_endpoints (project_id, id, url, event_types, enabled, secret_sealed, created_at, updated_at)
         VALUES ('pbefore000000001', 'wh_1', 'https://hooks.example.com/', '{device.revoked}', true, 'sealed', now(), now())`,
      );
      await fresh.db.query(
        `INSERT INTO webhook_messages (project_id, endpoint_id, id, event_type, payload, subject, created_at, status, attempts, next_attempt_at,
                                       last_status, last_reason, delivered_at) VALUES
           ('pbefore000000001', 'wh_1', 'msg_sent', 'device.revoked', '{"n":0}', 'a@example.test', now() - interval '1 hour', 'delivered', 1, NULL,
            200, NULL, now() - interval '1 hour'),
           ('pbefore000000001', 'wh_1', 'msg_held', 'device.revoked', '{"n":1}', 'a@example.test', now() - interval '2 minutes', 'pending', 1,
            now() + interval '1 minute', NULL, NULL, NULL),
           ('pbefore000000001', 'wh_1', 'msg_next', 'device.revoked', '{"n":2}', 'b@example.test', now() - interval '1 minute', 'pending', 0,
            now() - interval '1 minute', NULL, NULL, NULL)`,
      );

      expect(
        await migrate(
          fresh.db,
          loadMigrations().filter((m) => m.version <= '0033_one_outbox'),
        ),
      ).toEqual(['0033_one_outbox']);
      const { rows } = await fresh.db.query(
        `SELECT kind, recipient, id, subject, topic, payload, status, attempts FROM outbox_messages ORDER BY kind, id`,
      );
      expect(rows).toEqual([
        {
          kind: 'backchannel_logout',
          recipient: 'client-1',
          id: 'due',
          subject: 'account-1',
          topic: 'logout',
          payload: '{"sid" : "sid-1"}',
          status: 'pending',
          attempts: 2,
        },
        {
          kind: 'webhook',
          recipient: 'wh_1',
          id: 'msg_next',
          subject: 'b@example.test',
          topic: 'device.revoked',
          payload: '{"n":2}',
          status: 'pending',
          attempts: 0,
        },
      ]);
      // What an instance of the previous version holds stays for it (this version moves it once due), and so does its log.
      expect((await fresh.db.query('SELECT id FROM backchannel_logouts')).rows).toEqual([{ id: 'held' }]);
      expect((await fresh.db.query('SELECT id, status FROM webhook_messages ORDER BY id')).rows).toEqual([
        { id: 'msg_held', status: 'pending' },
        { id: 'msg_sent', status: 'delivered' },
      ]);
    } finally {
      await fresh.drop();
    }
  },
);

describeWithDatabase('the outbox', (t) => {
  it('runs a lane per kind: a recipient that does not answer holds up only its own kind', async () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
    await insertProject(t.db, {
      id: 'poutboxlanes0001',
      email: 'a@example.test',
      createdBy: null,
      settings: newProjectSettings('Lanes'),
      now: clock.now(),
    });
    let answerSlow: (answer: OutgoingAnswer) => void = () => undefined;
    const posted: string[] = [];
    const outbox = createOutbox({
      db: t.db,
      clock,
      outgoing: {
        async post(url) {
          posted.push(url);
          if (url.endsWith('/slow')) return new Promise<OutgoingAnswer>((resolve) => (answerSlow = resolve));
          return { status: 204, ms: 1 };
        },
        refusal: async () => null,
      },
      kinds: ['slow', 'fast'].map((name): OutboxKind => ({
        name,
        retryDelaysMs: [1000],
        failedReason: 'send_failed',
        request: async () => ({ url: `https://receiver.example/${name}`, body: '{}', contentType: 'application/json' }),
        verdict: (status) => (status === 204 ? 'delivered' : 'retry'),
        settled: async () => undefined,
      })),
      warn: (error) => {
        throw error;
      },
    });
    for (const kind of ['slow', 'fast']) {
      await enqueue(t.db, {
        projectId: 'poutboxlanes0001',
        kind,
        now: clock.now(),
        messages: [{ recipient: 'r', id: `${kind}-1`, subject: null, topic: 'test', payload: '{}' }],
      });
    }
    const left = async () =>
      (await t.db.query<{ kind: string }>(`SELECT kind FROM outbox_messages WHERE project_id = 'poutboxlanes0001' ORDER BY kind`)).rows.map(
        (r) => r.kind,
      );

    outbox.nudge('slow');
    await expect.poll(() => posted).toEqual(['https://receiver.example/slow']);
    outbox.nudge('fast');
    // Delivered while the other kind's call is still under way (a kind without a log keeps nothing delivered).
    await expect.poll(left).toEqual(['slow']);
    answerSlow({ status: 204, ms: 5000 });
    await expect.poll(left).toEqual([]);
    await outbox.stop();
  });
});
