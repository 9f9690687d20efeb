"""The measurement behind migration 0024's index (issue 16, "within 5 km"), in SQLite through Python's
sqlite3 module (Debian's libsqlite3, R*Tree compiled in): one million located events (geodata.py), a
viewer following 100 of the 10,000 users, 5 km queries at random centres, answered three ways with the
same visibility rule (HearthServices' HabitAudience):

- grid, (geohash, user_id) index, the cover's ranges ORed in the WHERE (the first design);
- grid, (user_id, geohash) index, the ranges as a VALUES table joined on geohash >= lower AND geohash <
  upper (what HabitEventsNear sends);
- an SQLite R*Tree over the events' points, built here only, read by the circle's bounding box (split at
  the antimeridian; every longitude near a pole).

Each side's rows are filtered by the exact haversine distance and must be the same set as the R*Tree's,
or the run fails. The grid's cover here is a plain one (every precision-6 cell of the bounding box,
consecutive cells merged), not GeohashCover: this compares indexes and SQL shapes; run.py beside this
file measures the service itself, in process and over HTTP (docs/benchmarks.md, "Within 5 km"). This
script drops and recreates the grid index: give it a database of its own, not run.py's.

    python3 tools/bench/geo/index_choice.py            # seeds a temporary database first (minutes)
    GEO_BENCH_DATABASE=/tmp/geo.db python3 tools/bench/geo/index_choice.py   # keeps and reuses it
Environment: GEO_BENCH_QUERIES (200)."""
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import geodata  # noqa: E402
import rtree  # noqa: E402
from rtree import AUDIENCE, OWNERS  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
QUERIES = int(os.environ.get("GEO_BENCH_QUERIES", "200"))
VIEWER = geodata.user_id(0)


def prepare(path):
    """A migrated, seeded database at `path` (reused when it holds events), with the viewer's follows."""
    if not os.path.exists(path):
        for name in sorted(os.listdir(os.path.join(ROOT, "migrations"))):
            with open(os.path.join(ROOT, "migrations", name)) as sql:
                subprocess.run(["sqlite3", path], stdin=sql, check=True)
        geodata.seed(path)
    connection = sqlite3.connect(path)
    connection.execute("DELETE FROM follows WHERE follower_id = ?", (VIEWER,))
    followed = random.Random(3).sample(range(1, 10_000), 100)
    connection.executemany(
        "INSERT INTO follows (id, follower_id, followed_id, status, requested_at, accepted_at) VALUES (?, ?, ?, 'accepted', 'x', 'x')",
        [(geodata.typed_id("fol", index), VIEWER, geodata.user_id(index)) for index in followed])
    connection.commit()
    rtree.build(connection, "bench_rtree")
    return connection


def box_cover(latitude, longitude, radius, precision=6):
    """Every precision-`precision` cell meeting the circle's bounding box, merged into ranges."""
    span, lon_span = rtree.bounding_box(latitude, longitude, radius)
    bits = 5 * precision
    width, height = 360 / 2 ** ((bits + 1) // 2), 180 / 2 ** (bits // 2)
    cells = set()
    y = max(-90, latitude - span)
    while y <= min(90, latitude + span + height):
        x = longitude - lon_span
        while x <= longitude + lon_span + width:
            cells.add(geodata.geohash(min(90, y), (x + 180) % 360 - 180, precision))
            x += width
        y += height
    values = sorted(int("".join(format(geodata.ALPHABET.index(c), "05b") for c in cell), 2) for cell in cells)
    ranges = []
    for value in values:
        if ranges and ranges[-1][1] == value:
            ranges[-1][1] = value + 1
        else:
            ranges.append([value, value + 1])

    def text(value):
        if value >= 32 ** precision:
            return "z" * (geodata.STORED_PRECISION + 1)
        return "".join(geodata.ALPHABET[(value >> (5 * (precision - 1 - i))) & 31] for i in range(precision))
    return [(text(lower), text(upper)) for lower, upper in ranges]


def grid_or(ranges):
    terms = " OR ".join("(e.geohash >= ? AND e.geohash < ?)" for _ in ranges)
    return (f"SELECT e.id, e.latitude, e.longitude FROM habit_events AS e JOIN habits ON habits.id = e.habit_id "
            f"WHERE ({terms}) AND e.user_id IN ({OWNERS}) AND {AUDIENCE}",
            [bound for pair in ranges for bound in pair] + [VIEWER] * 4)


def grid_values(ranges):
    values = ", ".join("(?, ?)" for _ in ranges)
    return (f"WITH ranges (lower_bound, upper_bound) AS (VALUES {values}) SELECT e.id, e.latitude, e.longitude FROM ranges "
            f"JOIN habit_events AS e ON e.geohash >= ranges.lower_bound AND e.geohash < ranges.upper_bound "
            f"JOIN habits ON habits.id = e.habit_id WHERE e.user_id IN ({OWNERS}) AND {AUDIENCE}",
            [bound for pair in ranges for bound in pair] + [VIEWER] * 4)


def main():
    path = os.environ.get("GEO_BENCH_DATABASE") or os.path.join(tempfile.mkdtemp(prefix="geo-bench-"), "geo.db")
    connection = prepare(path)
    centres = geodata.query_centres(QUERIES)
    sides = {"grid (geohash, user_id), ORed ranges": ("geohash, user_id", grid_or),
             "grid (user_id, geohash), VALUES ranges": ("user_id, geohash", grid_values)}
    truth = []
    times = {"R*Tree": []}
    for latitude, longitude in centres:
        sql, arguments = rtree.statement("bench_rtree", latitude, longitude, 5000, VIEWER)
        started = time.perf_counter()
        rows = connection.execute(sql, arguments).fetchall()
        times["R*Tree"].append(time.perf_counter() - started)
        truth.append({event for _, event in rtree.within(rows, latitude, longitude, 5000)})
    for label, (columns, statement) in sides.items():
        connection.execute("DROP INDEX IF EXISTS bench_grid")
        connection.execute("DROP INDEX IF EXISTS habit_events_grid")
        connection.execute(f"CREATE INDEX bench_grid ON habit_events ({columns})")
        times[label] = []
        for (latitude, longitude), expected in zip(centres, truth):
            ranges = box_cover(latitude, longitude, 5000)
            sql, arguments = statement(ranges)
            started = time.perf_counter()
            rows = connection.execute(sql, arguments).fetchall()
            times[label].append(time.perf_counter() - started)
            found = {event for _, event in rtree.within(rows, latitude, longitude, 5000)}
            if found != expected:
                raise SystemExit(f"{label} found {len(found)} events near {latitude}, {longitude}; the R*Tree {len(expected)}")
    for label, values in times.items():
        values.sort()
        print(f"{label}: p50 {values[len(values) // 2] * 1e3:.2f} ms, p99 {values[min(len(values) - 1, int(len(values) * 0.99))] * 1e3:.2f} ms "
              f"({len(values)} queries, {sum(len(t) for t in truth)} events found)", flush=True)


if __name__ == "__main__":
    main()
