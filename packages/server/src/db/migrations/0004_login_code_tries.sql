-- Tries at sign-in codes are counted per address over an hour as well as per code, and asking for
-- a new code does not reset that count: guessing is bounded by time, not by how many codes one
-- can have sent (docs/decisions/0006).
ALTER TABLE idp_login_codes ADD COLUMN tries_in_window integer NOT NULL DEFAULT 0;
ALTER TABLE idp_login_codes ADD COLUMN tries_window_started_at timestamptz NOT NULL DEFAULT now();
