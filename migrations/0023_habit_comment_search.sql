-- Searching habit event comments by word (US 04.03): `habitHistory(filter: { commentContains })`.
--
-- This migration is SQLite's dialect on purpose: full-text search is an FTS5 virtual table with
-- triggers that keep it in step with `habit_events` (a PostgreSQL store would use a tsvector column
-- and a GIN index instead). The triggers only maintain this derived index; no rule lives in them.
--
-- `unicode61` splits comments into words of letters and digits and folds case the Unicode way
-- ("Run" matches "run!", "café" matches "Café", not "cafe": diacritics are kept). The service
-- searches a quoted phrase, so FTS5's query syntax never reaches the user's text.
--
-- Each event's entry in the index has a key of its own (`habit_event_search_keys.key`, an INTEGER
-- PRIMARY KEY, which VACUUM never renumbers), so an edit or a delete finds its entry by key rather
-- than by scanning the index for the event's id.
CREATE TABLE habit_event_search_keys (
    key       INTEGER PRIMARY KEY,
    event_id  TEXT NOT NULL UNIQUE
) STRICT;

CREATE VIRTUAL TABLE habit_event_words USING fts5 (
    event_id UNINDEXED,
    comment,
    tokenize = 'unicode61 remove_diacritics 0'
);

CREATE TRIGGER habit_event_words_insert AFTER INSERT ON habit_events
BEGIN
    INSERT INTO habit_event_search_keys (event_id) VALUES (new.id);
    INSERT INTO habit_event_words (rowid, event_id, comment)
        SELECT key, new.id, new.comment FROM habit_event_search_keys WHERE event_id = new.id;
END;

CREATE TRIGGER habit_event_words_update AFTER UPDATE OF comment ON habit_events
BEGIN
    DELETE FROM habit_event_words WHERE rowid = (SELECT key FROM habit_event_search_keys WHERE event_id = old.id);
    INSERT INTO habit_event_words (rowid, event_id, comment)
        SELECT key, new.id, new.comment FROM habit_event_search_keys WHERE event_id = new.id;
END;

-- Also run for the events a deleted habit (or account) takes with it (ON DELETE CASCADE).
CREATE TRIGGER habit_event_words_delete AFTER DELETE ON habit_events
BEGIN
    DELETE FROM habit_event_words WHERE rowid = (SELECT key FROM habit_event_search_keys WHERE event_id = old.id);
    DELETE FROM habit_event_search_keys WHERE event_id = old.id;
END;
