-- Firebase Cloud Messaging for the native apps (issue 18): the registration tokens the apps
-- registered, and the messages waiting for delivery to them through FCM's HTTP v1 API.

-- An app's FCM registration token. Its id shares the `psh_` prefix of push subscriptions: the
-- API lists both as the user's push subscriptions, and the per-user limit counts both. One row
-- per user and token: registering a token again answers the same row.
CREATE TABLE fcm_registrations (
    id           TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token        TEXT NOT NULL,
    device_name  TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (user_id, token)
) STRICT;

-- An FCM message waiting for delivery (one `push.fcm` job each): its `data` (a JSON object of
-- strings), the collapse key that lets a newer message with the same key replace it (here and
-- at FCM: `android.collapse_key`, `apns-collapse-id`), its TTL in seconds and its urgency. The
-- row goes when the message is delivered, replaced, given up or its registration removed.
CREATE TABLE fcm_messages (
    id               INTEGER PRIMARY KEY,
    registration_id  TEXT NOT NULL REFERENCES fcm_registrations (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    data             TEXT NOT NULL,
    collapse_key     TEXT,
    ttl_seconds      INTEGER NOT NULL CHECK (ttl_seconds >= 0),
    urgency          TEXT NOT NULL CHECK (urgency IN ('very-low', 'low', 'normal', 'high')),
    created_at       TEXT NOT NULL
) STRICT;

CREATE INDEX fcm_messages_collapse_key ON fcm_messages (registration_id, collapse_key);
