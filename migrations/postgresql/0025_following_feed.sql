-- The following feed (issue 16, US 06.03): the recent events of the users someone follows, most
-- recently recorded first. For each followed user the feed reads their events recorded since the
-- feed's start in this index's order, instead of every event they ever recorded by day
-- (`habit_events_user` orders by local day first).
CREATE INDEX habit_events_user_recorded ON habit_events (user_id, recorded_at, id);
