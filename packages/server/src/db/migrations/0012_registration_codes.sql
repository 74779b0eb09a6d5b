-- QuickCode (spec §3 enableRegistrationCode, limitRegCodeVerified; docs/decisions/0017): a user
-- signed in with a passkey issues a short one-time code that lets another device of theirs register
-- a passkey without verifying their identity again. One live code per user (a new one replaces it);
-- only its keyed hash is kept, bound to the project and the user.
CREATE TABLE registration_codes (
  project_id  text NOT NULL,
  user_id     text NOT NULL,
  code_hash   text NOT NULL,
  issued_by   text NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  used_at     timestamptz,
  PRIMARY KEY (project_id, user_id),
  FOREIGN KEY (project_id, user_id) REFERENCES project_users (project_id, id) ON DELETE CASCADE
);
CREATE INDEX registration_codes_expires_idx ON registration_codes (expires_at);

-- How a device's owner proved who they were when it was registered: `email_code` (every device
-- so far), `reg_code` (a QuickCode), and the other verification methods as they come.
ALTER TABLE devices ADD COLUMN registered_with text NOT NULL DEFAULT 'email_code';
