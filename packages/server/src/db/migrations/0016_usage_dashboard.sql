-- Issue 10, the usage dashboards (docs/decisions/0020).

-- A country of the map opens the audit log filtered to that country. Like every audit filter (0014,
-- 0015), an index that leads with the project and ends with created_at and the key, so the filter
-- answers in created-at order at 10 M events and a country with no events is an empty seek; scope
-- and result ride along in the leaf, for a country asked together with them.
CREATE INDEX audit_events_country_idx ON audit_events (project_id, country, created_at, id) INCLUDE (scope, event_status);

-- The dashboard over every project (glb::usage) reads a range of buckets of all projects: the
-- rollups' keys lead with the project, so that read needs the bucket first. The count and the
-- project ride along in the leaf, so the sum is an index-only scan of the range's rows.
CREATE INDEX usage_hourly_hour_idx ON usage_hourly (hour, key) INCLUDE (project_id, count);
CREATE INDEX usage_daily_day_idx ON usage_daily (day, key) INCLUDE (project_id, count);
CREATE INDEX usage_daily_country_day_idx ON usage_daily_country (day, key) INCLUDE (country, count);
