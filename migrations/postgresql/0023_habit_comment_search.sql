-- Searching habit event comments by word (US 04.03): `habitHistory(filter: { commentContains })`.
--
-- PostgreSQL's twin of SQLite's FTS5 table: each event's comment as a `tsvector` of the `simple`
-- configuration, a generated column kept in step by the database itself (no trigger), with a GIN
-- index. `simple` splits words as the default parser does, folds case and neither stems nor drops
-- stop words, so a word matches exactly as on SQLite's `unicode61` tokenizer ("Run" matches
-- "run!", "café" matches "Café", not "cafe": diacritics are kept). The store asks it with
-- `phraseto_tsquery('simple', ?)` (HearthStore's `DialectSQL`), given the same quoted phrase SQLite
-- reads: the quotes are punctuation to the parser, so the user's text is never query syntax.
ALTER TABLE habit_events ADD COLUMN comment_words tsvector
    GENERATED ALWAYS AS (to_tsvector('simple', comment)) STORED;

CREATE INDEX habit_event_words ON habit_events USING GIN (comment_words);
