-- A relying party per project (docs/decisions/0047).
--
-- A project's issuer may live on a host of its own, {project}.{ISSUER_DOMAIN}: one more row of
-- project_hosts, marked `own`, routed by Host like a custom domain. Which address a project's issuer
-- uses is stored, never derived from the configuration: no own row → {PUBLIC_URL}/p/{project} (every
-- project made before this migration stays there until its administrator moves it); an own row → its
-- own host; a custom domain (a row with an origin, not own) → the custom domain, as before. The own
-- host's whole origin is kept, so changing ISSUER_DOMAIN later never changes an issuer identifier.
ALTER TABLE project_hosts ADD COLUMN own boolean NOT NULL DEFAULT false;
ALTER TABLE project_hosts ADD CONSTRAINT project_hosts_own_origin CHECK (NOT own OR origin IS NOT NULL);
-- One own host per project (the issuer state reads it by project: project_hosts_project_idx).
CREATE UNIQUE INDEX project_hosts_own_idx ON project_hosts (project_id) WHERE own;

-- The WebAuthn relying party id a passkey was made under: verification expects exactly it. NULL:
-- made before rpIDs were stored, under PUBLIC_URL's host (the one relying party of docs/decisions/0013),
-- which the server knows and this SQL does not. A passkey of a project served at its custom domain
-- was made under that domain's host (docs/decisions/0016: a passkey made earlier under PUBLIC_URL's
-- host stopped working at the move anyway): that host, without scheme or port, is derived here.
ALTER TABLE devices ADD COLUMN rp_id text;
UPDATE devices d
   SET rp_id = substring(h.origin FROM '^https?://([a-z0-9.-]+)(?::[0-9]+)?$')
  FROM project_hosts h
 WHERE h.project_id = d.project_id AND h.origin IS NOT NULL AND NOT h.own;
