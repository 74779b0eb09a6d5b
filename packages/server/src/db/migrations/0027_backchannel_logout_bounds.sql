-- Issue 22, review of Back-Channel Logout (docs/decisions/0029): each attempt signs a token with a
-- new jti (RFC 7519 §4.1.7: unique per token; an application may refuse one it has seen), so the
-- notice keeps none. The column stays, nullable, while a previous version may still run beside this
-- one (an upgrade under way writes it); a later migration drops it. Pending notices per application
-- and account are bounded when queued (one sign-in cannot queue without end by repeated partial
-- logouts): this index counts them.
ALTER TABLE backchannel_logouts ALTER COLUMN jti DROP NOT NULL;
CREATE INDEX backchannel_logouts_pending_idx ON backchannel_logouts (project_id, client_id, sub);
