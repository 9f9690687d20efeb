-- Every committed change, in commit order: what the event bus publishes and what sync
-- clients and lagging subscribers catch up from by cursor (the sequence).
-- AUTOINCREMENT: a sequence is never reused, even after the newest rows are deleted,
-- so a client's cursor stays meaningful.
CREATE TABLE change_log (
    sequence     INTEGER PRIMARY KEY AUTOINCREMENT,
    topic        TEXT NOT NULL,
    kind         TEXT NOT NULL,
    payload      TEXT NOT NULL CHECK (json_valid(payload)),
    committed_at TEXT NOT NULL
) STRICT;

CREATE INDEX change_log_topic_sequence ON change_log (topic, sequence);
