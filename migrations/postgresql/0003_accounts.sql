-- Accounts, their sign-in methods, sessions and emailed one-time tokens (issue 5).
-- Ids are opaque text (UUIDv7). Secrets are never stored: passwords as scrypt PHC
-- strings, refresh tokens and emailed tokens as SHA-256 digests.

-- Profile pictures (created before `users`, whose avatar_id refers to them: PostgreSQL resolves
-- a foreign key when it is declared), checked by content on upload; served by id with the digest as ETag.
CREATE TABLE avatars (
    id           TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    user_id      TEXT COLLATE "C" NOT NULL,
    media_type   TEXT COLLATE "C" NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg', 'image/webp')),
    width        BIGINT NOT NULL CHECK (width > 0),
    height       BIGINT NOT NULL CHECK (height > 0),
    sha256       TEXT COLLATE "C" NOT NULL,
    bytes        BYTEA NOT NULL,
    created_at   TEXT COLLATE "C" NOT NULL
);

CREATE INDEX avatars_user ON avatars (user_id);

CREATE TABLE users (
    id                 TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    username           TEXT COLLATE "C" NOT NULL,
    -- Lowercased: usernames and addresses are unique regardless of case.
    username_key       TEXT COLLATE "C" NOT NULL UNIQUE,
    email              TEXT COLLATE "C" NOT NULL,
    email_key          TEXT COLLATE "C" NOT NULL UNIQUE,
    email_confirmed_at TEXT COLLATE "C",
    -- NULL for accounts that sign in only through Google or Apple.
    password_hash      TEXT COLLATE "C",
    display_name       TEXT COLLATE "C" NOT NULL,
    avatar_id          TEXT COLLATE "C" REFERENCES avatars (id) ON DELETE SET NULL,
    created_at         TEXT COLLATE "C" NOT NULL,
    updated_at         TEXT COLLATE "C" NOT NULL
);

-- Google and Apple identities linked to an account: the provider's stable subject id.
CREATE TABLE provider_identities (
    provider   TEXT COLLATE "C" NOT NULL CHECK (provider IN ('google', 'apple')),
    subject    TEXT COLLATE "C" NOT NULL,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      TEXT COLLATE "C",
    linked_at  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (provider, subject),
    -- One identity per provider per account.
    UNIQUE (user_id, provider)
);

-- Single-use tokens sent by email: address confirmation, password reset, email change.
CREATE TABLE email_tokens (
    token_hash BYTEA PRIMARY KEY NOT NULL,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT COLLATE "C" NOT NULL CHECK (purpose IN ('confirm_email', 'reset_password', 'change_email')),
    -- The address the token was sent to: the one it confirms.
    email      TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    expires_at TEXT COLLATE "C" NOT NULL,
    used_at    TEXT COLLATE "C"
);

CREATE INDEX email_tokens_user ON email_tokens (user_id, purpose);

-- One row per signed-in device. The refresh token rotates on every use; `generation`
-- counts rotations and is carried by access tokens, so an access token issued before the
-- latest rotation no longer authenticates.
CREATE TABLE sessions (
    id                    TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    user_id               TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_label          TEXT COLLATE "C",
    generation            BIGINT NOT NULL DEFAULT 1,
    refresh_token_hash    BYTEA NOT NULL UNIQUE,
    refresh_expires_at    TEXT COLLATE "C" NOT NULL,
    -- The token spent by the latest rotation, honoured once more within a short grace
    -- period so a client whose refresh response was lost can retry.
    previous_token_hash   BYTEA,
    rotated_at            TEXT COLLATE "C",
    created_at            TEXT COLLATE "C" NOT NULL,
    last_used_at          TEXT COLLATE "C" NOT NULL,
    -- The absolute end of the session, whatever the rotations.
    expires_at            TEXT COLLATE "C" NOT NULL,
    revoked_at            TEXT COLLATE "C",
    revoked_reason        TEXT COLLATE "C"
);

CREATE INDEX sessions_user ON sessions (user_id, revoked_at);

-- Every refresh token a session has spent: presenting one again is token theft (or a
-- badly broken client), and revokes the session.
CREATE TABLE spent_refresh_tokens (
    token_hash BYTEA PRIMARY KEY NOT NULL,
    session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE
);

CREATE INDEX spent_refresh_tokens_session ON spent_refresh_tokens (session_id);
