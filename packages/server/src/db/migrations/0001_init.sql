-- Console accounts (spec §3 "Account"). Emails are stored lower-cased; service accounts have none.
CREATE TABLE accounts (
  id                 text PRIMARY KEY,
  email              text UNIQUE CHECK (email = lower(email)),
  name               text NOT NULL DEFAULT '',
  is_service_account boolean NOT NULL DEFAULT false,
  active             boolean NOT NULL DEFAULT true,
  created_at         timestamptz NOT NULL DEFAULT now()
);

-- Projects (spec §3 "Project"). `settings` is the domain's ProjectSettings document; `name` mirrors
-- settings.name for ordering; `version` is the optimistic-concurrency counter sent as the ETag.
CREATE TABLE projects (
  id         text PRIMARY KEY,
  name       text NOT NULL,
  enabled    boolean NOT NULL DEFAULT true,
  email      text NOT NULL,
  settings   jsonb NOT NULL,
  issuer     jsonb,
  version    integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The project list of a global account: ORDER BY name, id.
CREATE INDEX projects_name_idx ON projects (name, id);

-- Permission strings (spec §6); project_id is the second segment of cst:{project}:{scope}.
CREATE TABLE account_permissions (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  permission text NOT NULL,
  project_id text REFERENCES projects (id) ON DELETE CASCADE,
  PRIMARY KEY (account_id, permission)
);
-- Who holds a permission on a project (accounts list of a project, visibility checks).
CREATE INDEX account_permissions_project_idx ON account_permissions (project_id, account_id);

-- Console sessions: only the SHA-256 of the opaque cookie value is stored.
CREATE TABLE sessions (
  id_hash      text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  xsrf_token   text NOT NULL,
  id_token     text,
  created_at   timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_account_idx ON sessions (account_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Sign-in attempts between GET /api/authurl and POST /api/login (docs/decisions/0003).
CREATE TABLE login_attempts (
  state           text PRIMARY KEY,
  code_verifier   text NOT NULL,
  nonce           text NOT NULL,
  redirect_url    text NOT NULL,
  next_path       text,
  browser_binding text NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX login_attempts_created_idx ON login_attempts (created_at);

-- The built-in provider's artefacts (oidc-provider adapter): one row per model instance.
CREATE TABLE oidc_payloads (
  kind        text NOT NULL,
  id          text NOT NULL,
  payload     jsonb NOT NULL,
  grant_id    text,
  user_code   text,
  uid         text,
  expires_at  timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (kind, id)
);
CREATE INDEX oidc_payloads_grant_idx ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_user_code_idx ON oidc_payloads (kind, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads (kind, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_expires_idx ON oidc_payloads (expires_at) WHERE expires_at IS NOT NULL;

-- The built-in provider's one-time sign-in codes: one live code per email, hashed; the request
-- window columns limit how many codes an address can be sent.
CREATE TABLE idp_login_codes (
  email             text PRIMARY KEY,
  interaction_uid   text NOT NULL,
  code_hash         text NOT NULL,
  created_at        timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  attempts          integer NOT NULL DEFAULT 0,
  consumed_at       timestamptz,
  window_started_at timestamptz NOT NULL,
  requests_in_window integer NOT NULL DEFAULT 1
);
CREATE INDEX idp_login_codes_interaction_idx ON idp_login_codes (interaction_uid);

-- Secrets generated once per deployment and shared by every instance (signing keys, cookie keys,
-- the console's client secret at the built-in provider).
CREATE TABLE server_keys (
  name       text PRIMARY KEY,
  value      jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Audit log (spec §3 "Audit event"); console actions are recorded here too.
CREATE TABLE audit_events (
  id           bigserial PRIMARY KEY,
  project_id   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  user_id      text,
  device_name  text,
  scope        text,
  event_status text,
  details      jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_events_project_created_idx ON audit_events (project_id, created_at DESC);
