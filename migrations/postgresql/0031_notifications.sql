-- Reminders and notifications (issue 18): a chore's reminder offsets, each user's notification
-- preferences, and the record of every notice the server made for a user.

-- The chore's reminders (FR-49): seconds before the due time, ascending, separated by commas;
-- `0` is "at due time"; empty for none. Written and read (and checked) by the chore service.
ALTER TABLE chores ADD COLUMN reminder_offsets TEXT COLLATE "C" NOT NULL DEFAULT '';

-- One user's notification preferences; no row means the defaults (live stream and push, no quiet
-- hours). `channels` is a comma-separated list of 'live', 'email', 'push'. Quiet hours are minutes
-- of the day in the user's time zone, both set or neither; `quiet_start > quiet_end` spans midnight.
CREATE TABLE notification_preferences (
    user_id      TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    channels     TEXT COLLATE "C" NOT NULL,
    quiet_start  BIGINT CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end    BIGINT CHECK (quiet_end BETWEEN 0 AND 1439),
    time_zone    TEXT COLLATE "C",
    updated_at   TEXT COLLATE "C" NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL))
);

-- One notice made for one user (a reminder, a chore assigned or changed, a claim released). The
-- `dedupe_key` makes each notice happen once per user however often the job that makes it runs
-- (a reminder: instance, offset, due time). `tag` (at most 32 base64url characters) names what
-- a later dismissal withdraws. `skipped_reason` is set for a reminder that was not delivered
-- (it fell in quiet hours with no time left before the chore was due).
CREATE TABLE notifications (
    id              TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    user_id         TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    household_id    TEXT COLLATE "C" REFERENCES households (id) ON DELETE CASCADE,
    kind            TEXT COLLATE "C" NOT NULL,
    title           TEXT COLLATE "C" NOT NULL,
    body            TEXT COLLATE "C" NOT NULL,
    chore_id        TEXT COLLATE "C",
    instance_id     TEXT COLLATE "C",
    due_at          TEXT COLLATE "C",
    tag             TEXT COLLATE "C" NOT NULL CHECK (length(tag) BETWEEN 1 AND 32),
    dedupe_key      TEXT COLLATE "C" NOT NULL,
    skipped_reason  TEXT COLLATE "C",
    created_at      TEXT COLLATE "C" NOT NULL,
    read_at         TEXT COLLATE "C",
    dismissed_at    TEXT COLLATE "C",
    UNIQUE (user_id, dedupe_key)
);

CREATE INDEX notifications_user ON notifications (user_id, created_at, id);
CREATE INDEX notifications_instance ON notifications (user_id, instance_id);
-- Retention prunes by age across every account.
CREATE INDEX notifications_created ON notifications (created_at);
