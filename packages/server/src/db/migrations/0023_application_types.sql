-- Issue 22: what an application is at its issuer is chosen, not guessed from its redirect URIs
-- (docs/decisions/0028). Applications made before keep what the issuer read them as: a native app
-- when they return to a private-use scheme, or to loopback addresses only; else a single-page app
-- where the project allows PKCE-only exchange (it may have been signing in without a secret, which
-- a web app no longer may), a web app elsewhere.
ALTER TABLE applications ADD COLUMN application_type text NOT NULL DEFAULT 'web'
  CHECK (application_type IN ('web', 'spa', 'native'));
UPDATE applications a SET application_type = 'native'
  FROM application_keys k
 WHERE k.application_id = a.id AND cardinality(k.redirect_uris) > 0
   AND (EXISTS (SELECT 1 FROM unnest(k.redirect_uris) u WHERE u !~* '^https?:')
        OR NOT EXISTS (SELECT 1 FROM unnest(k.redirect_uris) u WHERE u !~* '^http://(127\.0\.0\.1|\[::1\]|localhost)([:/?]|$)'));
UPDATE applications a SET application_type = 'spa'
  FROM projects p
 WHERE p.id = a.project_id AND a.application_type = 'web' AND (p.issuer->>'allow_pkce_only_token_exchange')::boolean IS TRUE;

-- PKCE becomes a project setting for confidential clients, optional for a new project (as in
-- Keycloak and Auth0); a project made before keeps requiring it, as it did.
UPDATE projects SET issuer = coalesce(issuer, '{}'::jsonb) || '{"require_pkce_for_confidential_clients": true}'::jsonb;
