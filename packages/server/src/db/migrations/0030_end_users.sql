-- Issue 24, users in the console: a project's end users as a list of their own (identity, created,
-- last sign-in, status; docs/decisions/0038), blocking, and erasure.

-- The identity the list shows, filters and sorts by (exactly one of email and username is set:
-- migration 0013), in byte order like the devices list's user_key.
ALTER TABLE project_users ADD COLUMN identity_key text COLLATE "C" GENERATED ALWAYS AS (coalesce(email, username)) STORED;
-- Written with the sign-in's success event, in the same statement (provider/audit-events.repository.ts).
ALTER TABLE project_users ADD COLUMN last_sign_in_at timestamptz;
-- Blocked: refused at sign-in (result denied) until unblocked.
ALTER TABLE project_users ADD COLUMN blocked_at timestamptz;
ALTER TABLE project_users ADD COLUMN status text GENERATED ALWAYS AS (CASE WHEN blocked_at IS NULL THEN 'active' ELSE 'blocked' END) STORED;

-- The users list's sorts and filters, each the column order of one index read forwards or backwards
-- (the ranged list kit: seek on (…, created_at, id) within the project).
CREATE INDEX project_users_created_idx ON project_users (project_id, created_at, id) INCLUDE (identity_key, status);
CREATE INDEX project_users_identity_idx ON project_users (project_id, identity_key, created_at, id);
CREATE INDEX project_users_status_idx ON project_users (project_id, status, created_at, id);
CREATE INDEX project_users_last_sign_in_idx ON project_users (project_id, last_sign_in_at, created_at, id);
-- A status filter with another sort (measured: blocked users by identity at a million users read
-- every blocked user's row, 91 ms; with the index, one range).
CREATE INDEX project_users_status_identity_idx ON project_users (project_id, status, identity_key, created_at, id);
CREATE INDEX project_users_status_last_sign_in_idx ON project_users (project_id, status, last_sign_in_at, created_at, id);
-- The search (issue 13) finds a user by id in any project the caller may see, and by identity
-- across every project for a global permission.
CREATE INDEX project_users_id_idx ON project_users (id);
CREATE INDEX project_users_identity_any_idx ON project_users (identity_key, created_at, id);

-- Users who signed in before: their last successful sign-in from the audit log (once, here).
UPDATE project_users u SET last_sign_in_at = s.at
  FROM (SELECT project_id, user_id, max(created_at) AS at FROM audit_events
         WHERE scope = 'oidc' AND event_status = 'success' AND details ->> 'action' = 'sign_in' AND user_id IS NOT NULL
         GROUP BY project_id, user_id) s
 WHERE u.project_id = s.project_id AND u.identity_key = s.user_id;
