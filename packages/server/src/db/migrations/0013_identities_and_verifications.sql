-- A project's end user is known by an email address or by an alphanumeric user id (spec §3
-- identityType; docs/decisions/0018): exactly one of `email` and `username` is set, each unique in
-- the project. The two never meet: an id that looks like an address is not that address's user.
ALTER TABLE project_users ALTER COLUMN email DROP NOT NULL;
ALTER TABLE project_users ADD COLUMN username text;
ALTER TABLE project_users ADD CONSTRAINT project_users_one_identity CHECK ((email IS NULL) <> (username IS NULL));
ALTER TABLE project_users ADD CONSTRAINT project_users_username_key UNIQUE (project_id, username);

-- An identity being verified by an emailed link (standardEmail) or by the project's own backend
-- (fullCustom), bound to the provider interaction that asked for it: one row per interaction, a
-- new request replaces it. token_ref is a keyed hash of the link's token or of the custom
-- request's id, interaction_ref one of the interaction's uid. confirmed_at: the link was opened or
-- the backend confirmed; used_at: the interaction went on with it (once).
CREATE TABLE identity_verifications (
  token_ref       text PRIMARY KEY,
  project_id      text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  interaction_ref text NOT NULL,
  method          text NOT NULL,
  identity_type   text NOT NULL,
  identity        text NOT NULL,
  requested_from  text,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  confirmed_at    timestamptz,
  confirmed_by    text,
  used_at         timestamptz,
  UNIQUE (project_id, interaction_ref)
);
CREATE INDEX identity_verifications_expires_idx ON identity_verifications (expires_at);

-- Until now every project's issuer verified new users by an emailed code, whatever its stored
-- method said; new projects used to be created with Email Link (standardEmail) as their method
-- without it doing anything. Those projects keep the behaviour they had: their method becomes the
-- emailed code (codeEmail), the new default (docs/decisions/0018). Their version moves on, so a
-- settings form opened before this sees the change instead of overwriting it.
UPDATE projects
   SET settings = jsonb_set(settings, '{verificationOptions,method}', '"codeEmail"'), version = version + 1
 WHERE settings #>> '{verificationOptions,method}' = 'standardEmail';
