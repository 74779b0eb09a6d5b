-- Applications (spec §3 "Application"): the OpenID Connect clients of a project. `version` is the
-- optimistic-concurrency counter sent as the ETag; `url` is the address given at creation.
CREATE TABLE applications (
  id            text PRIMARY KEY,
  project_id    text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name          text NOT NULL,
  platform_code text NOT NULL DEFAULT 'oidc',
  enabled       boolean NOT NULL DEFAULT true,
  logo_url      text NOT NULL DEFAULT '',
  url           text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  version       integer NOT NULL DEFAULT 1
);

-- The list of a project's applications (GET projects/{project}/apps) pages through these in index
-- order; every sort ends with id so pages never overlap. Each index leads with project_id, so one
-- project's rows are one contiguous range whatever the size of the table.
--   sort name (the default), and the name filter walked in order:
CREATE INDEX applications_project_name_idx ON applications (project_id, lower(name), id);
--   filter enabled (with any of the name sorts) and sort enabled:
CREATE INDEX applications_project_enabled_name_idx ON applications (project_id, enabled, lower(name), id);
--   filter and sort platformCode:
CREATE INDEX applications_project_platform_name_idx ON applications (project_id, platform_code, lower(name), id);
--   sort createdAt:
CREATE INDEX applications_project_created_idx ON applications (project_id, created_at, id);

-- The name filter is "contains, case-insensitive" (lower(name) LIKE '%…%'), which no b-tree can
-- answer. A trigram index can, when pg_trgm is there: PGlite loads it (db/pglite.ts), PostgreSQL
-- ships it in contrib and, since 13, lets a database owner create it. Where it cannot be created the
-- filter still works, by walking the project's range of applications_project_name_idx.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'pg_trgm could not be created (%); the application name filter runs without it', SQLERRM;
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX applications_name_trgm_idx ON applications USING gin (lower(name) gin_trgm_ops)';
  END IF;
END $$;

-- The client credentials of an application (spec §3 "Application keys"), created once per
-- application. Only the SHA-256 of the client secret is kept; redirect URIs are kept exactly as given.
CREATE TABLE application_keys (
  application_id     text PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  client_id          text NOT NULL UNIQUE,
  client_secret_hash text NOT NULL,
  redirect_uris      text[] NOT NULL,
  created_at         timestamptz NOT NULL,
  rotated_at         timestamptz
);
