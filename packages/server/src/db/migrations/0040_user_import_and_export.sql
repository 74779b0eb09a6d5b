-- Issue 37 "Migration" (docs/decisions/0052): a project's users imported from a file, and exported.
--
-- What an import keeps of a person lives in project_users, their one place (docs/decisions/0046):
-- the team's own id for them (external_id, for their mapping, searchable by it), a display name, and
-- whether the old system had verified the address. A person made at sign-in has proved their address.
ALTER TABLE project_users ADD COLUMN external_id text;
ALTER TABLE project_users ADD COLUMN display_name text;
ALTER TABLE project_users ADD COLUMN email_verified boolean NOT NULL DEFAULT true;
CREATE INDEX project_users_external_id_idx ON project_users (project_id, external_id) WHERE external_id IS NOT NULL;

-- An imported password hash, usable for one sign-in while the person has no passkey: deleted with
-- their first passkey, at `expires_at` by the housekeeping, and with the person (foreign key). A
-- secret, so in a table of its own, named by the person's id.
CREATE TABLE imported_passwords (
  project_id text NOT NULL,
  user_id    text NOT NULL,
  hash       text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, user_id),
  FOREIGN KEY (project_id, user_id) REFERENCES project_users (project_id, id) ON DELETE CASCADE
);
CREATE INDEX imported_passwords_expires_idx ON imported_passwords (expires_at);

-- An import as a job: its progress is written after each batch, so a caller (the Users page) may
-- leave and come back. `updated_at` tells a job cut off by a server stop from one under way.
CREATE TABLE user_imports (
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  id          text NOT NULL,
  format      text NOT NULL,
  status      text NOT NULL,
  lines       integer NOT NULL DEFAULT 0,
  imported    integer NOT NULL DEFAULT 0,
  unchanged   integer NOT NULL DEFAULT 0,
  refused     integer NOT NULL DEFAULT 0,
  failure     text,
  started_by  text,
  started_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  finished_at timestamptz,
  PRIMARY KEY (project_id, id)
);
CREATE INDEX user_imports_started_idx ON user_imports (project_id, started_at, id);

-- The report of an import: each refused line, its number and why (at most the first 10 000 kept).
CREATE TABLE user_import_refusals (
  project_id text NOT NULL,
  import_id  text NOT NULL,
  line       integer NOT NULL,
  reason     text NOT NULL,
  message    text NOT NULL,
  PRIMARY KEY (project_id, import_id, line),
  FOREIGN KEY (project_id, import_id) REFERENCES user_imports (project_id, id) ON DELETE CASCADE
);
