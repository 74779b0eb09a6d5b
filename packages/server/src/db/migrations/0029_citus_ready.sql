-- Issue 23, beyond one database: a schema a distributed PostgreSQL (Citus) can shard by project.
-- Every table is either distributed by its project (the first column of its primary key and of
-- every unique index, in every foreign key between two such tables) or a small reference table;
-- no triggers, no sequences in keys. docs/decisions/0037 maps each table; test/schema-catalog.test.ts
-- reads the catalog and fails on a table that breaks this.
--
-- Old instances keep serving while this applies (README "Upgrades"): what they write still fits.
-- Where a key of theirs could not stay (rate_limits, idp_login_codes: ON CONFLICT on the old key),
-- this version writes new tables and leaves those two to the previous version, for a later one to drop.

-- 1. Application totals without triggers. The counts are recounted for a project when its
-- clients' version (raised by every write to its applications, by this version and the previous
-- one: migration 0028) is not the one they were counted at: apps.repository.ts, freshCounts.
DROP TRIGGER applications_count_insert ON applications;
DROP TRIGGER applications_count_update ON applications;
DROP TRIGGER applications_count_delete ON applications;
DROP FUNCTION application_counts_apply();
ALTER TABLE projects ADD COLUMN application_counts_version integer;
-- The triggers kept them exact up to here.
UPDATE projects SET application_counts_version = clients_version;

-- 2. Applications and their keys under their project. Lookups by id alone keep a plain index (a
-- Citus router query needs the project; these become fan-out reads there, rare console reads).
ALTER TABLE application_keys ADD COLUMN project_id text;
UPDATE application_keys k SET project_id = a.project_id FROM applications a WHERE a.id = k.application_id;
ALTER TABLE application_keys ALTER COLUMN project_id SET NOT NULL;
ALTER TABLE application_keys DROP CONSTRAINT application_keys_application_id_fkey;
ALTER TABLE application_keys DROP CONSTRAINT application_keys_pkey;
ALTER TABLE application_keys DROP CONSTRAINT application_keys_client_id_key;

ALTER TABLE applications DROP CONSTRAINT applications_pkey;
ALTER TABLE applications ADD PRIMARY KEY (project_id, id);
CREATE INDEX applications_id_idx ON applications (id);

ALTER TABLE application_keys ADD PRIMARY KEY (project_id, application_id);
ALTER TABLE application_keys ADD CONSTRAINT application_keys_project_client_key UNIQUE (project_id, client_id);
ALTER TABLE application_keys ADD FOREIGN KEY (project_id, application_id) REFERENCES applications (project_id, id) ON DELETE CASCADE;
CREATE INDEX application_keys_application_idx ON application_keys (application_id);
CREATE INDEX application_keys_client_idx ON application_keys (client_id);

-- 3. A verification link's token under its project (every statement names both already).
ALTER TABLE identity_verifications DROP CONSTRAINT identity_verifications_pkey;
ALTER TABLE identity_verifications ADD PRIMARY KEY (project_id, token_ref);

-- 4. Reference tables hold no reference to a distributed one: a custom domain's host is looked up
-- before its project is known (one small table, every node has it), a permission may name no
-- project. Projects are never deleted (spec §5: they are closed), so the cascades did nothing.
ALTER TABLE project_hosts DROP CONSTRAINT project_hosts_project_id_fkey;
ALTER TABLE account_permissions DROP CONSTRAINT account_permissions_project_id_fkey;

-- 5. Counted and kept per issuer: a project's id, or 'console' for the console's own sign-in
-- (oidc_payloads.issuer already is). The keyed hashes are those of before, so a limit carries on.
CREATE TABLE rate_limit_windows (
  issuer            text NOT NULL,
  bucket            text NOT NULL,
  window_started_at timestamptz NOT NULL,
  window_ends_at    timestamptz NOT NULL,
  hits              integer NOT NULL,
  PRIMARY KEY (issuer, bucket)
);
CREATE INDEX rate_limit_windows_ends_idx ON rate_limit_windows (window_ends_at);

CREATE TABLE login_codes (
  issuer          text NOT NULL,
  interaction_ref text NOT NULL,
  email           text NOT NULL,
  code_hash       text NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  consumed_at     timestamptz,
  PRIMARY KEY (issuer, interaction_ref)
);
CREATE INDEX login_codes_expires_idx ON login_codes (expires_at);

-- Nothing is copied over: the old rows name no issuer, and a keyed hash cannot be traced back to
-- one. A rate-limit window under way restarts (at most one window's allowance again), and a code
-- mailed by the previous version is not found by this one (its page asks for a new code). Both are
-- minutes of state, and only during the rollover (docs/decisions/0037).
