-- Google Calendar connections (issue 18, FR-62). Secrets (the refresh and access tokens, the PKCE
-- verifier) are stored only sealed: AES-256-GCM under keys/secrets.key, as text "v1.<nonce>.<sealed>"
-- (SecretSealer), so a copy of the database alone reveals none of them.

-- One connection per user: the account Google authorised, its sealed tokens and whether it still
-- works ('active', or 'revoked' once Google answered invalid_grant: the user must connect again).
-- export_calendar_id is the Google calendar chores are exported to (NULL: no export);
-- export_household_chores whether household chores assigned to the user go there too.
CREATE TABLE google_connections (
    id TEXT COLLATE "C" PRIMARY KEY,
    user_id TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    status TEXT COLLATE "C" NOT NULL CHECK (status IN ('active', 'revoked')),
    refresh_token TEXT COLLATE "C" NOT NULL,
    access_token TEXT COLLATE "C",
    access_token_expires_at TEXT COLLATE "C",
    scope TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL,
    last_error TEXT COLLATE "C",
    export_calendar_id TEXT COLLATE "C",
    export_household_chores BIGINT NOT NULL DEFAULT 0,
    next_export_at TEXT COLLATE "C"
);

-- A connection begun and not yet completed: the SHA-256 of its state (the state itself travels
-- only in the authorization URL), the sealed PKCE verifier, and when it expires. Single use: a
-- completion deletes it first.
CREATE TABLE google_authorizations (
    state_hash TEXT COLLATE "C" PRIMARY KEY,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    verifier TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    expires_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX google_authorizations_user ON google_authorizations (user_id, expires_at);
CREATE INDEX google_authorizations_expiry ON google_authorizations (expires_at);

-- A selected Google calendar is an imported calendar (its events stored and read as any other's):
-- google_calendar_id names it at Google (NULL for files and feeds), google_sync_token is the
-- nextSyncToken of its last sync (NULL: the next sync lists everything), next_sync_at when its one
-- scheduled sync is due. last_refreshed_at, last_refresh_error and refresh_failures (0037) record its
-- syncs as they record a feed's refreshes.
ALTER TABLE imported_calendars ADD COLUMN google_calendar_id TEXT COLLATE "C";
ALTER TABLE imported_calendars ADD COLUMN google_sync_token TEXT COLLATE "C";
ALTER TABLE imported_calendars ADD COLUMN next_sync_at TEXT COLLATE "C";
CREATE UNIQUE INDEX imported_calendars_google ON imported_calendars (user_id, google_calendar_id);

-- The chore events exported to a user's Google calendar, by the event id Hearth chose for them
-- (base32hex of the chore id), so a chore gone is deleted there and a changed one updated.
CREATE TABLE google_exported_events (
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    calendar_id TEXT COLLATE "C" NOT NULL,
    event_id TEXT COLLATE "C" NOT NULL,
    content_hash TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (user_id, calendar_id, event_id)
);
