-- Custom domains (docs/decisions/0016): the hosts a project is served at besides PUBLIC_URL, one row
-- per host, so a request's Host finds its project with one primary-key seek and no two projects can
-- claim one host (the key holds across both settings and across concurrent writes). `origin` is the
-- issuer's origin when the host is the project's customDomain; NULL when it is only its
-- customMobileDomain (which serves the deep-link association files alone).
CREATE TABLE project_hosts (
  host       text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  origin     text
);
-- The issuer state of a project reads its custom origin by project.
CREATE INDEX project_hosts_project_idx ON project_hosts (project_id);

-- Domains saved before this table existed. The server derives a host with the WHATWG URL parser
-- (domainHost in @latchkey/domain); here only plain DNS names are taken (letters, digits, '-', '.',
-- a last label with a letter, an optional port), lower-cased, the scheme's default port dropped. A
-- value outside that, or a host an older project claimed first, is routed once it is saved again.
WITH domains AS (
  SELECT p.id AS project_id, p.created_at, d.is_issuer,
         substring(lower(d.value) FROM '^(https?)://') AS scheme,
         substring(lower(d.value) FROM '^https?://([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::[1-9][0-9]{0,4})?/?$') AS name,
         substring(lower(d.value) FROM '^https?://[a-z0-9.-]+:([1-9][0-9]{0,4})/?$') AS port
    FROM projects p
   CROSS JOIN LATERAL (VALUES (p.settings->>'customDomain', true), (p.settings->>'customMobileDomain', false)) AS d (value, is_issuer)
), hosts AS (
  SELECT project_id, created_at, is_issuer, scheme,
         CASE WHEN port IS NULL OR (scheme = 'https' AND port = '443') OR (scheme = 'http' AND port = '80') THEN name ELSE name || ':' || port END AS host
    FROM domains
   WHERE name ~ '(^|\.)[a-z0-9-]*[a-z][a-z0-9-]*$' AND (port IS NULL OR port::int <= 65535)
)
INSERT INTO project_hosts (host, project_id, origin)
SELECT DISTINCT ON (host) host, project_id, CASE WHEN is_issuer THEN scheme || '://' || host END
  FROM hosts
 ORDER BY host, created_at, project_id, is_issuer DESC;
