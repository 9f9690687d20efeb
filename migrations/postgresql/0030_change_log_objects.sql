-- Offline sync (issue 17, "Reading what changed"): each change-log row lists the global ids of the
-- objects it touched, as a JSON array of strings, so `changes(since:)` can tell a client which
-- objects to read again (or forget) without understanding every payload kind. A delete that
-- cascades lists every id it removed. Rows recorded before this migration touched nothing
-- readable this way and keep the empty list.
ALTER TABLE change_log ADD COLUMN objects TEXT COLLATE "C" NOT NULL DEFAULT '[]';
