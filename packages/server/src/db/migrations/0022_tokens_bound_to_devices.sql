-- Issue 22: refresh tokens outlive the provider session that began them (offline_access), so a
-- device's revocation finds every artefact it started by its own `device_ref` (codes, tokens,
-- refresh tokens carry their session's), not only through sessions: the index leads by the issuer
-- and the device, whatever the kind.
DROP INDEX oidc_payloads_device_idx;
CREATE INDEX oidc_payloads_device_idx ON oidc_payloads (issuer, device_ref) WHERE device_ref IS NOT NULL;
