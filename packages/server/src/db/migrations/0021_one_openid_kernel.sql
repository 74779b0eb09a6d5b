-- Issue 21 "One OpenID kernel" (docs/decisions/0027): every issuer, the console's own (the reserved
-- issuer 'console') and each project's (its id), keeps its artefacts in one table keyed by issuer.
-- A project's live rows move as they are (sessions, grants, codes and tokens of its end users carry
-- on: their sealing context is kept). The console provider's rows are dropped: an administrator's
-- console session is unaffected, a sign-in under way at /idp starts again, and the next sign-in
-- asks for a code (or the passkey) again. Projects are never deleted, so the key needs no
-- reference to them (the console's issuer is none).
DROP TABLE oidc_payloads;
ALTER TABLE project_oidc_payloads DROP CONSTRAINT project_oidc_payloads_project_id_fkey;
ALTER TABLE project_oidc_payloads RENAME COLUMN project_id TO issuer;
ALTER TABLE project_oidc_payloads RENAME TO oidc_payloads;
ALTER TABLE oidc_payloads RENAME CONSTRAINT project_oidc_payloads_pkey TO oidc_payloads_pkey;
ALTER INDEX project_oidc_payloads_grant_idx RENAME TO oidc_payloads_grant_idx;
ALTER INDEX project_oidc_payloads_user_code_idx RENAME TO oidc_payloads_user_code_idx;
ALTER INDEX project_oidc_payloads_uid_idx RENAME TO oidc_payloads_uid_idx;
ALTER INDEX project_oidc_payloads_account_idx RENAME TO oidc_payloads_account_idx;
ALTER INDEX project_oidc_payloads_expires_idx RENAME TO oidc_payloads_expires_idx;
ALTER INDEX project_oidc_payloads_device_idx RENAME TO oidc_payloads_device_idx;

-- The console provider's keys: its signing key and cookie keys are now those of every issuer
-- (keys.ts); the console's client secret stays.
DELETE FROM server_keys WHERE name IN ('idp.jwks', 'idp.cookie_keys');

-- Administrators' passkeys at the console's issuer (what a project's end users have, docs/decisions/0027).
-- `account` is the provider's account: the verified, lower-cased email address. `public_key` is
-- the COSE key (base64url): public, so not sealed.
CREATE TABLE console_passkeys (
  id           text PRIMARY KEY,
  account      text NOT NULL,
  public_key   text NOT NULL,
  counter      bigint NOT NULL DEFAULT 0,
  transports   text[] NOT NULL DEFAULT '{}',
  name         text NOT NULL,
  created_at   timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX console_passkeys_account_idx ON console_passkeys (account);
