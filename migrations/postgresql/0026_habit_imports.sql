-- Imports of habits from other trackers (issue 16, "your data, in and out"): each imported habit and
-- event remembers the key it was imported under, so importing the same export again finds it and
-- creates nothing new. A habit's key is its source and its name there ('loop:Meditate'); an
-- event's, its source and day ('loop:2024-03-05'), unique within its habit. Rows made in Hearth
-- have no key (NULL, which unique indexes do not compare).
ALTER TABLE habits ADD COLUMN import_key TEXT COLLATE "C";
CREATE UNIQUE INDEX habits_import_key ON habits (user_id, import_key);

ALTER TABLE habit_events ADD COLUMN import_key TEXT COLLATE "C";
CREATE UNIQUE INDEX habit_events_import_key ON habit_events (habit_id, import_key);
