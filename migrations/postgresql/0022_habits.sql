-- Habits (issue 16): a user's habits with weekly plans, the events that record doing them (with an
-- optional comment, photo and place), and following between users, which decides who sees what.
-- Habits belong to a user, not a household. Later migrations of the same issue add what each part
-- needs on top (full-text search of comments, the geohash grid's index).

-- A habit: `plan` is the weekdays it should occur as a bit set, bit 0 = Monday … bit 6 = Sunday
-- (ISO 8601 order), at least one. `starts_on` is a calendar date (YYYY-MM-DD) in the owner's time
-- zone. `visibility` is 'followers' (the default: accepted followers see it and its events) or
-- 'private' (only the owner). Title and reason are stored as given (validated in HearthDomain).
CREATE TABLE habits (
    id          TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    user_id     TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title       TEXT COLLATE "C" NOT NULL,
    reason      TEXT COLLATE "C" NOT NULL DEFAULT '',
    starts_on   TEXT COLLATE "C" NOT NULL,
    plan        BIGINT NOT NULL CHECK (plan BETWEEN 1 AND 127),
    visibility  TEXT COLLATE "C" NOT NULL DEFAULT 'followers' CHECK (visibility IN ('followers', 'private')),
    created_at  TEXT COLLATE "C" NOT NULL,
    updated_at  TEXT COLLATE "C" NOT NULL
);

CREATE INDEX habits_user ON habits (user_id, created_at, id);

-- A photo of a habit event, checked by content on upload (JPEG, PNG or WebP) and under 65,536
-- bytes as stored (US 02.07); served by id with the digest as ETag, to whoever may see its event.
CREATE TABLE habit_photos (
    id           TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    user_id      TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    media_type   TEXT COLLATE "C" NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg', 'image/webp')),
    width        BIGINT NOT NULL CHECK (width > 0),
    height       BIGINT NOT NULL CHECK (height > 0),
    sha256       TEXT COLLATE "C" NOT NULL,
    bytes        BYTEA NOT NULL CHECK (length(bytes) < 65536),
    created_at   TEXT COLLATE "C" NOT NULL
);

CREATE INDEX habit_photos_user ON habit_photos (user_id);

-- One doing of a habit. `user_id` repeats the habit's owner so history, the following feed and the
-- "within 5 km" query read one table. `occurred_on` is the owner's local calendar day it counts
-- for; `recorded_at` the instant it was recorded (orders events of one day, newest first).
-- A located event has latitude, longitude (degrees, WGS 84) and its geohash (the grid index's key,
-- at `Geohash.storedPrecision` characters); `accuracy_meters` is the device's reported accuracy.
CREATE TABLE habit_events (
    id               TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    habit_id         TEXT COLLATE "C" NOT NULL REFERENCES habits (id) ON DELETE CASCADE,
    user_id          TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    occurred_on      TEXT COLLATE "C" NOT NULL,
    recorded_at      TEXT COLLATE "C" NOT NULL,
    comment          TEXT COLLATE "C" NOT NULL DEFAULT '',
    photo_id         TEXT COLLATE "C" REFERENCES habit_photos (id) ON DELETE SET NULL,
    latitude         DOUBLE PRECISION CHECK (latitude BETWEEN -90 AND 90),
    longitude        DOUBLE PRECISION CHECK (longitude BETWEEN -180 AND 180),
    accuracy_meters  DOUBLE PRECISION CHECK (accuracy_meters >= 0),
    geohash          TEXT COLLATE "C",
    created_at       TEXT COLLATE "C" NOT NULL,
    updated_at       TEXT COLLATE "C" NOT NULL,
    CHECK ((latitude IS NULL) = (longitude IS NULL)),
    CHECK ((latitude IS NULL) = (geohash IS NULL)),
    CHECK (latitude IS NOT NULL OR accuracy_meters IS NULL)
);

-- A habit's events by day (adherence, "done today"), and a user's history newest first.
CREATE INDEX habit_events_habit ON habit_events (habit_id, occurred_on);
CREATE INDEX habit_events_user ON habit_events (user_id, occurred_on, recorded_at, id);

-- Following (US 05): `follower_id` asked to follow `followed_id`. 'requested' until the followed
-- user accepts ('accepted', with `accepted_at`); declining, unfollowing and removing a follower
-- delete the row, so a new request can be made later. Only an accepted follow lets the follower
-- see the followed user's non-private habits and their events (HabitAudience).
CREATE TABLE follows (
    id            TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    follower_id   TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    followed_id   TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status        TEXT COLLATE "C" NOT NULL CHECK (status IN ('requested', 'accepted')),
    requested_at  TEXT COLLATE "C" NOT NULL,
    accepted_at   TEXT COLLATE "C",
    UNIQUE (follower_id, followed_id),
    CHECK (follower_id <> followed_id),
    CHECK ((status = 'accepted') = (accepted_at IS NOT NULL))
);

-- Whom a user follows is the UNIQUE index; who follows a user (followers, requests) is this one.
CREATE INDEX follows_followed ON follows (followed_id, status, requested_at);
