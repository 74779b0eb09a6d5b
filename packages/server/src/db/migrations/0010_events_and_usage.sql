-- Issue 8, slice 3 (docs/decisions/0014): every registration, sign-in, refusal, code and
-- revocation is one audit event and, where it counts, one usage count, written in the transaction
-- of the change it records.
--
-- Events are read a project's page at a time, newest first, at tens of millions of rows: the key
-- leads with the project, then the time, then a time-ordered id made by the server (no global
-- sequence); the table is range-partitioned by month (UTC), partitions are created ahead by the
-- server (modules/audit/event-partitions.ts) and retention drops whole months. Events that belong
-- to no project (none today) use project_id ''.
ALTER TABLE audit_events RENAME TO audit_events_before_0010;
ALTER INDEX audit_events_project_created_idx RENAME TO audit_events_before_0010_idx;

CREATE TABLE audit_events (
  project_id   text NOT NULL,
  created_at   timestamptz NOT NULL,
  id           uuid NOT NULL,
  user_id      text,
  device_name  text,
  scope        text NOT NULL,
  event_status text NOT NULL,
  ip           text,
  country      text,
  client_id    text,
  user_agent   text,
  details      jsonb NOT NULL DEFAULT '{}'::jsonb,
  PRIMARY KEY (project_id, created_at, id)
) PARTITION BY RANGE (created_at);

-- The months the existing events fall in; the server creates the current and coming months.
DO $$
DECLARE
  month timestamptz;
BEGIN
  FOR month IN SELECT DISTINCT date_trunc('month', created_at, 'UTC') FROM audit_events_before_0010 LOOP
    EXECUTE format(
      'CREATE TABLE IF NOT EXISTS %I PARTITION OF audit_events FOR VALUES FROM (%L) TO (%L)',
      'audit_events_' || to_char(month AT TIME ZONE 'UTC', 'YYYYMM'),
      month,
      month + interval '1 month'
    );
  END LOOP;
END $$;

-- The old serial id becomes a uuid that sorts the same way (and before every new, time-ordered one).
INSERT INTO audit_events (project_id, created_at, id, user_id, device_name, scope, event_status, details)
SELECT coalesce(project_id, ''), created_at, lpad(to_hex(id), 32, '0')::uuid, user_id, device_name,
       coalesce(scope, 'console'), coalesce(event_status, 'success'), details
  FROM audit_events_before_0010;
DROP TABLE audit_events_before_0010;

-- Usage rollups (spec §3 "Usage response"): one row per project, bucket and event key, counted up
-- in the event's transaction, so the dashboard reads totals without aggregating raw events. Keys:
-- `issued` (device registrations) and the events oidc, jwt, dvs-auth, dvs-verify, reg-code. Hours
-- and days are UTC; country is ISO 3166-1 alpha-2, or 'ZZ' (unknown: private, loopback, not found).
CREATE TABLE usage_hourly (
  project_id text NOT NULL,
  hour       timestamptz NOT NULL,
  key        text NOT NULL,
  count      bigint NOT NULL,
  PRIMARY KEY (project_id, hour, key)
);
CREATE TABLE usage_daily (
  project_id text NOT NULL,
  day        date NOT NULL,
  key        text NOT NULL,
  count      bigint NOT NULL,
  PRIMARY KEY (project_id, day, key)
);
CREATE TABLE usage_daily_country (
  project_id text NOT NULL,
  day        date NOT NULL,
  country    text NOT NULL,
  key        text NOT NULL,
  count      bigint NOT NULL,
  PRIMARY KEY (project_id, day, country, key)
);

-- A device's country, looked up from its address at registration (spec "Device identity").
ALTER TABLE devices ADD COLUMN country text;
