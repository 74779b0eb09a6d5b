-- Issue 9 (docs/decisions/0019): the devices list and the audit log, answered in tens of
-- milliseconds at 1,000,000 devices and 10,000,000 events in one project. Every list query names
-- the project and a bounded created_at range; each filter and sort below is the column order of one
-- index that leads with the project and ends with created_at and the row's key, read forwards or
-- backwards, so a page is an index range read and never a sort of the whole range.

-- Devices: the owner's identity (their email address or user id, spec "email (userId)") is kept on
-- the device, so the list filters and sorts by it from an index without a join to project_users. An
-- identity never changes (migration 0013: exactly one of email and username, set at creation); the
-- statement that inserts a device writes it (devices.repository.ts insertDevice) — no trigger
-- (DESIGN "The data plane"). Byte order (COLLATE "C"): identities are lower-case, and a prefix LIKE
-- can use a "C" index.
ALTER TABLE devices ADD COLUMN user_key text COLLATE "C";
UPDATE devices d SET user_key = coalesce(u.email, u.username)
  FROM project_users u WHERE u.project_id = d.project_id AND u.id = d.user_id;
ALTER TABLE devices ALTER COLUMN user_key SET NOT NULL;

-- The device name filter is "starts with, any case"; its sort is case-insensitive. A stored key
-- column (not an expression index) so pages are index-only scans (as applications.name_key, 0003).
ALTER TABLE devices ADD COLUMN name_key text COLLATE "C" GENERATED ALWAYS AS (lower(name)) STORED;

CREATE INDEX devices_project_created_idx ON devices (project_id, created_at, id);
CREATE INDEX devices_project_user_created_idx ON devices (project_id, user_key, created_at, id);
CREATE INDEX devices_project_name_created_idx ON devices (project_id, name_key, created_at, id);
CREATE INDEX devices_project_ip_created_idx ON devices (project_id, ip COLLATE "C", created_at, id);
CREATE INDEX devices_project_revoked_created_idx ON devices (project_id, revoked, created_at, id);

-- Audit events (partitioned by month, key (project_id, created_at, id), migration 0010): the
-- indexes are made on the parent, so every partition, present and future, gets them. The key
-- itself serves the default sort (createdAt) and the plain date range.
ALTER TABLE audit_events ADD COLUMN device_key text COLLATE "C" GENERATED ALWAYS AS (lower(device_name)) STORED;

CREATE INDEX audit_events_user_idx ON audit_events (project_id, user_id, created_at, id);
CREATE INDEX audit_events_device_idx ON audit_events (project_id, device_key, created_at, id);
CREATE INDEX audit_events_scope_idx ON audit_events (project_id, scope, created_at, id);
CREATE INDEX audit_events_status_idx ON audit_events (project_id, event_status, created_at, id);
