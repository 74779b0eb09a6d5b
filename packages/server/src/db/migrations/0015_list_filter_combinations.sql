-- Issue 9 (docs/decisions/0019 "Filters together"): two filters asked together answer from an
-- index too. Migration 0014 gave each filter its own index in created-at order; a second filter
-- was checked against the table row, one heap read per index entry. At 10,000,000 events over 12
-- months, the busiest user's failed sign-ins read every event of that user (396 ms), and a scope
-- with a result it never has (console + created: nothing) read every console event (1,004 ms).

-- Scope and result together: the console's two choice filters. An equality on both is one range of
-- this index in created-at order, and a combination that never happens is an empty seek.
CREATE INDEX audit_events_scope_status_idx ON audit_events (project_id, scope, event_status, created_at, id);

-- The user's and the device name's index carry the other filter columns (INCLUDE: stored in the
-- leaf, not ordered), so a second filter is checked in the index (an index-only scan once the
-- month's partition is vacuumed — insert-only partitions are, by autovacuum's insert threshold),
-- never in the table.
DROP INDEX audit_events_user_idx;
CREATE INDEX audit_events_user_idx ON audit_events (project_id, user_id, created_at, id) INCLUDE (scope, event_status, device_key);
DROP INDEX audit_events_device_idx;
CREATE INDEX audit_events_device_idx ON audit_events (project_id, device_key, created_at, id) INCLUDE (scope, event_status, user_id);

-- Devices: the created-at index is what a list walks when a filter matches more rows than the
-- capped total (a device-name or ip prefix common to many devices, with or without a status); it
-- carries every filter column, so that walk never reads the table either.
DROP INDEX devices_project_created_idx;
CREATE INDEX devices_project_created_idx ON devices (project_id, created_at, id) INCLUDE (user_key, name_key, ip, revoked);
