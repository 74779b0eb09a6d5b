-- Issue 13 "Find anything" (docs/decisions/0023): GET /search finds a project, an application, an
-- account, a device or an audit event by id or by the start of a name, in every project the caller
-- can see. Each match is an index seek: an exact id through a unique or id index, a name's start as
-- a range of a byte-order ("C") index (a prefix LIKE can use no other collation's index). Names are
-- matched lower-cased; ids as typed and lower-cased.
--
-- A caller who sees a few projects is answered per project (indexes led by project_id, one seek per
-- project in one statement); one whose global permission reaches every project from an index of the
-- whole table, in name order, so a thousand projects cost one seek, not a thousand.

-- Projects: the start of the name.
CREATE INDEX projects_name_prefix_idx ON projects ((lower(name)) COLLATE "C", id);

-- Applications: the start of the name, per project and across projects; the client id and its start
-- (the unique constraint's index has the database's collation, which a prefix cannot use).
CREATE INDEX applications_project_name_prefix_idx ON applications (project_id, name_key COLLATE "C", id);
CREATE INDEX applications_name_prefix_idx ON applications (name_key COLLATE "C", id);
CREATE INDEX application_keys_client_prefix_idx ON application_keys (client_id COLLATE "C");

-- Accounts: the start of the email, or of a service account's name (sort_key, migration 0018).
CREATE INDEX accounts_sort_key_prefix_idx ON accounts (sort_key COLLATE "C", id);

-- Devices: an mpinId without its project, and an owner's identity across projects (user_key is
-- byte-order already, migration 0014; per project the list's (project_id, user_key, …) serves).
CREATE INDEX devices_id_idx ON devices (id);
CREATE INDEX devices_user_key_idx ON devices (user_key, created_at, id);

-- Audit events: an event by its id alone. Made on the partitioned parent, so every month, present
-- and future (ensureEventPartitions), has it; a lookup is one seek per partition kept. The id's
-- UUIDv7 time is not used to prune: it is the writer's clock when the row was made, which need not
-- be created_at (a bulk load, an import, a test clock).
CREATE INDEX audit_events_id_idx ON audit_events (id);
