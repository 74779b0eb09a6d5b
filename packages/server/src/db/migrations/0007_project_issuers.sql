-- Every project is an OpenID Connect issuer (issue 8, docs/decisions/0012). Its provider's
-- artefacts (sessions, interactions, grants, codes, tokens) live here, keyed by project first, like
-- oidc_payloads: ids are HMACs of the provider's ids, payloads are sealed under the master key and
-- bound to their row.
CREATE TABLE project_oidc_payloads (
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind        text NOT NULL,
  id          text NOT NULL,
  payload     text NOT NULL,
  grant_id    text,
  user_code   text,
  uid         text,
  account_ref text,
  expires_at  timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (project_id, kind, id)
);
CREATE INDEX project_oidc_payloads_grant_idx ON project_oidc_payloads (project_id, grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX project_oidc_payloads_user_code_idx ON project_oidc_payloads (project_id, kind, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX project_oidc_payloads_uid_idx ON project_oidc_payloads (project_id, kind, uid) WHERE uid IS NOT NULL;
CREATE INDEX project_oidc_payloads_account_idx ON project_oidc_payloads (project_id, kind, account_ref) WHERE account_ref IS NOT NULL;
CREATE INDEX project_oidc_payloads_expires_idx ON project_oidc_payloads (expires_at) WHERE expires_at IS NOT NULL;

-- A project's end users: `id` is the stable `sub` at the project's issuer (random, so it survives a
-- master-key rotation and tells nothing about the address). Devices hang off it in a later slice.
CREATE TABLE project_users (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  id         text NOT NULL,
  email      text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, id),
  UNIQUE (project_id, email)
);
