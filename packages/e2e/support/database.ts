import { randomBytes } from 'node:crypto';
import { projectOfPermission } from '@latchkey/domain';
import pg from 'pg';

// The browser suite runs the server on a PostgreSQL database of its own, created here and dropped
// after the run, so that a scenario can grant an account permissions that no console screen
// offers yet (staff accounts arrive with the accounts feature). Everything else goes through the
// console and the API.

const ADMIN_URL = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `latchkey_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(ADMIN_URL, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Replaces the permissions of the account with this email (build them with the domain's `projectPermission`). */
export async function setPermissions(email: string, permissions: string[]): Promise<void> {
  const url = process.env.LATCHKEY_DATABASE_URL;
  if (!url) throw new Error('LATCHKEY_DATABASE_URL is not set: is global setup running?');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('BEGIN');
    const { rows } = await c.query<{ id: string }>('SELECT id FROM accounts WHERE email = lower($1)', [email]);
    const id = rows[0]?.id;
    if (!id) throw new Error(`no account ${email}`);
    await c.query('DELETE FROM account_permissions WHERE account_id = $1', [id]);
    for (const p of permissions) {
      const project = projectOfPermission(p);
      await c.query('INSERT INTO account_permissions (account_id, permission, project_id) VALUES ($1, $2, $3)', [id, p, project]);
    }
    await c.query('COMMIT');
  } finally {
    await c.end();
  }
}

/** A project's end-user events as `scope action result`, oldest first (docs/decisions/0014), and its usage totals by key. */
export async function eventsAndUsageOf(projectId: string): Promise<{ events: string[]; usage: Record<string, number> }> {
  const url = process.env.LATCHKEY_DATABASE_URL;
  if (!url) throw new Error('LATCHKEY_DATABASE_URL is not set: is global setup running?');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ line: string }>(
      `SELECT scope || ' ' || (details->>'action') || ' ' || event_status AS line FROM audit_events
        WHERE project_id = $1 AND NOT (scope = 'console' AND details->>'action' ~ '^(project\\.create|app\\.)') ORDER BY created_at, id`,
      [projectId],
    );
    const { rows: usage } = await c.query<{ key: string; n: string }>(
      'SELECT key, sum(count)::text AS n FROM usage_daily WHERE project_id = $1 GROUP BY key',
      [projectId],
    );
    return { events: rows.map((r) => r.line), usage: Object.fromEntries(usage.map((u) => [u.key, Number(u.n)])) };
  } finally {
    await c.end();
  }
}
