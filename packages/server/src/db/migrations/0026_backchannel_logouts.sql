-- Issue 22: Back-Channel Logout 1.0. A person's session at a project's issuer ended (they logged out,
-- or an administrator revoked the passkey that started it): each application of that session with a
-- back-channel logout URI is told so by a signed logout token. The ending writes one row per
-- application here, in its own transaction; any instance delivers it (claiming due rows with SKIP
-- LOCKED for a lease), retrying a bounded number of times. A row goes when delivered or given up.
-- Nothing here is a secret: the logout token is signed at each attempt from these claims.
CREATE TABLE backchannel_logouts (
  project_id      text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  id              text NOT NULL,
  client_id       text NOT NULL,
  -- The logout token's claims: the account (sub), the session at this client (sid), its jti (the
  -- same at every attempt, so the application can tell a retry from a new logout).
  sub             text NOT NULL,
  sid             text,
  jti             text NOT NULL,
  -- Why the session ended: 'logout' (RP-initiated logout at the issuer), 'device_revoked'.
  cause           text NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  created_at      timestamptz NOT NULL,
  PRIMARY KEY (project_id, id)
);
CREATE INDEX backchannel_logouts_due_idx ON backchannel_logouts (next_attempt_at);
