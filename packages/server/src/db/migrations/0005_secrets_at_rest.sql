-- Secrets at rest (README "Secrets and backups"): what a copy of the database shows must not let
-- anyone sign in or forge anything. Keys are keyed hashes (HMAC under the master key, which is not
-- in the database) and stored key material is sealed (AES-256-GCM). The rows below were written
-- in plain text or with unkeyed hashes; they cannot be converted in SQL (the key is not here), and
-- all are short-lived: people sign in again.

-- Console sessions: id_hash becomes HMAC(session id); the XSRF token is kept only as an HMAC; the
-- ID token (the logout hint) is sealed.
DELETE FROM sessions;
ALTER TABLE sessions RENAME COLUMN xsrf_token TO xsrf_hash;

-- The pending sign-in now travels in a sealed cookie (docs/decisions/0003): GET /api/authurl,
-- which anyone may call, writes no row at all.
DROP TABLE login_attempts;

-- The built-in provider's artefacts: id, grant_id, user_code and uid hold HMACs of the provider's
-- values, the payload is sealed; account_ref (HMAC of the account) finds a person's provider
-- sessions at logout.
DELETE FROM oidc_payloads;
ALTER TABLE oidc_payloads ALTER COLUMN payload TYPE text USING payload::text;
ALTER TABLE oidc_payloads ADD COLUMN account_ref text;
CREATE INDEX oidc_payloads_account_idx ON oidc_payloads (kind, account_ref) WHERE account_ref IS NOT NULL;

-- Server keys: the value moves, sealed, to `sealed` at the first start with this version.
ALTER TABLE server_keys ADD COLUMN sealed text;
ALTER TABLE server_keys ALTER COLUMN value DROP NOT NULL;

-- Sign-in codes belong to the provider interaction that asked for them (one live code per
-- interaction, keyed by HMAC of its uid), so asking for a code for the same address elsewhere does
-- not end this one. code_hash is an HMAC of the interaction, address and code.
DROP TABLE idp_login_codes;
CREATE TABLE idp_login_codes (
  interaction_ref text PRIMARY KEY,
  email           text NOT NULL,
  code_hash       text NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  consumed_at     timestamptz
);
CREATE INDEX idp_login_codes_expires_idx ON idp_login_codes (expires_at);

-- Rate-limit counters (fixed windows), shared by every instance: bucket is an HMAC of what is
-- counted (client address, address × client address, interaction), so the table names nobody.
CREATE TABLE rate_limits (
  bucket            text PRIMARY KEY,
  window_started_at timestamptz NOT NULL,
  window_ends_at    timestamptz NOT NULL,
  hits              integer NOT NULL
);
CREATE INDEX rate_limits_ends_idx ON rate_limits (window_ends_at);
