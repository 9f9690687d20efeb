-- Calendar feeds (issue 18, FR-61): an imported calendar may come from a feed URL the server
-- fetches and refreshes, rather than from an uploaded file. For an uploaded calendar source_url is
-- NULL and the other feed columns stay at their defaults.
--
-- source_url is the https:// URL fetched (webcal:// written as https://; URLs with a user name or
-- password are refused, so no credential is stored). etag and last_modified are the validators of
-- the last 200 answer, sent back as If-None-Match and If-Modified-Since. feed_status is 'active',
-- 'failing' (the last refresh failed; refreshes back off) or 'dead' (the feed answered 410, or 404
-- too often: no more refreshes until the user refreshes it by hand). refresh_failures counts the
-- failed refreshes in a row, missing_count the 404 answers in a row. next_refresh_at is when the
-- one scheduled refresh job of the feed is due (a job due at another time is stale and does nothing).
ALTER TABLE imported_calendars ADD COLUMN source_url TEXT COLLATE "C";
ALTER TABLE imported_calendars ADD COLUMN etag TEXT COLLATE "C";
ALTER TABLE imported_calendars ADD COLUMN last_modified TEXT COLLATE "C";
ALTER TABLE imported_calendars ADD COLUMN last_refreshed_at TEXT COLLATE "C";
ALTER TABLE imported_calendars ADD COLUMN last_refresh_error TEXT COLLATE "C";
ALTER TABLE imported_calendars ADD COLUMN feed_status TEXT COLLATE "C" NOT NULL DEFAULT 'active';
ALTER TABLE imported_calendars ADD COLUMN refresh_failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE imported_calendars ADD COLUMN missing_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE imported_calendars ADD COLUMN next_refresh_at TEXT COLLATE "C";

-- The events of the last import or refresh that were left out (an RRULE the recurrence engine does
-- not expand, such as FREQ=HOURLY or BYHOUR), as a JSON array of {uid, line, reason}.
ALTER TABLE imported_calendars ADD COLUMN skipped_events TEXT COLLATE "C" NOT NULL DEFAULT '[]';
