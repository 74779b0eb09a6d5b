-- The console's sign-in passkey first (docs/decisions/0048).
--
-- The console's issuer shares PUBLIC_URL's host as its WebAuthn relying party with every project on
-- the shared path (/p/{project}), so its discoverable request may be answered with an end user's
-- passkey. Before telling the browser a credential is unknown (the Signal API makes it forget the
-- passkey), the server asks whether any project holds that credential id: devices' key is
-- (project_id, id), so this index serves the lookup by id alone.
CREATE INDEX devices_credential_idx ON devices (id);
