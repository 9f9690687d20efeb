-- Web Push (issue 18): the browsers and UnifiedPush distributors a user registered to receive
-- notifications (RFC 8030 endpoints with their RFC 8291 keys), and the pushes waiting for
-- delivery to them.

-- A push subscription: the endpoint URL the push service gave the browser, the browser's P-256
-- public key (`p256dh`, 65 bytes, base64url) and authentication secret (`auth`, 16 bytes,
-- base64url). One row per user and endpoint: registering an endpoint again replaces its keys.
CREATE TABLE push_subscriptions (
    id           TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint     TEXT NOT NULL,
    p256dh       TEXT NOT NULL,
    auth         TEXT NOT NULL,
    device_name  TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (user_id, endpoint)
) STRICT;

-- A push waiting for delivery (one `push.deliver` job each): its plaintext payload (encrypted
-- afresh on each attempt), the Topic that lets a newer push with the same topic replace it,
-- its TTL in seconds and its Urgency. The row goes when the push is delivered, replaced, given up
-- or its subscription removed; what happened is in the job's row and the log.
CREATE TABLE push_messages (
    id               INTEGER PRIMARY KEY,
    subscription_id  TEXT NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    payload          TEXT NOT NULL,
    topic            TEXT,
    ttl_seconds      INTEGER NOT NULL CHECK (ttl_seconds >= 0),
    urgency          TEXT NOT NULL CHECK (urgency IN ('very-low', 'low', 'normal', 'high')),
    created_at       TEXT NOT NULL
) STRICT;

CREATE INDEX push_messages_topic ON push_messages (subscription_id, topic);
