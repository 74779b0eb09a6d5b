-- Issue 38: a code or token row names the provider session it came from (the keyed hash of the
-- session's uid, as that session's own `uid` column holds it), so the token endpoint reads the
-- session the code depends on in the statement that reads the code (payloads.repository.ts) instead
-- of a statement of its own. Null for rows stored before, and for sessions and interactions.
ALTER TABLE oidc_payloads ADD COLUMN session_ref text;
