-- Issue 12, staff and service accounts (docs/decisions/0022).

-- A staff account added by email before it ever signed in is an invitation: signed_in_at stays null
-- until its first sign-in. Accounts that exist have signed in (they were made by their sign-in).
ALTER TABLE accounts ADD COLUMN signed_in_at timestamptz;
UPDATE accounts SET signed_in_at = created_at WHERE NOT is_service_account;

-- An account's document (its permissions and status, as a project reads it) is changed with
-- If-Match like every other document (docs/decisions/0007): its version is sent as the ETag.
ALTER TABLE accounts ADD COLUMN version integer NOT NULL DEFAULT 1;

-- The accounts list of a project, by email (service accounts by name): the list sorts on this key.
ALTER TABLE accounts ADD COLUMN sort_key text NOT NULL DEFAULT '';
UPDATE accounts SET sort_key = lower(coalesce(email, name));
CREATE INDEX accounts_sort_key_idx ON accounts (sort_key, id);

-- A service account's token (one at a time: rotating replaces it, revoking deletes it). Only a
-- keyed hash (HMAC under the master key) is stored, so a copy of the database authenticates
-- nothing; the prefix is the token's first characters, to tell tokens apart in the console.
CREATE TABLE service_account_tokens (
  account_id   text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash   text NOT NULL UNIQUE,
  prefix       text NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz,
  last_used_at timestamptz,
  last_used_ip text
);
