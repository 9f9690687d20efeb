-- When a widget token was last used (issue 19, FR-65), shown in the user's list of sessions so an
-- old, forgotten widget stands out. Written cheaply: a request with the token records its time only
-- when the one recorded is older than `--widget-token-touch-interval` (5 minutes by default), so a
-- widget polling every minute costs one write per token per interval, not one per poll. Null until
-- the token is first used.
ALTER TABLE widget_tokens ADD COLUMN last_used_at TEXT COLLATE "C";
