-- Outgoing email. A row is written in the same transaction as the change that causes it
-- (an account and its confirmation email commit together, or neither does) and delivered
-- afterwards by the mail delivery worker, which retries transient failures with backoff.
-- Rows stay after delivery as the record `hearth mail list` and `hearth mail show` read.
CREATE TABLE mail_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The Message-ID header, fixed at enqueue time so every attempt sends the same message.
    message_id      TEXT NOT NULL UNIQUE,
    -- JSON array of recipient addresses.
    recipients      TEXT NOT NULL CHECK (json_valid(recipients) AND json_array_length(recipients) > 0),
    subject         TEXT NOT NULL,
    text_body       TEXT NOT NULL,
    html_body       TEXT,
    created_at      TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at TEXT NOT NULL,
    last_error      TEXT,
    sent_at         TEXT,
    -- Which transport delivered it: 'smtp', or 'log' for the development transport.
    transport       TEXT
) STRICT;

-- The worker's question: which pending messages are due, earliest first.
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
