"""The geo benchmarks' baseline: SQLite's R*Tree (compiled into Debian's libsqlite3, reached through
Python's sqlite3 module) over the events' points, built for the benchmark only, answering "within
`radius` of a point" for a viewer with the same visibility rule as Hearth (HearthServices'
HabitAudience: your own events, and those of the users you follow whose habits show followers).

The R*Tree is read by the circle's bounding box (split at the antimeridian; every longitude when the
circle holds or nears a pole); the rows are then kept by the exact haversine distance."""
import math

import geodata

AUDIENCE = ("(habits.user_id = ? OR (habits.visibility = 'followers' AND EXISTS (SELECT 1 FROM follows WHERE "
            "follows.follower_id = ? AND follows.followed_id = habits.user_id AND follows.status = 'accepted')))")
OWNERS = "SELECT ? UNION ALL SELECT followed_id FROM follows WHERE follower_id = ? AND status = 'accepted'"


def build(connection, table):
    """Creates the R*Tree `table` (schema-qualified names allowed) over every located event of the
    connection's `habit_events`, unless it holds points already."""
    connection.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING rtree(event_rowid, min_lat, max_lat, min_lon, max_lon)")
    if connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0:
        connection.execute(f"INSERT INTO {table} SELECT rowid, latitude, latitude, longitude, longitude FROM habit_events "
                           "WHERE latitude IS NOT NULL")
    connection.commit()


def bounding_box(latitude, longitude, radius):
    """(latitude span, longitude span) in degrees either side of the centre; the longitude span is
    180 when the circle holds or nears a pole."""
    span = math.degrees(radius / geodata.EARTH_RADIUS)
    cosine = math.cos(math.radians(latitude))
    wide = latitude + span >= 90 or latitude - span <= -90 or math.sin(math.radians(span)) >= 0.99 * cosine
    return span, 180 if wide else math.degrees(math.asin(math.sin(math.radians(span)) / cosine))


def statement(table, latitude, longitude, radius, viewer):
    """The SQL and arguments reading `table`'s candidates for the circle that `viewer` may see:
    rows of (event id, latitude, longitude). `CROSS JOIN` makes SQLite search the R*Tree first and
    join each point's event by rowid, as a spatial index is used; left to itself SQLite reads every
    event of every owner in scope through `habit_events_user_recorded` and looks each one up in the
    R*Tree by rowid, which costs in proportion to the owners' whole history (ten times the R*Tree's
    own plan at 1,000 events per user)."""
    span, lon_span = bounding_box(latitude, longitude, radius)
    west, east = longitude - lon_span, longitude + lon_span
    boxes = [(-180, 180)] if lon_span >= 180 else [(max(west, -180), min(east, 180))]
    if lon_span < 180 and west < -180:
        boxes.append((west + 360, 180))
    if lon_span < 180 and east > 180:
        boxes.append((-180, east - 360))
    where = " OR ".join("(r.min_lon <= ? AND r.max_lon >= ?)" for _ in boxes)
    return (f"SELECT e.id, e.latitude, e.longitude FROM {table} AS r CROSS JOIN habit_events AS e ON e.rowid = r.event_rowid "
            f"JOIN habits ON habits.id = e.habit_id WHERE r.min_lat <= ? AND r.max_lat >= ? AND ({where}) "
            f"AND e.user_id IN ({OWNERS}) AND {AUDIENCE}",
            [latitude + span, latitude - span] + [v for west_, east_ in boxes for v in (east_, west_)] + [viewer] * 4)


def within(rows, latitude, longitude, radius):
    """The rows (id, latitude, longitude) within `radius` of the centre, as (distance, id), nearest
    first, ties by id: the order habitEventsNear answers in."""
    found = ((geodata.distance(latitude, longitude, row[1], row[2]), row[0]) for row in rows)
    return sorted(entry for entry in found if entry[0] <= radius)
