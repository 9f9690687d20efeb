-- The geohash grid's index (issue 16, "within 5 km"): the located habit events by their geohash, so
-- a query reads the few ranges of stored hashes that cover its circle (GeohashCover) and nothing
-- else. Only located events have a hash; the others stay out of the index (partial).
--
-- (geohash, user_id) rather than (user_id, geohash): a query asks for the viewer's and the followed
-- users' events in a handful of ranges, so with the grid first it makes one seek per range and
-- checks the owner from the index itself before touching a row; with the owner first it made one
-- seek per range for every followed user, most of them finding nothing. Measured with
-- tools/bench/geo on one million events (docs/benchmarks.md, "Within 5 km").
CREATE INDEX habit_events_grid ON habit_events (geohash, user_id) WHERE geohash IS NOT NULL;
