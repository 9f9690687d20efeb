"""Geo benchmark (issue 16, "within 5 km"): Hearth's geohash grid against SQLite's R*Tree on one
million located habit events over a realistic spread (geodata.py: dense cities of several sizes and
latitudes, sparse countryside, a few events across the antimeridian and near the poles; 10,000
users with two habits each, one in five private).

The viewer is a real account (registered through the API) with events of their own, following
GEO_BENCH_FOLLOWS (100) of the users. Every side answers the same 5 km queries at random centres
(geodata.query_centres: three in four where people are, the rest anywhere on the globe, near the
antimeridian and the poles), scope BOTH, the nearest 100:

- R*Tree: SQLite's R*Tree over the points (rtree.py), built for the benchmark only in a database of
  its own attached beside Hearth's, read by the circle's bounding box with Hearth's visibility rule,
  then kept by the haversine distance, in Python's sqlite3 (Debian's libsqlite3);
- in process: `GeoService.habitEventsNear` (GeohashCover, HabitEventsNear's statement, the exact
  filter) without HTTP, in GeoBench (Sources beside this file, release build), once per cover range
  limit of GEO_BENCH_CAPS: the sweep that chose `--max-nearby-cover-ranges`' default;
- over HTTP: the `habitEventsNear` query through the real release server (keep-alive, one request at
  a time), with the server's CPU time per query from /proc/PID/stat.

The sides alternate over BENCH_ROUNDS rounds (3), their order rotating; each round's p50 and p99 are
taken, and the figures are the medians over the rounds. Every side must find the same events for
every query (the ids of the nearest 100, in order) or the run fails.

Run with `make bench`, or after `make release && swift build -c release --product GeoBench`:
`.venv/bin/python tools/bench/geo/run.py`. Seeding one million events takes minutes: set
GEO_BENCH_DATABASE to a path to keep the seeded database and reuse it (the R*Tree beside it, in
PATH-rtree). Quick smoke run: GEO_BENCH_EVENTS=50000 GEO_BENCH_USERS=1000 GEO_BENCH_QUERIES=50
BENCH_ROUNDS=1. Environment: GEO_BENCH_EVENTS (1000000), GEO_BENCH_USERS (10000), GEO_BENCH_FOLLOWS
(100), GEO_BENCH_QUERIES (400), GEO_BENCH_CAPS (the limits measured in process, "8,16,24,32,48,64"),
GEO_BENCH_SERVER_CAP (the server's --max-nearby-cover-ranges, its default unless given),
GEO_BENCH_BIN (the GeoBench binary), HEARTH_BIN, BENCH_ROUNDS."""
import http.client
import json
import math
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import benchlib  # noqa: E402
import geodata  # noqa: E402
import rtree  # noqa: E402
from signedin import BASE_URL, PASSWORD, Client  # noqa: E402

GEO_BENCH = os.environ.get("GEO_BENCH_BIN", os.path.join(benchlib.ROOT, ".build", "release", "GeoBench"))
EVENTS = int(os.environ.get("GEO_BENCH_EVENTS", "1000000"))
USERS = int(os.environ.get("GEO_BENCH_USERS", "10000"))
FOLLOWS = int(os.environ.get("GEO_BENCH_FOLLOWS", "100"))
QUERIES = int(os.environ.get("GEO_BENCH_QUERIES", "400"))
CAPS = [int(cap) for cap in os.environ.get("GEO_BENCH_CAPS", "8,16,24,32,48,64").split(",")]
SERVER_CAP = os.environ.get("GEO_BENCH_SERVER_CAP")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
RADIUS = 5000
FIRST = 100
VIEWER = "geoviewer"
RTREE = "bench.points"
SERVER_FLAGS = ("--access-log", "off", "--access-token-ttl", "1h", "--password-hash-cost", "10", "--public-base-url", BASE_URL)
NEAR = ("query Near($latitude: Float!, $longitude: Float!, $first: Int) { habitEventsNear(latitude: $latitude, "
        "longitude: $longitude, first: $first) { distanceMeters event { id } } }")


def prepare(path):
    """The seeded database at `path` (made when absent: the viewer registered through the API, the
    world written by geodata.seed, the viewer's follows) and its R*Tree; returns the viewer's id."""
    if not os.path.exists(path):
        hearth = benchlib.Hearth(*SERVER_FLAGS, database=path)
        try:
            Client(hearth).person(VIEWER)
        finally:
            hearth.stop()
        viewer = viewer_id(path)
        users = geodata.seed(path, events=EVENTS, users=USERS, owners=(viewer,))
        with sqlite3.connect(path) as connection:
            followed = random.Random(3).sample(users[1:], min(FOLLOWS, len(users) - 1))
            connection.executemany(
                "INSERT INTO follows (id, follower_id, followed_id, status, requested_at, accepted_at) "
                "VALUES (?, ?, ?, 'accepted', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
                [(geodata.typed_id("fol", index), viewer, user) for index, user in enumerate(followed)])
    viewer = viewer_id(path)
    connection = open_with_rtree(path)
    rtree.build(connection, RTREE)
    connection.close()
    return viewer


def viewer_id(path):
    """The viewer's user id in the database at `path`; stops the run when it is not this benchmark's."""
    with sqlite3.connect(path) as connection:
        row = connection.execute("SELECT id FROM users WHERE username = ?", (VIEWER,)).fetchone()
        grid = connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'habit_events_grid'").fetchone()
    if not row or not grid:
        sys.exit(f"{path} is not this benchmark's database (no {VIEWER} or no habit_events_grid index): give another "
                 "GEO_BENCH_DATABASE (index_choice.py's database drops the grid index)")
    return row[0]


def open_with_rtree(path):
    """A connection to the database at `path` with the R*Tree's database (`PATH-rtree`) attached as `bench`."""
    connection = sqlite3.connect(path)
    connection.execute("ATTACH DATABASE ? AS bench", (path + "-rtree",))
    return connection


def percentile(values, fraction):
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


class RTreeSide:
    """The R*Tree answering the centres in this process, timed per query (wall) and per pass (CPU)."""

    def __init__(self, path, viewer):
        self.connection = open_with_rtree(path)
        self.viewer = viewer

    def answer(self, latitude, longitude):
        rows = self.connection.execute(*rtree.statement(RTREE, latitude, longitude, RADIUS, self.viewer)).fetchall()
        return [event for _, event in rtree.within(rows, latitude, longitude, RADIUS)[:FIRST]]

    def run(self, centres):
        seconds, cpu_seconds, ids = [], [], []
        cpu = time.process_time()
        for latitude, longitude in centres:
            started, cpu_started = time.perf_counter(), time.process_time()
            ids.append(self.answer(latitude, longitude))
            cpu_seconds.append(time.process_time() - cpu_started)
            seconds.append(time.perf_counter() - started)
        return {"R*Tree": {"seconds": seconds, "cpu_seconds": cpu_seconds, "ids": ids, "cpu_s": time.process_time() - cpu}}


class InProcessSide:
    """GeoBench: the service's query path in a process of its own, once per range limit."""

    def __init__(self, path, centres_file):
        self.command = [GEO_BENCH, path, f"{VIEWER}@example.com", PASSWORD, centres_file]

    def run(self, caps):
        output = subprocess.run(self.command + [",".join(map(str, caps))], check=True, capture_output=True, text=True).stdout
        return {f"in process, cap {line['cap']}": line for line in map(json.loads, output.splitlines())}


class HTTPSide:
    """`habitEventsNear` over HTTP through the release server, one keep-alive connection."""

    def __init__(self, hearth, token):
        self.hearth = hearth
        self.headers = {"Content-Type": "application/json", "Authorization": "Bearer " + token}
        self.label = f"HTTP habitEventsNear, cap {SERVER_CAP or 'default'}"

    def run(self, centres):
        connection = http.client.HTTPConnection("127.0.0.1", self.hearth.port)
        seconds, ids = [], []
        cpu = benchlib.cpu_seconds(self.hearth.process.pid)
        for latitude, longitude in centres:
            body = json.dumps({"query": NEAR, "variables": {"latitude": latitude, "longitude": longitude, "first": FIRST}})
            started = time.perf_counter()
            connection.request("POST", "/graphql", body, self.headers)
            answer = json.load(connection.getresponse())
            seconds.append(time.perf_counter() - started)
            if answer.get("errors"):
                raise RuntimeError(f"habitEventsNear failed: {answer['errors']}")
            ids.append([entry["event"]["id"] for entry in answer["data"]["habitEventsNear"]])
        cpu = benchlib.cpu_seconds(self.hearth.process.pid) - cpu
        connection.close()
        return {self.label: {"seconds": seconds, "ids": ids, "cpu_s": cpu}}


def check(label, found, expected, centres):
    """Fails the run when `found` differs from the R*Tree's answer for any centre."""
    for (latitude, longitude), ours, theirs in zip(centres, found, expected):
        if ours != theirs:
            missing, extra = set(theirs) - set(ours), set(ours) - set(theirs)
            sys.exit(f"{label} answered {len(ours)} events near {latitude}, {longitude}, the R*Tree {len(theirs)} "
                     f"(missing {sorted(missing)[:5]}, extra {sorted(extra)[:5]}, or another order)")


def median_percentile(samples, key, fraction):
    """The median over the rounds of each round's percentile of `key`, in ms."""
    return statistics.median(percentile(s[key], fraction) for s in samples) * 1e3


def summary(label, samples, queries):
    """Prints the medians over the rounds of each round's p50 and p99 (wall clock, and one query's
    CPU time where the side measures it) and of the CPU per query; returns {"p99": …, "cpu p99": …}."""
    p99 = median_percentile(samples, "seconds", 0.99)
    cpu = statistics.median(s["cpu_s"] for s in samples) / queries * 1e6
    line = f"{label}: p50 {median_percentile(samples, 'seconds', 0.50):.2f} ms, p99 {p99:.2f} ms, CPU {cpu:,.0f} us per query"
    figures = {"p99": p99}
    first = samples[0]
    if "cpu_seconds" in first:
        figures["cpu p99"] = median_percentile(samples, "cpu_seconds", 0.99)
        line += (f" (one query's CPU p50 {median_percentile(samples, 'cpu_seconds', 0.50):.2f} ms, "
                 f"p99 {figures['cpu p99']:.2f} ms)")
    if "ranges" in first:
        line += (f"; cover ranges mean {statistics.mean(first['ranges']):.1f}, precision "
                 + ", ".join(f"{p}: {first['precisions'].count(p)}" for p in sorted(set(first["precisions"])))
                 + f"; area read / circle mean {statistics.mean(first['area_ratio']):.1f}, "
                 f"p99 {percentile(first['area_ratio'], 0.99):.1f}")
    print(line, flush=True)
    return figures


def main():
    keep = os.environ.get("GEO_BENCH_DATABASE")
    directory = tempfile.mkdtemp(prefix="geo-bench-")
    path = keep or os.path.join(directory, "geo.sqlite")
    started = time.monotonic()
    viewer = prepare(path)
    with sqlite3.connect(path) as connection:
        stored = connection.execute("SELECT count(*) FROM habit_events WHERE geohash IS NOT NULL").fetchone()[0]
    centres = geodata.query_centres(QUERIES)
    centres_file = os.path.join(directory, "centres.json")
    with open(centres_file, "w") as file:
        json.dump(centres, file)
    server_flags = SERVER_FLAGS + (("--max-nearby-cover-ranges", SERVER_CAP) if SERVER_CAP else ())
    hearth = benchlib.Hearth(*server_flags, database=path)
    try:
        token = Client(hearth).run(
            "mutation($input: LoginInput!) { login(input: $input) { tokens { accessToken } } }",
            {"input": {"email": f"{VIEWER}@example.com", "password": PASSWORD}})["login"]["tokens"]["accessToken"]
        baseline, in_process, over_http = RTreeSide(path, viewer), InProcessSide(path, centres_file), HTTPSide(hearth, token)
        print(f"# prepared in {time.monotonic() - started:.0f} s; warming up", flush=True)
        baseline.run(centres)
        over_http.run(centres)
        sides = [lambda: baseline.run(centres), lambda: in_process.run(CAPS), lambda: over_http.run(centres)]
        samples = {}
        for round_ in range(ROUNDS):
            for side in sides[round_ % 3:] + sides[:round_ % 3]:
                for label, figures in side().items():
                    samples.setdefault(label, []).append(figures)
    finally:
        hearth.stop()
        shutil.rmtree(directory, ignore_errors=True)
    truth = samples["R*Tree"][0]["ids"]
    for label, rounds in samples.items():
        for figures in rounds:
            check(label, figures["ids"], truth, centres)
    found = sum(len(ids) for ids in truth)
    print(f"# geo within {RADIUS} m: {stored:,} located events, {QUERIES} queries (scope BOTH, first {FIRST}, "
          f"{found:,} events found, identical on every side), viewer following {FOLLOWS}; {ROUNDS} alternating rounds, "
          f"medians of each round's p50 and p99")
    figures = {label: summary(label, rounds, QUERIES) for label, rounds in samples.items()}
    baseline_figures = figures.pop("R*Tree")
    for label, ours in figures.items():
        for name in ours:
            benchlib.report(f"geo {name} {label} against the R*Tree (ms)", ours[name], baseline_figures[name], "ms",
                            goal=1.0 if name == "p99" else None, higher_is_better=False)
    http_samples = samples[over_http.label]
    rate = statistics.median(len(s["seconds"]) / sum(s["seconds"]) for s in http_samples)
    print(f"HTTP: {rate:,.0f} queries/s one at a time, server CPU "
          f"{statistics.median(s['cpu_s'] for s in http_samples) / QUERIES * 1e6:,.0f} us per query", flush=True)


if __name__ == "__main__":
    main()
