-- Issue 24, webhooks (docs/decisions/0039): a project's endpoints, and an outbox of the messages
-- each is sent, written in the same statement as the audit event they tell of.

CREATE TABLE webhook_endpoints (
  project_id      text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  id              text NOT NULL,
  url             text NOT NULL,
  event_types     text[] NOT NULL,
  enabled         boolean NOT NULL,
  description     text NOT NULL DEFAULT '',
  -- whsec_… (Standard Webhooks), sealed under the master key: a copy of the database cannot sign.
  secret_sealed   text NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  failing_since   timestamptz,
  disabled_reason text,
  -- The ETag: raised by every change an administrator saves (docs/decisions/0007).
  version         integer NOT NULL DEFAULT 1,
  PRIMARY KEY (project_id, id)
);

CREATE TABLE webhook_messages (
  project_id      text NOT NULL,
  endpoint_id     text NOT NULL,
  -- The webhook-id header: msg_ and the audit event's id (the receiver's idempotency key).
  id              text NOT NULL,
  event_type      text NOT NULL,
  -- The body exactly as sent and signed.
  payload         text NOT NULL,
  -- The end user the event names (their identity), so erasure finds their messages.
  subject         text,
  created_at      timestamptz NOT NULL,
  status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_status     integer,
  last_ms         integer,
  last_reason     text,
  delivered_at    timestamptz,
  PRIMARY KEY (project_id, endpoint_id, id),
  FOREIGN KEY (project_id, endpoint_id) REFERENCES webhook_endpoints (project_id, id) ON DELETE CASCADE
);
-- Each endpoint's messages in order: its oldest pending one is the next sent (delivery in order).
CREATE INDEX webhook_messages_pending_idx ON webhook_messages (project_id, endpoint_id, created_at, id) WHERE status = 'pending';
-- The delivery log, newest first; and the week's retention.
CREATE INDEX webhook_messages_log_idx ON webhook_messages (project_id, endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_messages_done_idx ON webhook_messages (created_at) WHERE status <> 'pending';
CREATE INDEX webhook_messages_subject_idx ON webhook_messages (project_id, subject) WHERE subject IS NOT NULL;
