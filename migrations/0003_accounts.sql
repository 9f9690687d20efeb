-- Accounts, their sign-in methods, sessions and emailed one-time tokens (issue 5).
-- Ids are opaque text (UUIDv7). Secrets are never stored: passwords as scrypt PHC
-- strings, refresh tokens and emailed tokens as SHA-256 digests.

CREATE TABLE users (
    id                 TEXT PRIMARY KEY NOT NULL,
    username           TEXT NOT NULL,
    -- Lowercased: usernames and addresses are unique regardless of case.
    username_key       TEXT NOT NULL UNIQUE,
    email              TEXT NOT NULL,
    email_key          TEXT NOT NULL UNIQUE,
    email_confirmed_at TEXT,
    -- NULL for accounts that sign in only through Google or Apple.
    password_hash      TEXT,
    display_name       TEXT NOT NULL,
    avatar_id          TEXT REFERENCES avatars (id) ON DELETE SET NULL,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
) STRICT;

-- Profile pictures, checked by content on upload; served by id with the digest as ETag.
CREATE TABLE avatars (
    id           TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL,
    media_type   TEXT NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg', 'image/webp')),
    width        INTEGER NOT NULL CHECK (width > 0),
    height       INTEGER NOT NULL CHECK (height > 0),
    sha256       TEXT NOT NULL,
    bytes        BLOB NOT NULL,
    created_at   TEXT NOT NULL
) STRICT;

CREATE INDEX avatars_user ON avatars (user_id);

-- Google and Apple identities linked to an account: the provider's stable subject id.
CREATE TABLE provider_identities (
    provider   TEXT NOT NULL CHECK (provider IN ('google', 'apple')),
    subject    TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      TEXT,
    linked_at  TEXT NOT NULL,
    PRIMARY KEY (provider, subject),
    -- One identity per provider per account.
    UNIQUE (user_id, provider)
) STRICT;

-- Single-use tokens sent by email: address confirmation, password reset, email change.
CREATE TABLE email_tokens (
    token_hash BLOB PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('confirm_email', 'reset_password', 'change_email')),
    -- The address the token was sent to: the one it confirms.
    email      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT
) STRICT;

CREATE INDEX email_tokens_user ON email_tokens (user_id, purpose);

-- One row per signed-in device. The refresh token rotates on every use; `generation`
-- counts rotations and is carried by access tokens, so an access token issued before the
-- latest rotation no longer authenticates.
CREATE TABLE sessions (
    id                    TEXT PRIMARY KEY NOT NULL,
    user_id               TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_label          TEXT,
    generation            INTEGER NOT NULL DEFAULT 1,
    refresh_token_hash    BLOB NOT NULL UNIQUE,
    refresh_expires_at    TEXT NOT NULL,
    -- The token spent by the latest rotation, honoured once more within a short grace
    -- period so a client whose refresh response was lost can retry.
    previous_token_hash   BLOB,
    rotated_at            TEXT,
    created_at            TEXT NOT NULL,
    last_used_at          TEXT NOT NULL,
    -- The absolute end of the session, whatever the rotations.
    expires_at            TEXT NOT NULL,
    revoked_at            TEXT,
    revoked_reason        TEXT
) STRICT;

CREATE INDEX sessions_user ON sessions (user_id, revoked_at);

-- Every refresh token a session has spent: presenting one again is token theft (or a
-- badly broken client), and revokes the session.
CREATE TABLE spent_refresh_tokens (
    token_hash BLOB PRIMARY KEY NOT NULL,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE
) STRICT;

CREATE INDEX spent_refresh_tokens_session ON spent_refresh_tokens (session_id);
