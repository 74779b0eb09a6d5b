-- Application keys are their own resource with their own version, sent as the ETag of
-- GET {keysEndpoint} and checked against If-Match by PUT {keysEndpoint} and
-- POST {generateNewKeysEndpoint} (docs/decisions/0007), so two administrators editing redirect URIs
-- cannot silently lose one edit.
ALTER TABLE application_keys ADD COLUMN version integer NOT NULL DEFAULT 1;

-- Who created a project: an account without a global permission may create at most
-- PROJECTS_PER_ACCOUNT of them. Projects created before this are attributed to no one.
ALTER TABLE projects ADD COLUMN created_by text REFERENCES accounts (id) ON DELETE SET NULL;
CREATE INDEX projects_created_by_idx ON projects (created_by) WHERE created_by IS NOT NULL;
