-- Issue 35 (docs/decisions/0041): four migrations were edited after they landed, so a database that
-- applied one as it landed lacks what the edit added (or keeps what it removed), and nothing told it.
-- Each repair below changes nothing on a database that ran the edited text, so after this migration
-- every database has the schema a new one gets. Landed migrations are not edited any more: the
-- committed checksums (checksums.sha256) and the start-up check refuse it.

-- 0030_end_users gained four indexes after it landed: the search's (by id, by identity in any
-- project) and a status filter with another sort.
CREATE INDEX IF NOT EXISTS project_users_status_identity_idx ON project_users (project_id, status, identity_key, created_at, id);
CREATE INDEX IF NOT EXISTS project_users_status_last_sign_in_idx ON project_users (project_id, status, last_sign_in_at, created_at, id);
CREATE INDEX IF NOT EXISTS project_users_id_idx ON project_users (id);
CREATE INDEX IF NOT EXISTS project_users_identity_any_idx ON project_users (identity_key, created_at, id);

-- 0018_accounts_and_service_tokens gained accounts.version (an account's ETag) after it landed.
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;

-- 0014_device_and_audit_lists landed with a trigger filling devices.user_key; the edit removed it
-- (the statement inserting a device writes it; DESIGN "The data plane": no triggers).
DROP TRIGGER IF EXISTS devices_user_key ON devices;
DROP FUNCTION IF EXISTS devices_user_key();

-- 0027_backchannel_logout_bounds landed dropping backchannel_logouts.jti; the edit keeps it,
-- nullable, for the previous version during a rollover. The same column everywhere, so the later
-- migration that drops it finds it on every database.
ALTER TABLE backchannel_logouts ADD COLUMN IF NOT EXISTS jti text;
