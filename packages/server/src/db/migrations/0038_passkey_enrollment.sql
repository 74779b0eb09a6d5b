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

-- The share of active users (signed in within the range) holding a passkey: the range's people are a
-- range of project_users_last_sign_in_idx; whether each holds an active passkey is one probe of this
-- partial index (revoked passkeys left out), an index-only one.
CREATE INDEX devices_user_active_idx ON devices (project_id, user_id) WHERE NOT revoked;

-- The dashboard's funnel opens the audit log at its events by action (details.action: the offer's
-- events, the sign-ins): like every audit filter (0014, 0015, 0016) an index that leads with the
-- project and ends with created_at and id, so the filter reads in created-at order at 10 M events.
CREATE INDEX audit_events_action_idx ON audit_events (project_id, (details->>'action'), created_at, id);
