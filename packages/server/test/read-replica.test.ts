import { api, type AuditList } from '@latchkey/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEventPartitions } from '../src/modules/audit/event-partitions.ts';
import { eventId } from '../src/events/audit-events.repository.ts';
import { signedInAccount, startTestApp, type SignedIn, type TestApp } from './support/app.ts';
import { createTestPostgres } from './support/databases.ts';
import { apiPath, createProject } from './support/fixtures.ts';

// Issue 23: with DATABASE_READ_URL, the reads that may be a few seconds stale go to the replica
// (docs/decisions/0035). The "replica" here is a database of its own holding what the primary does
// not, so where each read went shows in what it answers.
describe('reads from a replica [postgres]', () => {
  let primary: Awaited<ReturnType<typeof createTestPostgres>>;
  let replica: Awaited<ReturnType<typeof createTestPostgres>>;
  let app: TestApp;
  let admin: SignedIn;
  let projectId: string;
  const onlyOnReplica = eventId();

  beforeAll(async () => {
    [primary, replica] = await Promise.all([createTestPostgres(), createTestPostgres()]);
    app = await startTestApp(primary.db, { readDb: replica.db });
    admin = await signedInAccount(app, primary.db);
    projectId = await createProject(admin);
    const now = app.clock.now();
    await ensureEventPartitions(replica.db, now);
    await replica.db.query(
      `INSERT INTO audit_events (project_id, created_at, id, user_id, device_name, scope, event_status, details)
       VALUES ($1, $2, $3, 'replica@example.com', NULL, 'oidc', 'success', '{"action":"sign_in"}')`,
      [projectId, now, onlyOnReplica],
    );
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([primary?.drop(), replica?.drop()]);
  });

  it('the audit log reads the replica', async () => {
    const audit = await admin.api.get<AuditList>(apiPath(api.listAuditEvents, { project: projectId }));
    expect(audit.status).toBe(200);
    // The replica's event, not the primary's project.create.
    expect(audit.body.list.map((e) => e.id)).toEqual([onlyOnReplica]);
  });

  it('permissions, projects and writes stay on the primary', async () => {
    // The guard found the project on the primary (the replica has none): 200 above. A change is
    // written there and read back there.
    const project = await admin.api.get<{ name: string }>(apiPath(api.getProject, { project: projectId }));
    expect(project.status).toBe(200);
    const { rows } = await replica.db.query('SELECT 1 FROM projects WHERE id = $1', [projectId]);
    expect(rows).toHaveLength(0);
  });
});
