-- Issue 35, "One outbox" (docs/decisions/0045): back-channel logout notices and webhook messages are
-- messages of one outbox, delivered by one deliverer (outbox/outbox.ts); each feature declares its
-- kind (how a message is sent, its retries, what its settling writes).
CREATE TABLE outbox_messages (
  project_id      text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- 'backchannel_logout' (people/backchannel-logouts.ts) or 'webhook' (modules/webhooks/webhook-delivery.ts).
  kind            text NOT NULL,
  -- Who it goes to: the application's client id, the webhook endpoint's id. A kind sent in order
  -- (webhooks) sends each recipient's messages oldest first, one at a time.
  recipient       text NOT NULL,
  -- A notice's random id; the webhook-id header (msg_ and the audit event's id: the same for
  -- every endpoint of the event, so the key holds the recipient).
  id              text NOT NULL,
  -- Whom it is about, in its kind's terms: the account (sub) a notice names; the identity a
  -- webhook's event names (erasure forgets those messages).
  subject         text,
  -- What it says in a word: why the session ended; the webhook's event type.
  topic           text NOT NULL,
  -- What each attempt is built from: a notice's session ({"sid": …}, nothing secret: the logout
  -- token is signed at each attempt); a webhook's body exactly as signed and sent.
  payload         text NOT NULL,
  created_at      timestamptz NOT NULL,
  status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  -- Due then (or its claim's lease ends then); null once delivered or given up.
  next_attempt_at timestamptz,
  last_status     integer,
  last_ms         integer,
  last_reason     text,
  delivered_at    timestamptz,
  PRIMARY KEY (project_id, kind, recipient, id)
);
-- A kind's due messages (claimed for a lease).
CREATE INDEX outbox_messages_due_idx ON outbox_messages (kind, next_attempt_at) WHERE status = 'pending';
-- Each recipient's pending messages in order: its oldest is the next sent (a kind sent in order).
CREATE INDEX outbox_messages_order_idx ON outbox_messages (kind, project_id, recipient, created_at, id) WHERE status = 'pending';
-- A recipient's messages newest first (the webhooks' delivery log), and the log's retention.
CREATE INDEX outbox_messages_log_idx ON outbox_messages (project_id, kind, recipient, created_at DESC, id DESC);
CREATE INDEX outbox_messages_done_idx ON outbox_messages (kind, created_at) WHERE status <> 'pending';
-- A person's messages: erasure; the pending notices per application and account (their bound).
CREATE INDEX outbox_messages_subject_idx ON outbox_messages (project_id, subject, kind, recipient) WHERE subject IS NOT NULL;

-- What the previous version queued and no instance holds now (due: not under a claim's lease) moves
-- here, its attempts and schedule kept. What an instance of the previous version holds, or waits
-- for its next attempt, stays until it is due; then this version's deliverer moves it the same way
-- (each kind's `previous`), as it moves whatever the previous version still queues during the
-- rollover. Delivered or given-up webhook messages stay where they are: the previous version's
-- delivery log reads them, and this version's reads both tables (a week, then pruned). The two
-- tables are dropped by a later version (docs/decisions/0045).
WITH moved AS (DELETE FROM backchannel_logouts WHERE next_attempt_at <= now() RETURNING *)
INSERT INTO outbox_messages (project_id, kind, recipient, id, subject, topic, payload, created_at, status, attempts, next_attempt_at)
SELECT project_id, 'backchannel_logout', client_id, id, sub, cause, json_build_object('sid', sid)::text, created_at, 'pending', attempts, next_attempt_at
  FROM moved;

WITH moved AS (DELETE FROM webhook_messages WHERE status = 'pending' AND next_attempt_at <= now() RETURNING *)
INSERT INTO outbox_messages (project_id, kind, recipient, id, subject, topic, payload, created_at, status, attempts, next_attempt_at,
                             last_status, last_ms, last_reason, delivered_at)
SELECT project_id, 'webhook', endpoint_id, id, subject, event_type, payload, created_at, status, attempts, next_attempt_at,
       last_status, last_ms, last_reason, delivered_at
  FROM moved;
