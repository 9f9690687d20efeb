-- Households sort by a stored key instead of `COLLATE NOCASE` (docs/architecture.md, "Portable
-- SQL"): PostgreSQL has no NOCASE collation, and a key the service writes sorts alike in every
-- database. HouseholdService writes DisplayText.sortKey(name), the name lowercased, with every
-- name it writes.
ALTER TABLE households ADD COLUMN name_key TEXT COLLATE "C" NOT NULL DEFAULT '';

-- Existing rows get lower(). (On SQLite it folds ASCII letters only, as NOCASE did; a PostgreSQL
-- database starts empty, so no older order is kept here.)
UPDATE households SET name_key = lower(name);
