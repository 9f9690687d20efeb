-- Searching habit event comments by word (US 04.03): `habitHistory(filter: { commentContains })`.
--
-- PostgreSQL's twin of SQLite's FTS5 table: each event's comment as a `tsvector`, a generated
-- column the database keeps in step itself (no trigger), with a GIN index. Words match as on
-- SQLite's `unicode61` tokenizer: every run of characters that are not letters or digits (by
-- Unicode, through the ICU collation `und-x-icu`) becomes a space first, so the parser sees plain
-- words only (no e-mail addresses, URLs or decimals read as one token), and the `simple`
-- configuration folds case and neither stems nor drops stop words ("Run" matches "run!", "café"
-- matches "Café", not "cafe": diacritics are kept). HearthStore's `DialectSQL` normalises the
-- searched phrase with the same expression. (One difference remains: unicode61 also counts other
-- numerals, such as "²" or "①", as word characters.)
ALTER TABLE habit_events ADD COLUMN comment_words tsvector
    GENERATED ALWAYS AS (to_tsvector('simple', regexp_replace(comment COLLATE "und-x-icu", '[^[:alnum:]]+', ' ', 'g'))) STORED;

CREATE INDEX habit_event_words ON habit_events USING GIN (comment_words);
