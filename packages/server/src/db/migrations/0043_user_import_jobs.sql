-- Issue 37 "Migration" (docs/decisions/0052, amended): an import is a job that can be left. The
-- upload only stores the file, in chunks, in the database (instances share no disk); a worker on
-- any instance imports it a chunk at a time, each chunk one transaction that writes its people,
-- records the progress and deletes the chunk, so a job resumes after its last committed chunk.
--
-- total:       the file's lines (a CSV's header and blank lines not counted), once it is stored whole.
-- csv_header:  a CSV file's header, read at upload: the chunks hold the lines after it.
-- actor:       who started it (account, address, how they called, from where), for the audit event
--              written when the job ends, on whichever instance that is.
-- lease_until: while `uploading`, the upload's (renewed as the file arrives; past it, the upload was
--              cut off and the job fails); while `running`, its worker's (renewed with each chunk;
--              past it, any instance resumes the job). lease_holder names the worker's claim.
ALTER TABLE user_imports ADD COLUMN total integer;
ALTER TABLE user_imports ADD COLUMN csv_header text[];
ALTER TABLE user_imports ADD COLUMN actor jsonb;
ALTER TABLE user_imports ADD COLUMN lease_until timestamptz;
ALTER TABLE user_imports ADD COLUMN lease_holder text;
-- What the workers look for each round: the few jobs not finished, oldest first.
CREATE INDEX user_imports_due_idx ON user_imports (lease_until) WHERE status IN ('uploading', 'queued', 'running');

-- An import that ran in its upload (the version before) and was cut off by this restart: failed, as
-- the previous version would have read it; what it wrote stays. (No lease: no worker takes it.)
UPDATE user_imports
   SET status = 'failed',
       failure = 'stopped: the server stopped while importing; the lines before were imported, import the file again',
       finished_at = updated_at
 WHERE status = 'running';

-- A stored file waiting for its worker: about a thousand lines (at most about 1 MiB) a chunk, in order.
-- first_line: the number in the file of the chunk's first line (blank lines keep their numbers);
-- too_long: numbers of its lines longer than IMPORT_LINE_MAX_BYTES, kept as empty lines (refused).
CREATE TABLE user_import_chunks (
  project_id text NOT NULL,
  import_id  text NOT NULL,
  seq        integer NOT NULL,
  first_line integer NOT NULL,
  body       text NOT NULL,
  too_long   integer[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (project_id, import_id, seq),
  FOREIGN KEY (project_id, import_id) REFERENCES user_imports (project_id, id) ON DELETE CASCADE
);
