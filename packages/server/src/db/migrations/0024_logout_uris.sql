-- Issue 22: an application's logout registration beside its redirect URIs. RP-Initiated Logout 1.0:
-- where the application may send its user after signing them out (matched exactly); Back-Channel
-- Logout 1.0: where the issuer posts a logout token when the user's session ends (none: not sent).
ALTER TABLE application_keys ADD COLUMN post_logout_redirect_uris text[] NOT NULL DEFAULT '{}';
ALTER TABLE application_keys ADD COLUMN backchannel_logout_uri text;
