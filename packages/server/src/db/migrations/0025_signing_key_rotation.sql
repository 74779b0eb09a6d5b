-- Issue 22: an issuer's signing keys rotate. A key that no longer signs (rotated away, or of an
-- algorithm the issuer left) stays published in the JWKS until `retire_at` (a grace period as long
-- as the longest token lifetime plus a discovery cache period), then leaves. NULL: not retiring.
ALTER TABLE server_keys ADD COLUMN retire_at timestamptz;
