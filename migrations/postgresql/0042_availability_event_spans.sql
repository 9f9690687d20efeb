-- Issue 18 follow-up: busy time (FR-50A) and the calendar read only the availability events that
-- can overlap the range they ask about, not every event of the user on every reminder.
--
-- `occupied_from` is when the event's first occurrence starts, `occupied_until` when its last one
-- ends (at the latest); both instants, whatever the event's kind. `occupied_until` is NULL for a
-- recurrence that goes on (no COUNT or UNTIL), so such a series is read however long ago it began.
-- NULL in either means "unknown: always read": the service writes both on every create and edit;
-- rows from before this migration get what plain SQL can tell (a timed event's start, a single
-- timed event's end) and the rest on their next edit.
ALTER TABLE availability_events ADD COLUMN occupied_from TEXT COLLATE "C";
ALTER TABLE availability_events ADD COLUMN occupied_until TEXT COLLATE "C";

UPDATE availability_events SET occupied_from = starts_at WHERE all_day = 0;
UPDATE availability_events SET occupied_until = ends_at WHERE all_day = 0 AND recurrence = '';

CREATE INDEX availability_events_occupied ON availability_events (user_id, occupied_until);
