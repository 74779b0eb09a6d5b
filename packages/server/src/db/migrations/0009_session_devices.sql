-- The revocation API (docs/decisions/0013): a provider session started with a passkey names that
-- device, so revoking the device ends the session. `device_ref` is a keyed hash of the credential id,
-- like the other reference columns; oidc_payloads gets it too so one adapter writes both tables.
ALTER TABLE project_oidc_payloads ADD COLUMN device_ref text;
ALTER TABLE oidc_payloads ADD COLUMN device_ref text;
CREATE INDEX project_oidc_payloads_device_idx ON project_oidc_payloads (project_id, kind, device_ref) WHERE device_ref IS NOT NULL;
