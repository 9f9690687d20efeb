-- The calendar (issue 18): a user's own availability events (FR-64), busy or free time such as
-- classes, work shifts or appointments, shown in the `calendar` query (FR-59) and marking
-- occupied time. They belong to a user, not a household.
--
-- An event is timed (`starts_at` and `ends_at`, instants, `all_day` = 0) or all-day (`starts_on`
-- and `ends_on`, calendar days YYYY-MM-DD in `time_zone`, inclusive, `all_day` = 1); exactly one
-- pair is set. `time_zone` is the IANA zone whose wall clock a recurrence keeps (the owner's when
-- the event was made, unless they named one). `recurrence` is empty for a single event, or the
-- RFC 5545 RRULE line and any EXDATE lines in canonical form (LF-separated); DTSTART is always
-- the event's start, so it is not stored twice. `availability` is 'busy' or 'free'. `sequence`
-- counts the edits (RFC 5545 SEQUENCE for calendar exports).
CREATE TABLE availability_events (
    id            TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    user_id       TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title         TEXT COLLATE "C" NOT NULL,
    availability  TEXT COLLATE "C" NOT NULL DEFAULT 'busy' CHECK (availability IN ('busy', 'free')),
    all_day       BIGINT NOT NULL CHECK (all_day IN (0, 1)),
    starts_at     TEXT COLLATE "C",
    ends_at       TEXT COLLATE "C",
    starts_on     TEXT COLLATE "C",
    ends_on       TEXT COLLATE "C",
    time_zone     TEXT COLLATE "C" NOT NULL,
    recurrence    TEXT COLLATE "C" NOT NULL DEFAULT '',
    sequence      BIGINT NOT NULL DEFAULT 0 CHECK (sequence >= 0),
    created_at    TEXT COLLATE "C" NOT NULL,
    updated_at    TEXT COLLATE "C" NOT NULL,
    CHECK ((all_day = 0 AND starts_at IS NOT NULL AND ends_at IS NOT NULL AND starts_on IS NULL AND ends_on IS NULL)
        OR (all_day = 1 AND starts_on IS NOT NULL AND ends_on IS NOT NULL AND starts_at IS NULL AND ends_at IS NULL))
);

CREATE INDEX availability_events_user ON availability_events (user_id, created_at, id);

-- A user's private calendar feed (FR-60): at most one per user, served without other
-- authentication at /calendar/<token>.ics to whoever holds the secret token. Only the token's
-- SHA-256 (hex) is kept, so a copy of the database opens no feed; making a new feed replaces the
-- token (the old URL stops working), revoking deletes the row. `includes_availability` says
-- whether the user's availability events are in it besides their personal chores.
CREATE TABLE calendar_feeds (
    user_id               TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash            TEXT COLLATE "C" NOT NULL UNIQUE,
    includes_availability BIGINT NOT NULL CHECK (includes_availability IN (0, 1)),
    created_at            TEXT COLLATE "C" NOT NULL
);
