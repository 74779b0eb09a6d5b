-- Issue 35, "Personal data in one place" (docs/decisions/0046): a person's identity (their address or
-- user id) is stored once, in project_users; everything else names them by their id (the sub), so
-- erasing them rewrites one row, and a scrub of that one table reaches the data files.

-- Audit events: an end user's event names the person by id. Events of the project's end users (every
-- scope but `console`) and the console's actions about one (a device revoked, a user blocked: the
-- event names them, not the acting account, whose email it would otherwise hold): their identity
-- becomes the person's id. The console account acting (staff, not an end user) stays as it was.
-- Erased people's events (`deleted-…`) name no identity and stay as they are.
UPDATE audit_events e SET user_id = u.id
  FROM project_users u
 WHERE u.project_id = e.project_id AND u.identity_key = e.user_id
   AND (e.scope <> 'console'
        OR NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = e.details->>'accountId' AND a.email = e.user_id));

-- Webhook messages name the person by id too (erasure deletes them by it).
UPDATE outbox_messages m SET subject = u.id
  FROM project_users u
 WHERE m.kind = 'webhook' AND u.project_id = m.project_id AND u.identity_key = m.subject;

-- What is left names an identity that is no person of the project (a refusal, a code mailed to an
-- unknown address): it becomes a keyed pseudonym of the identity, which SQL cannot make (the key is
-- the deployment's master key, never in the database). The identities are listed here; the server
-- rewrites them at start-up, a batch at a time, and removes each from this list
-- (people/legacy-identities.ts). Nothing stays here once it has run.
CREATE TABLE event_identities_to_pseudonymise (
  project_id text NOT NULL,
  identity   text NOT NULL,
  PRIMARY KEY (project_id, identity)
);
INSERT INTO event_identities_to_pseudonymise (project_id, identity)
SELECT DISTINCT e.project_id, e.user_id FROM audit_events e
 WHERE e.project_id <> '' AND e.user_id IS NOT NULL AND e.user_id NOT LIKE 'deleted-%'
   AND e.scope <> 'console'
   AND NOT EXISTS (SELECT 1 FROM project_users u WHERE u.project_id = e.project_id AND u.id = e.user_id)
UNION
SELECT m.project_id, m.subject FROM outbox_messages m
 WHERE m.kind = 'webhook' AND m.subject IS NOT NULL AND m.subject NOT LIKE 'deleted-%'
   AND NOT EXISTS (SELECT 1 FROM project_users u WHERE u.project_id = m.project_id AND u.id = m.subject)
   AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.email = m.subject OR a.id = m.subject);

-- Devices: the owner's identity is read from the person (devices.repository.ts DEVICES_WITH_OWNER),
-- not copied onto each device. Dropping the column drops its indexes (the list's by owner, the
-- search's across projects, and the created-at index that carried it); the created-at index comes
-- back without it. The owner sort and filter walk project_users_identity_idx and reach each owner's
-- devices by (project_id, user_id): that index gains the creation order, so a range of an owner's
-- devices is an index range.
ALTER TABLE devices DROP COLUMN user_key;
CREATE INDEX devices_project_created_idx ON devices (project_id, created_at, id) INCLUDE (name_key, ip, revoked);
DROP INDEX devices_user_idx;
CREATE INDEX devices_user_idx ON devices (project_id, user_id, created_at, id);

-- The planner's statistics keep sample values of each column (pg_statistic): not of the addresses.
ALTER TABLE project_users ALTER COLUMN email SET STATISTICS 0;
ALTER TABLE project_users ALTER COLUMN username SET STATISTICS 0;
ALTER TABLE project_users ALTER COLUMN identity_key SET STATISTICS 0;
ALTER TABLE login_codes ALTER COLUMN email SET STATISTICS 0;
ALTER TABLE identity_verifications ALTER COLUMN identity SET STATISTICS 0;

-- Erasure deletes the person's row and rewrites their traces; the old row versions and index entries
-- stay in the data files until their space is reused. Each erasure asks for a scrub here; the
-- housekeeping rewrites the tables that held the person (people/erasure-scrub.ts) when any is asked.
-- Two erasures of a project at the same instant share a request.
CREATE TABLE erasure_scrubs (
  project_id text NOT NULL,
  erased_at  timestamptz NOT NULL,
  PRIMARY KEY (project_id, erased_at)
);
