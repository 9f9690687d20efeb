"""Reminders benchmark (issue 18): what 100,000 pending reminders cost the server, and how late a burst
of 10,000 reminders due in the same minute fires. Two release servers with temporary databases, each
with the test clock (`--test-endpoints`), side by side in the same run:

- **pending**: BENCH_REMINDER_USERS (10) people whose personal daily chores carry five reminders each
  (at due time, 30 minutes, 1, 2 and 24 hours before), starting two days ahead, created through
  `syncBatch` (100 `createChore` a request) until at least BENCH_REMINDERS_PENDING (100,000) `chore.remind`
  jobs are pending (the planner writes one per stored instance and offset, `--chore-horizon` 14 days
  ahead). The seeding's wall time is reported.
- **baseline**: the same people and nothing pending.

1. **Memory.** Both servers are restarted on their databases (so neither carries what seeding left in
   its caches) and the RSS of each is read once the scheduler has made its first pass (it reads the
   queue's earliest due time at start) and after the burst rounds.
2. **Firing lag.** In each of BENCH_ROUNDS (3) rounds, alternating the sides, BENCH_REMINDERS_BURST
   (10,000) reminders come due in one minute: as many one-off personal chores, spread over the
   people and over the seconds of a minute ten minutes ahead, each reminding at its due time (offsets
   are whole minutes, so one chore has one reminder in a given minute). The test clock (`POST /_test/clock`) then jumps to the
   minute's end, so every one of them is due at once, and the lag of each reminder is its notice's
   `created_at` minus the instant the clock jumped to (the clock is the wall clock plus an offset,
   so this is wall time). Reported: p50, p99 and the last (the drain time), and the server's CPU time
   per reminder over the burst. The pending side must not fire any of its 100,000 in between (checked).
The issue's third figure, push encryption per core, is `tools/bench/push/run.py` (RFC 8291 and VAPID
beside `http_ece` and `py_vapid`), which `make bench` runs too; it is not repeated here.

Run with `make bench`, or `.venv/bin/python tools/bench/reminders/run.py` after
`swift build -c release --product hearth` (HEARTH_BIN names another binary). Bounded: seeding about a
minute and a half, each burst well under a minute on the 2-core machine, a burst that takes longer than
BENCH_REMINDERS_TIMEOUT (600 s) fails the run. Environment: BENCH_REMINDERS_PENDING (100000),
BENCH_REMINDERS_BURST (10000), BENCH_REMINDER_USERS (10), BENCH_ROUNDS (3)."""
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402
import signedin  # noqa: E402
from fanout import percentile  # noqa: E402
from signedin import BASE_URL, BATCH, CREATE_CHORE, entry, send_batches  # noqa: E402

PENDING = int(os.environ.get("BENCH_REMINDERS_PENDING", "100000"))
BURST = int(os.environ.get("BENCH_REMINDERS_BURST", "10000"))
USERS = int(os.environ.get("BENCH_REMINDER_USERS", "10"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
TIMEOUT = float(os.environ.get("BENCH_REMINDERS_TIMEOUT", "600"))
SERVER_FLAGS = ("--access-log", "off", "--password-hash-cost", "10", "--public-base-url", BASE_URL, "--test-endpoints",
                "--mail-requests-per-address", "1000000", "--access-token-ttl", "1d", "--ws-ping-interval", "0",
                "--heartbeat-interval", "1h", "--max-chores-per-household", "100000")
PENDING_OFFSETS = ["PT0S", "PT30M", "PT1H", "PT2H", "P1D"]


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def stored_seconds(text):
    """A stored timestamp (RFC 3339, UTC) as seconds since 1970."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


class Side:
    """One server and its people; the database outlives restarts."""

    def __init__(self, name, directory):
        self.name = name
        self.database = os.path.join(directory, f"{name}.sqlite")
        self.hearth = benchlib.Hearth(*SERVER_FLAGS, database=self.database)
        self.client = signedin.Client(self.hearth)
        self.people = [self.client.person(f"{name}{n}") for n in range(USERS)]

    def restart(self):
        """Stops the server and starts it again on the same database; waits for the scheduler's first pass."""
        self.hearth.stop()
        self.hearth = benchlib.Hearth(*SERVER_FLAGS, database=self.database)
        self.client = signedin.Client(self.hearth)
        self.people = [self.client.login(f"{self.name}{n}") for n in range(USERS)]
        time.sleep(1)  # the scheduler's first look at the queue, and nothing else, happens meanwhile

    def scalar(self, sql, arguments=()):
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as database:
            return database.execute(sql, arguments).fetchone()[0]

    def pending(self):
        return self.scalar("SELECT count(*) FROM jobs WHERE kind = 'chore.remind' AND state = 'pending'")

    def move_clock(self, instant):
        """Moves the server's clock to `instant` (seconds since 1970; an earlier one leaves it); returns
        the time it reads then, in seconds since 1970."""
        request = urllib.request.Request(self.hearth.url("/_test/clock"), data=str(instant).encode(), method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.read()) / 1000

    def seed_pending(self):
        """Daily chores with five reminders each until PENDING reminders wait; returns the seconds it took."""
        started = time.monotonic()
        start = (datetime.now(timezone.utc) + timedelta(days=2)).replace(hour=9, minute=0, second=0, microsecond=0)
        created = 0
        while self.pending() < PENDING:
            entries = [entry(CREATE_CHORE, {
                "title": f"Chore {created + n}", "assignmentMode": "INDIVIDUAL", "reminders": [{"before": o} for o in PENDING_OFFSETS],
                "schedule": {"recurrence": f"DTSTART:{start.strftime('%Y%m%dT%H%M%SZ')}\nRRULE:FREQ=DAILY"}}) for n in range(BATCH)]
            send_batches(self.client, self.people[(created // BATCH) % USERS], entries)
            created += BATCH
        return time.monotonic() - started, created

    def burst(self, round_number):
        """BURST reminders due within one minute ahead of the server's clock, then the clock moved to
        its end; returns (lags in seconds, server CPU seconds over the burst)."""
        minute = (datetime.fromtimestamp(self.move_clock(0), timezone.utc) + timedelta(minutes=10)).replace(second=0, microsecond=0)
        per_person = [[] for _ in self.people]
        for n in range(BURST):
            per_person[n % USERS].append(entry(CREATE_CHORE, {
                "title": f"Burst {round_number}.{n}", "assignmentMode": "INDIVIDUAL", "schedule": {"once": iso(minute + timedelta(seconds=n % 60))},
                "reminders": [{"before": "PT0S"}]}))
        for token, entries in zip(self.people, per_person):
            send_batches(self.client, token, entries)
        end = (minute + timedelta(minutes=1)).timestamp()
        due = self.scalar("SELECT count(*) FROM jobs WHERE kind = 'chore.remind' AND state = 'pending' AND due_at < ?", (iso(minute + timedelta(minutes=1)),))
        if due != BURST:
            raise RuntimeError(f"{self.name}: {due} reminders due in the burst's minute, not {BURST}")
        before = self.scalar("SELECT count(*) FROM notifications WHERE kind = 'reminder'")
        cpu = benchlib.cpu_seconds(self.hearth.process.pid)
        self.move_clock(end)
        jumped = time.monotonic()
        while self.scalar("SELECT count(*) FROM notifications WHERE kind = 'reminder'") < before + BURST:
            if time.monotonic() - jumped > TIMEOUT:
                raise RuntimeError(f"{self.name}: the burst did not fire within {TIMEOUT} s")
            time.sleep(0.05)
        cpu = benchlib.cpu_seconds(self.hearth.process.pid) - cpu
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as database:
            stamps = [row[0] for row in database.execute(
                "SELECT created_at FROM notifications WHERE kind = 'reminder' AND title LIKE ?", (f"Burst {round_number}.%",))]
        if len(stamps) != BURST:
            raise RuntimeError(f"{self.name}: {len(stamps)} burst notices, not {BURST}")
        return [stored_seconds(stamp) - end for stamp in stamps], cpu


def main():
    benchlib.raise_fd_limit()
    directory = tempfile.mkdtemp(prefix="hearth-reminders-")
    sides = {}
    try:
        sides["pending"] = Side("pending", directory)
        sides["baseline"] = Side("baseline", directory)
        seconds, chores = sides["pending"].seed_pending()
        pending = sides["pending"].pending()
        print(json.dumps({"seeded": {"pending_reminders": pending, "chores": chores, "seconds": round(seconds, 1),
                                     "reminders_per_second": round(pending / seconds)}}), flush=True)
        for side in sides.values():
            side.restart()
        rss = {name: {"after_restart_kib": side.hearth.rss_kib()} for name, side in sides.items()}
        results = {name: {"lags": [], "cpu": [], "p99": []} for name in sides}
        for round_number in range(ROUNDS):
            order = list(sides) if round_number % 2 == 0 else list(reversed(sides))
            for name in order:
                lags, cpu = sides[name].burst(round_number)
                results[name]["lags"] += lags
                results[name]["cpu"].append(cpu)
                results[name]["p99"].append(round(percentile(lags, 0.99), 3))
                print(json.dumps({"round": round_number, "side": name, "p50_s": round(percentile(lags, 0.5), 3),
                                  "p99_s": round(percentile(lags, 0.99), 3), "last_s": round(max(lags), 3),
                                  "cpu_us_per_reminder": round(cpu * 1e6 / BURST)}), flush=True)
        if sides["pending"].pending() != pending:
            raise RuntimeError(f"pending reminders fired during the bursts: {pending} before, {sides['pending'].pending()} after")
        for name, side in sides.items():
            rss[name]["after_bursts_kib"] = side.hearth.rss_kib()
            lags = results[name]["lags"]
            print(json.dumps({"side": name, "pending_reminders": side.pending(), **rss[name],
                              "database_kib": os.path.getsize(side.database) // 1024,
                              "burst": BURST, "p50_s": round(percentile(lags, 0.5), 3), "p99_s": round(percentile(lags, 0.99), 3),
                              "last_s": round(max(lags), 3), "p99_rounds_s": results[name]["p99"],
                              "cpu_us_per_reminder": round(sum(results[name]["cpu"]) * 1e6 / (BURST * ROUNDS))}), flush=True)
        ours, theirs = results["pending"], results["baseline"]
        print(json.dumps({"ratio": {
            "rss_after_restart": round(rss["pending"]["after_restart_kib"] / rss["baseline"]["after_restart_kib"], 2),
            "rss_after_restart_difference_kib": rss["pending"]["after_restart_kib"] - rss["baseline"]["after_restart_kib"],
            "p99_lag": round(percentile(ours["lags"], 0.99) / percentile(theirs["lags"], 0.99), 2),
            "cpu_per_reminder": round(sum(ours["cpu"]) / sum(theirs["cpu"]), 2)}}), flush=True)
    finally:
        for side in sides.values():
            side.hearth.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
