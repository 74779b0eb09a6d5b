-- Issue 8, slice 2 (docs/decisions/0013): a project's end user signs in with a passkey. A device is
-- one WebAuthn credential: `id` is its credential id (base64url), the spec's mpinId. Keyed by
-- project first like every data-plane table, so a credential of one project is never found at
-- another. `public_key` is the COSE key (base64url): public, so not sealed.
CREATE TABLE devices (
  project_id    text NOT NULL,
  id            text NOT NULL,
  user_id       text NOT NULL,
  public_key    text NOT NULL,
  counter       bigint NOT NULL DEFAULT 0,
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL,
  ip            text,
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz,
  revoked       boolean NOT NULL DEFAULT false,
  revoked_at    timestamptz,
  revoke_reason text,
  PRIMARY KEY (project_id, id),
  FOREIGN KEY (project_id, user_id) REFERENCES project_users (project_id, id) ON DELETE CASCADE
);
-- A user's credentials, asked for at every passkey sign-in (allowCredentials).
CREATE INDEX devices_user_idx ON devices (project_id, user_id);
