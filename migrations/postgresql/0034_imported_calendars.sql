-- Calendars a user imported from .ics files (issue 18, FR-61), shown read-only in their calendar and
-- used for their busy time. A calendar is the user's, named uniquely per user (name_key is the name
-- lowercased); importing a file under a name already taken replaces that calendar's events.
-- time_zones holds the file's VTIMEZONE components, which the events' TZIDs may name.
CREATE TABLE imported_calendars (
    id TEXT COLLATE "C" PRIMARY KEY,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT COLLATE "C" NOT NULL,
    name_key TEXT COLLATE "C" NOT NULL,
    time_zones TEXT COLLATE "C" NOT NULL,
    event_count BIGINT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    imported_at TEXT COLLATE "C" NOT NULL,
    UNIQUE (user_id, name_key)
);

-- One VEVENT of an imported calendar, kept as its iCalendar text (content) and expanded when read.
-- An event is identified in its calendar by its UID and, for an override of one occurrence, its
-- RECURRENCE-ID as written (recurrence_key, empty otherwise): a re-import keeps the ids of the
-- events it finds again.
CREATE TABLE imported_events (
    id TEXT COLLATE "C" PRIMARY KEY,
    calendar_id TEXT COLLATE "C" NOT NULL REFERENCES imported_calendars (id) ON DELETE CASCADE,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    uid TEXT COLLATE "C" NOT NULL,
    recurrence_key TEXT COLLATE "C" NOT NULL,
    summary TEXT COLLATE "C" NOT NULL,
    content TEXT COLLATE "C" NOT NULL,
    UNIQUE (calendar_id, uid, recurrence_key)
);
CREATE INDEX imported_events_user ON imported_events (user_id, calendar_id);
