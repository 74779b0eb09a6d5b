-- Passkey enrollment (issue 37 "Enrollment", docs/decisions/0050).

-- A passkey's backup flags from its registration's authenticator data (BE: it may be backed up, a
-- synced passkey provider's; BS: it is backed up now). NULL: made before they were stored (unknown,
-- shown as neither synced nor device-bound). backed_up follows each sign-in's flags (BS may change).
ALTER TABLE devices ADD COLUMN backup_eligible boolean;
ALTER TABLE devices ADD COLUMN backed_up boolean;

-- The fallback sign-ins (emailed code, link, the project's verification, QuickCode) of a person so
-- far: the project's "require a passkey after N fallback sign-ins" reads it at the offer, and each
-- fallback sign-in counts it up in its event's statement (with last_sign_in_at).
ALTER TABLE project_users ADD COLUMN fallback_sign_ins integer NOT NULL DEFAULT 0;

-- The enrollment funnel, counted up in the transaction of each event like usage_daily (migration
-- 0010): offers shown, passkeys created from them, declined; passkey and fallback sign-ins; passkey
-- answers refused. The dashboard sums at most a range's days a key, never reading the events.
CREATE TABLE enrollment_daily (
  project_id text NOT NULL,
  day        date NOT NULL,
  key        text NOT NULL,
  count      bigint NOT NULL,
  PRIMARY KEY (project_id, day, key)
);

-- The share of active users (signed in within the range) holding a passkey. Whether a person holds
-- an active passkey is noted at each of their sign-ins, in the statement that moves last_sign_in_at
-- (one probe of devices_user_active_idx), so the funnel counts a range of one index, index-only,
-- instead of probing each person's devices at read time (measured: 100,000 people signed in within
-- 30 days took 270-410 ms that way, docs/decisions/0050). Existing people: as their passkeys are now.
ALTER TABLE project_users ADD COLUMN passkey_at_sign_in boolean NOT NULL DEFAULT false;
CREATE INDEX devices_user_active_idx ON devices (project_id, user_id) WHERE NOT revoked;
UPDATE project_users u SET passkey_at_sign_in = true
 WHERE u.last_sign_in_at IS NOT NULL
   AND EXISTS (SELECT 1 FROM devices d WHERE d.project_id = u.project_id AND d.user_id = u.id AND NOT d.revoked);
CREATE INDEX project_users_sign_in_passkey_idx ON project_users (project_id, last_sign_in_at) INCLUDE (passkey_at_sign_in);

-- The dashboard's funnel opens the audit log at its events by action (details.action: the offer's
-- events, the sign-ins): like every audit filter (0014, 0015, 0016) an index that leads with the
-- project and ends with created_at and id, so the filter reads in created-at order at 10 M events.
CREATE INDEX audit_events_action_idx ON audit_events (project_id, (details->>'action'), created_at, id);
