import { expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { identityPseudonym } from '../src/events/end-user-event.ts';
import { ensureEventPartitions } from '../src/modules/audit/event-partitions.ts';
import { pseudonymiseLegacyIdentities } from '../src/people/legacy-identities.ts';
import { createDatabaseBefore } from './support/databases.ts';

// Issue 35, "Personal data in one place" (docs/decisions/0046): migration 0034 turns the identities
// an earlier version stored in events, devices and webhook messages into the person's id, and the
// start-up turns those of no person into their keyed pseudonym.

const P = 'pmigrate00000034';

it.each(['postgres', 'pglite'] as const)(
  'migration 0034 names people by id in events and webhook messages, lists the identities of no person for the start-up to pseudonymise, and drops devices.user_key (%s)',
  async (driver) => {
    const fresh = await createDatabaseBefore(driver, '0034');
    const { db } = fresh;
    try {
      const now = new Date();
      await ensureEventPartitions(db, now, 12);
      await db.query(`INSERT INTO projects (id, name, email, settings) VALUES ($1, 'Before', 'owner@example.test', '{}'::jsonb)`, [P]);
      await db.query(`INSERT INTO accounts (id, email) VALUES ('acct-1', 'staff@example.test')`);
      await db.query(
        `INSERT INTO project_users (project_id, id, email, username, created_at) VALUES
           ($1, 'sub-alice-000000000000', 'alice@example.test', NULL, now()), ($1, 'sub-bob-00000000000000', NULL, 'bob42', now())`,
        [P],
      );
      await db.query(
        `INSERT INTO devices (project_id, id, user_id, user_key, public_key, name, created_at)
         VALUES ($1, 'cred-1', 'sub-alice-000000000000', 'alice@example.test', 'AQID', 'Phone', now())`,
        [P],
      );
      const event = (id: string, userId: string | null, scope: string, details: Record<string, unknown>) =>
        db.query(
          `INSERT INTO audit_events (project_id, created_at, id, user_id, scope, event_status, details)
           VALUES ($1, now(), $2::uuid, $3, $4, 'success', $5::jsonb)`,
          [P, id, userId, scope, JSON.stringify(details)],
        );
      await event('00000000-0000-7000-8000-000000000001', 'alice@example.test', 'oidc', { action: 'sign_in' });
      await event('00000000-0000-7000-8000-000000000002', 'bob42', 'authcode', { action: 'code.issued' });
      await event('00000000-0000-7000-8000-000000000003', 'stranger@example.test', 'oidc', { action: 'sign_in' });
      // The console: an admin revoking alice's device (names alice), an admin's own action (names the admin).
      await event('00000000-0000-7000-8000-000000000004', 'alice@example.test', 'console', { action: 'device.revoke', accountId: 'acct-1' });
      await event('00000000-0000-7000-8000-000000000005', 'staff@example.test', 'console', { action: 'app.create', accountId: 'acct-1' });
      await event('00000000-0000-7000-8000-000000000006', 'deleted-0123456789abcdef', 'oidc', { action: 'sign_in' });
      await db.query(
        `INSERT INTO outbox_messages (project_id, kind, recipient, id, subject, topic, payload, created_at, status, next_attempt_at) VALUES
           ($1, 'webhook', 'wh_1', 'msg_1', 'alice@example.test', 'sign_in.succeeded', '{}', now(), 'pending', now()),
           ($1, 'webhook', 'wh_1', 'msg_2', 'stranger@example.test', 'sign_in.failed', '{}', now(), 'pending', now())`,
        [P],
      );

      expect(
        await migrate(
          db,
          loadMigrations().filter((m) => m.version <= '0034_personal_data_in_one_place'),
        ),
      ).toEqual(['0034_personal_data_in_one_place']);
      const users = async () =>
        (
          await db.query<{ id: string; user_id: string | null }>(
            'SELECT id::text AS id, user_id FROM audit_events WHERE project_id = $1 ORDER BY id',
            [P],
          )
        ).rows.map((r) => r.user_id);
      expect(await users()).toEqual([
        'sub-alice-000000000000',
        'sub-bob-00000000000000',
        'stranger@example.test',
        'sub-alice-000000000000',
        'staff@example.test',
        'deleted-0123456789abcdef',
      ]);
      const { rows: listed } = await db.query('SELECT project_id, identity FROM event_identities_to_pseudonymise ORDER BY identity');
      expect(listed).toEqual([{ project_id: P, identity: 'stranger@example.test' }]);
      const { rows: columns } = await db.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'devices' AND column_name = 'user_key'`,
      );
      expect(columns).toEqual([]);

      // The start-up: the identity of no person becomes its pseudonym, in events and messages; the list empties.
      const box = createSecretBox(Buffer.alloc(32, 7));
      expect(await pseudonymiseLegacyIdentities(db, box)).toBe(1);
      const anon = identityPseudonym(box, P, 'stranger@example.test');
      expect((await users())[2]).toBe(anon);
      const { rows: subjects } = await db.query('SELECT id, subject FROM outbox_messages WHERE project_id = $1 ORDER BY id', [P]);
      expect(subjects).toEqual([
        { id: 'msg_1', subject: 'sub-alice-000000000000' },
        { id: 'msg_2', subject: anon },
      ]);
      expect(await pseudonymiseLegacyIdentities(db, box)).toBe(0);
    } finally {
      await fresh.drop();
    }
  },
);
