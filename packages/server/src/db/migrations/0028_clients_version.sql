-- Issue 22, SQL per sign-in: every instance keeps the clients it looked up (provider/client-cache.ts)
-- for as long as this number is unchanged. Every write to a project's applications or their keys
-- raises it in the write's transaction (lockProjectForAppWrite), and the issuer reads it with the
-- project's version at each request: a change made through any instance holds at the next request.
ALTER TABLE projects ADD COLUMN clients_version integer NOT NULL DEFAULT 0;
