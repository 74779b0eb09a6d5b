-- Account recovery (issue 37 "Recovery", docs/decisions/0051).
--
-- Every secret here is kept as a keyed hash (HMAC with the server's key, docs/decisions/0046): a copy
-- of the database yields no code, no link. Each row is a person's (project_users), so an erasure
-- takes them with the person; each table is distributed by project_id (docs/decisions/0037).

-- A person's recovery codes: one set at a time (a new set replaces the old), each usable once.
CREATE TABLE recovery_codes (
  project_id  text NOT NULL,
  user_id     text NOT NULL,
  code_hash   text NOT NULL,
  created_at  timestamptz NOT NULL,
  used_at     timestamptz,
  PRIMARY KEY (project_id, user_id, code_hash),
  FOREIGN KEY (project_id, user_id) REFERENCES project_users (project_id, id) ON DELETE CASCADE
);

-- An email-only sign-in of a person who holds passkeys (the project's emailRecoveryDelay): a new
-- passkey waits until not_before; "This wasn't me" (its token, hashed) ends it first.
CREATE TABLE email_recoveries (
  project_id   text NOT NULL,
  id           text NOT NULL,
  user_id      text NOT NULL,
  token_hash   text NOT NULL,
  created_at   timestamptz NOT NULL,
  not_before   timestamptz NOT NULL,
  ended_at     timestamptz,
  -- 'cancelled' ("This wasn't me"), 'used' (the passkey was added).
  ended_how    text,
  PRIMARY KEY (project_id, id),
  FOREIGN KEY (project_id, user_id) REFERENCES project_users (project_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX email_recoveries_token_idx ON email_recoveries (project_id, token_hash);
CREATE INDEX email_recoveries_user_idx ON email_recoveries (project_id, user_id, created_at);

-- An administrator's one-time re-enrollment link for a person (help-desk recovery).
CREATE TABLE reenrollment_links (
  project_id  text NOT NULL,
  token_hash  text NOT NULL,
  user_id     text NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  PRIMARY KEY (project_id, token_hash),
  FOREIGN KEY (project_id, user_id) REFERENCES project_users (project_id, id) ON DELETE CASCADE
);
CREATE INDEX reenrollment_links_user_idx ON reenrollment_links (project_id, user_id);
