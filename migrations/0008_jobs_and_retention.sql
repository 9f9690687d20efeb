-- The durable job scheduler and data retention (issue 13).
--
-- Every timed or background piece of work is a row of `jobs`, written in the transaction of
-- the change it belongs to and run by the scheduler (JobScheduler in HearthServices), which
-- leases due rows, retries failures with backoff and gives up after a number of attempts.
-- A worker that dies leaves its rows 'running' until their lease expires; they then run
-- again, so handlers are idempotent.
CREATE TABLE jobs (
    -- AUTOINCREMENT: an id is never reused, so `hearth jobs show ID` never shows another job.
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Which handler runs it, a dotted name such as 'mail.deliver'.
    kind             TEXT NOT NULL,
    -- The handler's input.
    payload          TEXT NOT NULL CHECK (json_valid(payload)),
    -- Enqueueing the same key of the same kind again adds nothing (NULL keys never collide).
    dedupe_key       TEXT,
    state            TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'dead')),
    due_at           TEXT NOT NULL,
    -- Attempts begun, counted when a worker leases the job.
    attempts         INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    lease_owner      TEXT,
    lease_expires_at TEXT,
    last_error       TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (kind, dedupe_key),
    -- A lease exactly while running.
    CHECK ((state = 'running') = (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL))
) STRICT;

-- The scheduler's questions: what is due, earliest first; which leases expired.
CREATE INDEX jobs_due ON jobs (due_at) WHERE state = 'pending';
CREATE INDEX jobs_leases ON jobs (lease_expires_at) WHERE state = 'running';
-- The metrics' question (unfinished jobs by kind) and retention's (finished jobs by age).
CREATE INDEX jobs_unfinished ON jobs (kind) WHERE state <> 'done';
CREATE INDEX jobs_finished ON jobs (updated_at) WHERE state IN ('done', 'dead');

-- The mail delivery worker is now a job kind: one 'mail.deliver' job per outbox message.
-- Messages still pending when this runs get theirs, due when their next attempt was, with
-- the attempts they already had.
INSERT INTO jobs (kind, payload, dedupe_key, due_at, attempts, created_at, updated_at)
SELECT 'mail.deliver', json_object('outboxID', id), CAST(id AS TEXT), next_attempt_at, attempts, created_at, next_attempt_at
FROM mail_outbox WHERE status = 'pending';
DROP INDEX mail_outbox_due;

-- Retention: the change log's horizon is a contract. `pruned_through` is the highest
-- sequence retention has deleted: a client whose cursor is below it may have missed changes
-- and gets CURSOR_EXPIRED. (Heartbeats that a newer heartbeat replaces are deleted without
-- moving it: no client needs them.)
CREATE TABLE change_log_retention (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    pruned_through INTEGER NOT NULL DEFAULT 0
) STRICT;
INSERT INTO change_log_retention (id, pruned_through) VALUES (1, 0);

-- What retention deletes by age, found without scanning the tables.
CREATE INDEX change_log_committed ON change_log (committed_at);
CREATE INDEX mail_outbox_created ON mail_outbox (created_at);
CREATE INDEX mail_outbox_link ON mail_outbox (link_id) WHERE link_id IS NOT NULL;
CREATE INDEX sessions_refresh_expiry ON sessions (refresh_expires_at);
CREATE INDEX sessions_revoked ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;
CREATE INDEX email_tokens_expiry ON email_tokens (expires_at);
CREATE INDEX analytics_events_occurred ON analytics_events (occurred_at);
