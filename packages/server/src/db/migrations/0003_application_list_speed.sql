-- Measured on PostgreSQL with 1,000,000 applications, 200,000 in one project (bench/run.ts), the
-- lists of 0002 spent their time in two places this migration removes.

-- 1. Index-only scans. The planner does not answer `lower(name)` from an index on the expression
-- alone (it wants `name` itself in the index), so every list read each skipped row from the table:
-- a page at offset 100,000 read 100,000 rows. The key is now a stored column, indexed as a column.
ALTER TABLE applications ADD COLUMN name_key text GENERATED ALWAYS AS (lower(name)) STORED;

DROP INDEX applications_project_name_idx;
DROP INDEX applications_project_enabled_name_idx;
DROP INDEX applications_project_platform_name_idx;
DROP INDEX IF EXISTS applications_name_trgm_idx;
CREATE INDEX applications_project_name_idx ON applications (project_id, name_key, id);
CREATE INDEX applications_project_enabled_name_idx ON applications (project_id, enabled, name_key, id);
CREATE INDEX applications_project_platform_name_idx ON applications (project_id, platform_code, name_key, id);
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX applications_name_trgm_idx ON applications USING gin (name_key gin_trgm_ops)';
  END IF;
END $$;

-- 2. Totals. Every list answer carries the total (spec §3 "List responses"); counting a project's
-- 200,000 applications read 200,000 index entries on every page (~25 ms), far more than the page.
-- The totals of the filters without a name are kept here instead, per (project, platform, enabled),
-- by statement-level triggers in the same transaction as the change, so they are exact for every
-- writer (the API, a bulk load, a cascade). A name filter still counts its matches.
CREATE TABLE application_counts (
  project_id    text NOT NULL,
  platform_code text NOT NULL,
  enabled       boolean NOT NULL,
  n             bigint NOT NULL,
  PRIMARY KEY (project_id, platform_code, enabled)
);
-- No foreign key to projects: deleting a project deletes its applications, whose trigger then
-- brings these rows to zero; a reference would make that trigger fail on the deleted project.

-- Applies the changed rows of one statement: +1 for each new row, -1 for each old one, grouped. One
-- upsert in key order, so concurrent writers lock counter rows in the same order (no deadlock), and
-- a change that moves no row between groups (a rename) touches no counter at all.
CREATE FUNCTION application_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO application_counts (project_id, platform_code, enabled, n)
    SELECT project_id, platform_code, enabled, count(*) FROM new_rows
     GROUP BY project_id, platform_code, enabled ORDER BY project_id, platform_code, enabled
    ON CONFLICT (project_id, platform_code, enabled) DO UPDATE SET n = application_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO application_counts (project_id, platform_code, enabled, n)
    SELECT project_id, platform_code, enabled, -count(*) FROM old_rows
     GROUP BY project_id, platform_code, enabled ORDER BY project_id, platform_code, enabled
    ON CONFLICT (project_id, platform_code, enabled) DO UPDATE SET n = application_counts.n + excluded.n;
  ELSE
    INSERT INTO application_counts (project_id, platform_code, enabled, n)
    SELECT project_id, platform_code, enabled, sum(delta) FROM (
      SELECT project_id, platform_code, enabled, 1 AS delta FROM new_rows
      UNION ALL
      SELECT project_id, platform_code, enabled, -1 AS delta FROM old_rows
    ) AS changed
     GROUP BY project_id, platform_code, enabled HAVING sum(delta) <> 0
     ORDER BY project_id, platform_code, enabled
    ON CONFLICT (project_id, platform_code, enabled) DO UPDATE SET n = application_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER applications_count_insert AFTER INSERT ON applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION application_counts_apply();
CREATE TRIGGER applications_count_update AFTER UPDATE ON applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION application_counts_apply();
CREATE TRIGGER applications_count_delete AFTER DELETE ON applications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION application_counts_apply();

-- Applications that exist already are counted once, here.
INSERT INTO application_counts (project_id, platform_code, enabled, n)
SELECT project_id, platform_code, enabled, count(*) FROM applications GROUP BY project_id, platform_code, enabled;
